import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, ledgerEntries, mailOutbox, payoutAttempts, railCallbacks, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { enquire, startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { PayPalServer } from '../support/paypal-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Payouts to a recipient's PayPal account through PayPal Payouts (docs/rules/payout-rails.md#paypal-payouts),
// against the loopback PayPal peer: one batch per attempt under its sender_batch_id, the item's
// status as the truth, a lost answer asked about and never paid twice, unclaimed items waited for
// and, when PayPal sends them back, left to staff. PayPal's webhooks are answered at once and bring
// an enquiry forward only once PayPal, asked by a job afterwards, verified their signature for our
// PAYPAL_WEBHOOK_ID, on the very bytes PayPal sent.

let t: TestApp;
let unconfigured: TestApp;
/** PayPal's credentials set, PAYPAL_WEBHOOK_ID not: no webhook can be verified. */
let noWebhookId: TestApp;
let paypal: PayPalServer;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  paypal = await new PayPalServer().start();
  const credentials = { PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url };
  t = await createTestApp({ env: { ...credentials, PAYPAL_WEBHOOK_ID: paypal.payouts.webhookId, MAIL_GROUP_SECONDS: '0' } });
  unconfigured = await createTestApp();
  noWebhookId = await createTestApp({ env: credentials });
  [sender, staff, admin] = await Promise.all([createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
}, 60_000);
afterAll(async () => {
  await t.close();
  await unconfigured.close();
  await noWebhookId.close();
  await paypal.stop();
});

const ctx = () => ({ config: t.config, db: t.database.db });
const railOn = (enabled: boolean) => t.request({ method: 'PUT', url: '/api/rails/paypal_payouts', token: admin.token, payload: { enabled } });
beforeEach(async () => { expect((await railOn(true)).statusCode).toBe(200); });

let recipients = 0;
/** A paid XAF → USD transfer to a PayPal account (a fresh e-mail each time), every control cleared. */
async function paidTransfer(email = `recipient${++recipients}@example.com`) {
  return createTransfer(t, sender.id, { paid: true, direction: 'XAF_USD', amount: '65000', recipient: { recipient_name: 'Marie Nguema', recipient_email: email } });
}
const transfer = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attempts = (id: string) => t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const entries = (id: string, kind: string) => t.database.db.select().from(ledgerEntries)
  .where(sql`${ledgerEntries.transfer_request_id} = ${id} and ${ledgerEntries.kind} = ${kind}`);
/** Whether the sender got an e-mail about the transfer whose subject says this. */
const senderToldOf = async (reference: string, subject: RegExp) => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, sender.email)))
  .some((m) => m.subject.includes(reference) && subject.test(m.subject));
const WEBHOOK_URL = '/api/rails/paypal/webhook';
/** A webhook whose body is this very text, sent as JSON. */
const webhook = (text: string, headers: Record<string, string> = {}, app = t) =>
  app.request({ method: 'POST', url: WEBHOOK_URL, payload: text, headers: { 'content-type': 'application/json', ...headers } });
/** PayPal's webhook as it arrives, signed for our webhook id. */
const signed = async (eventType: string, batch: Parameters<PayPalServer['payouts']['webhook']>[1], app = t) => {
  const { text, headers } = paypal.payouts.signedWebhook(eventType, batch);
  return webhook(text, headers, app);
};
/** When the attempt's next enquiry is due (its waiting job), or undefined when none waits. */
const nextEnquiry = async (attemptId: string, app = t) => {
  const [job] = (await app.database.db.execute(sql`select run_at from graphile_worker.jobs where key = ${`payout-enquire:${attemptId}`}`)).rows;
  return job ? new Date(job.run_at as string) : undefined;
};
/** The webhooks stored for an attempt, oldest first. */
const stored = (reference: string, app = t) => app.database.db.select().from(railCallbacks).where(eq(railCallbacks.reference, reference)).orderBy(asc(railCallbacks.received_at));
const verifications = () => paypal.requests.filter((r) => r.path === '/v1/notifications/verify-webhook-signature').length;
/** The webhook verifications queued and not done yet (waiting, running or parked). */
const verifying = async (app = t) => Number((await app.database.db.execute(sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'paypal_webhook_verify'`)).rows[0]!.n);
/** Every queued verification done: what a webhook set off has happened. */
const verified = () => expect.poll(() => verifying(), { timeout: 20_000 }).toBe(0);

describe('the paypal_payouts rail', () => {
  it("is listed with the others, configured by PayPal's credentials; only an admin switches it, audited", async () => {
    const rails = (await t.request({ method: 'GET', url: '/api/rails', token: staff.token })).json().data as { id: string }[];
    expect(rails.find((r) => r.id === 'paypal_payouts')).toMatchObject({ configured: true, missing: [], enabled: true, balance: null });
    expect((await t.request({ method: 'PUT', url: '/api/rails/paypal_payouts', token: staff.token, payload: { enabled: false } })).statusCode).toBe(403);
    const audited = await t.database.db.select().from(auditLog).where(eq(auditLog.target_id, 'paypal_payouts'));
    expect(audited.at(-1)).toMatchObject({ action: 'payout_rail.update', actor_profile_id: admin.id, after: { enabled: true } });

    const otherAdmin = await createUser(unconfigured, { role: 'admin' });
    const bare = (await unconfigured.request({ method: 'GET', url: '/api/rails', token: otherAdmin.token })).json().data as { id: string }[];
    expect(bare.find((r) => r.id === 'paypal_payouts')).toMatchObject({ configured: false, missing: ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET'] });
    expect((await unconfigured.request({ method: 'PUT', url: '/api/rails/paypal_payouts', token: otherAdmin.token, payload: { enabled: true } })).statusCode).toBe(409);
  });
});

describe('a payout to a PayPal account', () => {
  it('leaves by itself once staff record the payment: one item, the exact amount, to the e-mail; SUCCESS pays it', async () => {
    const created = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount: '65000', recipient: { recipient_name: 'Marie Nguema', recipient_email: 'marie.paid@example.com' } });
    const recorded = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/payment`, token: staff.token, payload: { amount: created.total, reference: 'STMT-PP1' } });
    expect(recorded.statusCode).toBe(200);
    // PayPal answers the new batch PENDING: the item is asked about next.
    await expect.poll(async () => (await attempts(created.id))[0]?.state, { timeout: 10_000 }).toBe('pending');
    const [attempt] = await attempts(created.id);
    expect(attempt).toMatchObject({ rail: 'paypal_payouts', email: 'marie.paid@example.com', amount: created.payout_amount, currency: 'USD' });
    const batch = paypal.payouts.bySenderBatchId(attempt!.reference)!;
    expect(batch.item).toMatchObject({ receiver: 'marie.paid@example.com', amount: { value: created.payout_amount, currency: 'USD' }, senderItemId: attempt!.reference });

    await enquire(ctx(), attempt!.id);
    await expect.poll(async () => (await transfer(created.id)).status, { timeout: 10_000 }).toBe('completed');
    const paid = await transfer(created.id);
    expect(paid).toMatchObject({ payout_status: 'sent', payout_reference: batch.id });
    expect((await attempts(created.id))[0]).toMatchObject({ state: 'succeeded', operator_id: batch.id });
    expect(await entries(created.id, 'payout')).toHaveLength(1);
    expect(paypal.payouts.made.get(attempt!.reference)).toBe(1);
  });

  it('an answer lost after PayPal made the batch: asked about under the same sender_batch_id, paid once', async () => {
    const email = 'lost.answer@example.com';
    const paid = await paidTransfer(email);
    paypal.failNext('payouts', { kind: 'lost' });
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const [unknown] = await attempts(paid.id);
    expect(unknown!.state).toBe('unknown');
    expect(unknown!.operator_id).toBeNull();

    await enquire(ctx(), unknown!.id);
    await enquire(ctx(), unknown!.id);
    const [settled] = await attempts(paid.id);
    expect(settled).toMatchObject({ state: 'succeeded', operator_id: paypal.payouts.bySenderBatchId(unknown!.reference)!.id });
    expect(paypal.payouts.made.get(unknown!.reference)).toBe(1);
    expect([...paypal.payouts.batches.values()].filter((b) => b.item.receiver === email)).toHaveLength(1);
    expect(await entries(paid.id, 'payout')).toHaveLength(1);
    // Asked again once paid, nothing moves and nothing is sent.
    expect(await startPayout(ctx(), paid.id)).toBe('waiting');
    expect(paypal.payouts.made.get(unknown!.reference)).toBe(1);
  });

  it('a token PayPal no longer takes (401) is renewed and the call made once more: the payout leaves at once, once', async () => {
    const paid = await paidTransfer();
    await startPayout(ctx(), paid.id);
    paypal.revokeTokens();
    const next = await paidTransfer();
    expect(await startPayout(ctx(), next.id)).toBe('sent');
    const [attempt] = await attempts(next.id);
    expect(attempt).toMatchObject({ state: 'pending', operator_id: expect.any(String) });
    paypal.revokeTokens();
    await enquire(ctx(), attempt!.id);
    expect((await attempts(next.id))[0]).toMatchObject({ state: 'succeeded' });
    expect(paypal.payouts.made.get(attempt!.reference)).toBe(1);
  });

  it('a reused sender_batch_id answered with no link to its batch: unknown, never failed, so staff cannot send a second one; nothing booked', async () => {
    const paid = await paidTransfer();
    paypal.failNext('payouts', { kind: 'lost' });
    await startPayout(ctx(), paid.id);
    const [lost] = await attempts(paid.id);
    paypal.payouts.duplicateAnswer = 'no_link';
    try {
      await enquire(ctx(), lost!.id);
    } finally {
      paypal.payouts.duplicateAnswer = 'link';
    }
    const [asked] = await attempts(paid.id);
    expect(asked).toMatchObject({ state: 'unknown', operator_id: null });
    expect(asked!.steps.at(-1)).toMatchObject({ call: 'disbursement', http_status: 400, operator_code: 'Duplicate batch request', state: 'unknown' });
    const retry = await t.request({ method: 'POST', url: `/api/transfer-requests/${paid.id}/payouts/retry`, token: staff.token, payload: {} });
    expect(retry.json().code).toBe('payout_attempt_open');
    expect(paypal.payouts.made.get(lost!.reference)).toBe(1);
    expect(await entries(paid.id, 'payout')).toHaveLength(0);
    // Asked again, PayPal's usual answer links the batch: paid, booked once.
    await enquire(ctx(), lost!.id);
    expect((await attempts(paid.id))[0]!.state).toBe('succeeded');
    expect(await entries(paid.id, 'payout')).toHaveLength(1);
  });

  it('no answer for 29 days: the sender_batch_id, which PayPal keeps 30 days, is not sent again; the attempt stays with staff', async () => {
    const paid = await paidTransfer();
    paypal.failNext('payouts', { kind: 'down' });
    await startPayout(ctx(), paid.id);
    const [unknown] = await attempts(paid.id);
    await t.database.db.update(payoutAttempts).set({ created_at: new Date(Date.now() - 29 * 24 * 3600_000) }).where(eq(payoutAttempts.id, unknown!.id));
    const sent = paypal.calls('payouts').length;
    await enquire(ctx(), unknown!.id);
    expect(paypal.calls('payouts').length).toBe(sent);
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'unknown', needs_attention_at: expect.any(Date) });
    expect(paypal.payouts.bySenderBatchId(unknown!.reference)).toBeUndefined();
  });

  it("PayPal's credentials removed while a payout is unclaimed: it goes to staff at once and keeps its enquiry", async () => {
    const email = 'credentials.removed@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    expect(attempt).toMatchObject({ state: 'pending', needs_attention_at: null });
    await enquire({ config: { ...t.config, PAYPAL_CLIENT_SECRET: undefined }, db: t.database.db }, attempt!.id);
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'pending', needs_attention_at: expect.any(Date) });
    const listed = (await t.request({ method: 'GET', url: '/api/payout-exceptions', token: staff.token })).json().data as { transfer: { id: string } }[];
    expect(listed.some((e) => e.transfer.id === paid.id)).toBe(true);
    expect(await nextEnquiry(attempt!.id)).toBeInstanceOf(Date);
  });

  it('unclaimed: pending, nothing booked, until the recipient claims it; their webhook brings the enquiry forward', async () => {
    const email = 'no.account.yet@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'pending' });
    expect((await attempts(paid.id))[0]!.steps.at(-1)).toMatchObject({ operator_code: 'UNCLAIMED', state: 'pending' });
    expect(await transfer(paid.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent' });
    expect(await entries(paid.id, 'payout')).toEqual([]);
    // The sender is told, once, that the recipient must claim the money on PayPal.
    await expect.poll(() => senderToldOf(paid.reference, /must claim the money on PayPal/), { timeout: 10_000 }).toBe(true);
    await enquire(ctx(), attempt!.id);
    const claimMails = (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, sender.email))).filter((m) => m.subject.includes(paid.reference) && /must claim/.test(m.subject));
    expect(claimMails).toHaveLength(1);
    expect(claimMails[0]!.text).toMatch(/30 days/);

    // Asked twice, the next enquiry is half a minute away: PayPal's verified webhook brings it forward.
    const batch = paypal.payouts.setItemStatus(attempt!.reference, 'SUCCESS');
    expect((await signed('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', batch)).statusCode).toBe(200);
    await expect.poll(async () => (await transfer(paid.id)).status, { timeout: 12_000 }).toBe('completed');
    expect((await stored(attempt!.reference)).at(-1)).toMatchObject({ operator: 'paypal', signature_ok: true });
    expect(paypal.payouts.made.get(attempt!.reference)).toBe(1);
  });

  it('unclaimed for 30 days, then RETURNED: failed, nothing booked, the transfer left to staff; never sent again by itself', async () => {
    const email = 'never.claimed@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    await enquire(ctx(), attempt!.id);
    paypal.payouts.setItemStatus(attempt!.reference, 'RETURNED');
    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]!.steps.at(-1)).toMatchObject({ operator_code: 'RETURNED', state: 'failed' });
    expect(await transfer(paid.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent' });
    expect(await entries(paid.id, 'payout')).toEqual([]);
    expect(await startPayout(ctx(), paid.id)).toBe('after_failure');
    expect(paypal.payouts.made.get(attempt!.reference)).toBe(1);
    // The sender is told it came back unclaimed, and what happens next.
    await expect.poll(() => senderToldOf(paid.reference, /not claimed on PayPal/), { timeout: 10_000 }).toBe(true);
  });

  it('paid, then REVERSED by PayPal: the refund path (books reversed, transfer open again for staff, the sender told)', async () => {
    const paid = await paidTransfer();
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    await enquire(ctx(), attempt!.id);
    expect(await transfer(paid.id)).toMatchObject({ status: 'completed', payout_status: 'sent' });

    const batch = paypal.payouts.setItemStatus(attempt!.reference, 'REVERSED');
    await signed('PAYMENT.PAYOUTS-ITEM.REVERSED', batch);
    await expect.poll(async () => (await attempts(paid.id))[0]!.state, { timeout: 15_000 }).toBe('reversed');
    expect(await transfer(paid.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent' });
    expect(await entries(paid.id, 'payout_reversal')).toHaveLength(1);
    expect(await entries(paid.id, 'fee_reversal')).toHaveLength(1);
    const timeline = await t.database.db.select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, paid.id));
    expect(timeline.map((s) => s.event ?? `${s.from_status}→${s.to_status}`)).toEqual(expect.arrayContaining(['payout_sent', 'payout_returned', 'completed→processing']));
    // The sender is told PayPal sent the payout back, and what happens next.
    const toldOf = async () => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, sender.email)))
      .some((m) => m.subject.includes(paid.reference) && /PayPal/.test(m.text) && /sent back|came back|returned/i.test(`${m.subject} ${m.text}`));
    await expect.poll(toldOf, { timeout: 10_000 }).toBe(true);
    // Staff decide what follows: nothing leaves again by itself.
    expect(await startPayout(ctx(), paid.id)).not.toBe('sent');
    expect(paypal.payouts.made.get(attempt!.reference)).toBe(1);
  });

  it.each(['FAILED', 'DENIED', 'BLOCKED'] as const)('%s: failed, nothing booked, staff decide', async (status) => {
    const email = `refused.${status.toLowerCase()}@example.com`;
    paypal.payouts.receiverStatus(email, status);
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'failed' });
    expect((await attempts(paid.id))[0]!.steps.at(-1)).toMatchObject({ operator_code: status });
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'not_sent' });
    expect(await startPayout(ctx(), paid.id)).toBe('after_failure');
  });

  it('a forged webhook (PayPal answers FAILURE, or it has no signature) is stored as such and moves nothing, not even the enquiry', async () => {
    const email = 'forged.claim@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    await enquire(ctx(), attempt!.id);
    const due = await nextEnquiry(attempt!.id);
    expect(due).toBeInstanceOf(Date);
    const asked = (await attempts(paid.id))[0]!.enquiries;
    const before = verifications();

    const batch = paypal.payouts.bySenderBatchId(attempt!.reference)!;
    const real = paypal.payouts.signedWebhook('PAYMENT.PAYOUTS-ITEM.UNCLAIMED', batch);
    // PayPal's own webhook altered on the way to say the item succeeded; one signed for another account's webhook; one with no signature.
    const altered = JSON.stringify({ ...real.event, event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: { ...(real.event.resource as object), transaction_status: 'SUCCESS' } });
    const elsewhere = paypal.payouts.signedWebhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', { ...batch, item: { ...batch.item, status: 'SUCCESS' } }, 'OTHERACCOUNTWEBHOOK');
    for (const [text, headers] of [[altered, real.headers], [elsewhere.text, elsewhere.headers], [altered, {}]] as const) {
      expect((await webhook(text, headers)).statusCode).toBe(200);
    }
    // Each kept, marked unverified once its verification is done; PayPal was asked about the two that carried a signature.
    await verified();
    expect((await stored(attempt!.reference)).map((c) => c.signature_ok)).toEqual([false, false, false]);
    expect(verifications()).toBe(before + 2);
    // Nothing moved: the next enquiry is when it was, nobody asked PayPal about the payout.
    expect(await nextEnquiry(attempt!.id)).toEqual(due);
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'pending', enquiries: asked });
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'not_sent' });
    expect(await entries(paid.id, 'payout')).toEqual([]);
    expect((await webhook(JSON.stringify({ event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: {} }))).statusCode).toBe(200);
  });

  it('a webhook is verified on the bytes PayPal sent: its text however written is; one space added after signing is not, though the JSON is the same', async () => {
    const email = 'exact.bytes@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    for (let i = 0; i < 3; i++) await enquire(ctx(), attempt!.id);
    const due = (await nextEnquiry(attempt!.id))!;
    const asked = (await attempts(paid.id))[0]!.enquiries;
    const batch = paypal.payouts.setItemStatus(attempt!.reference, 'SUCCESS');

    // PayPal's signed webhook with a space added on the way: the same JSON, other bytes.
    const real = paypal.payouts.signedWebhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', batch);
    const spaced = real.text.replace('{', '{ ');
    expect(JSON.parse(spaced)).toEqual(real.event);
    expect((await webhook(spaced, real.headers)).statusCode).toBe(200);
    await verified();
    expect((await stored(attempt!.reference)).map((c) => c.signature_ok)).toEqual([false]);
    expect(await nextEnquiry(attempt!.id)).toEqual(due);
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'pending', enquiries: asked });

    // PayPal's event written otherwise than its re-encoding would be: indented, é escaped as \u00e9.
    const event = { ...paypal.payouts.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', batch), summary: 'Paiement réclamé' };
    const text = JSON.stringify(event, null, 2).replaceAll('é', '\\u00e9');
    expect(text).toContain('"summary": "Paiement r\\u00e9clam\\u00e9"');
    expect(JSON.stringify(JSON.parse(text))).not.toBe(text);
    expect((await webhook(text, { ...paypal.payouts.sign(text), 'content-type': 'application/json; charset=utf-8' })).statusCode).toBe(200);
    await expect.poll(async () => (await transfer(paid.id)).status, { timeout: 12_000 }).toBe('completed');
    await verified();
    // Each kept as it arrived: the event PayPal sent, é and all.
    expect((await stored(attempt!.reference)).map((c) => [c.signature_ok, c.body])).toEqual([[false, real.event], [true, event]]);
    // Paid by the enquiry the verified webhook brought forward, once.
    expect((await attempts(paid.id))[0]!.settled_at!.getTime()).toBeLessThan(due.getTime());
    expect(paypal.payouts.made.get(attempt!.reference)).toBe(1);
  });

  it('a webhook body that is no JSON object, could not be stored, is not UTF-8 or is not sent as JSON: refused with a 4xx, nothing stored', async () => {
    const kept = async () => (await t.database.db.select({ id: railCallbacks.id }).from(railCallbacks)).length;
    const before = await kept();
    for (const text of ['{"id": "WH-1",', '', '[]', 'null', '"WH-1"', '{"id": "WH-\\u0000"}']) {
      const answer = await webhook(text);
      expect(answer.statusCode, text).toBe(400);
      expect(answer.json(), text).toMatchObject({ code: 'bad_request' });
    }
    const latin1 = Buffer.from('{"summary": "Paiement réclamé"}', 'latin1');
    expect((await t.request({ method: 'POST', url: WEBHOOK_URL, payload: latin1, headers: { 'content-type': 'application/json' } })).statusCode).toBe(400);
    const form = await t.request({ method: 'POST', url: WEBHOOK_URL, payload: 'id=WH-1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).toBe(415);
    expect(await kept()).toBe(before);
  });

  it('a verified webhook brings the enquiry forward; PayPal asked is what moves the attempt', async () => {
    const email = 'verified.claim@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    await enquire(ctx(), attempt!.id);
    const due = (await nextEnquiry(attempt!.id))!;
    const asked = (await attempts(paid.id))[0]!.enquiries;
    // Signed by PayPal, yet it says SUCCESS while PayPal's item still says UNCLAIMED: asked before the enquiry was due, nothing paid.
    const batch = paypal.payouts.bySenderBatchId(attempt!.reference)!;
    expect((await signed('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', { ...batch, item: { ...batch.item, status: 'SUCCESS' } })).statusCode).toBe(200);
    await expect.poll(async () => (await attempts(paid.id))[0]!.enquiries, { timeout: 10_000 }).toBeGreaterThan(asked);
    expect((await stored(attempt!.reference)).at(-1)).toMatchObject({ signature_ok: true });
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'pending' });
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'not_sent' });
    expect(due.getTime()).toBeGreaterThan(Date.now());
  });

  it("PayPal's verify down: the webhook is answered before PayPal answers, verified later by its job; the same event again queues nothing more", async () => {
    const email = 'verify.down@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    for (let i = 0; i < 3; i++) await enquire(ctx(), attempt!.id);
    const due = (await nextEnquiry(attempt!.id))!;

    const batch = paypal.payouts.setItemStatus(attempt!.reference, 'SUCCESS');
    const { text, event, headers } = paypal.payouts.signedWebhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', batch);
    const release = paypal.payouts.holdVerifyNext();
    const calls = paypal.payouts.verifyCalls.length;
    const asked = () => paypal.payouts.verifyCalls.slice(calls).filter((c) => c.transmissionId === headers['paypal-transmission-id']);
    expect((await webhook(text, headers)).statusCode).toBe(200);
    // Answered while PayPal's verification, held on its way, had not been answered.
    expect(asked().filter((c) => c.status !== null)).toEqual([]);
    expect(await stored(attempt!.reference)).toMatchObject([{ signature_ok: null }]);

    // The job's call reaches PayPal; the same event delivered again meanwhile is stored, not queued again.
    await expect.poll(() => asked().length, { timeout: 10_000 }).toBe(1);
    expect((await webhook(text, headers)).statusCode).toBe(200);
    const key = `paypal-webhook:${event.id as string}`;
    expect((await t.database.db.execute(sql`select count(*)::int as n from graphile_worker.jobs where key = ${key}`)).rows[0]!.n).toBe(1);

    // PayPal answers 503: asked again later, then verified; the enquiry brought forward pays it.
    release('down');
    await expect.poll(async () => (await transfer(paid.id)).status, { timeout: 20_000 }).toBe('completed');
    await verified();
    expect(asked().map((c) => c.status)).toEqual([503, 200]);
    expect((await stored(attempt!.reference)).map((c) => c.signature_ok)).toEqual([true, true]);
    expect((await attempts(paid.id))[0]!.settled_at!.getTime()).toBeLessThan(due.getTime());
    expect(paypal.payouts.made.get(attempt!.reference)).toBe(1);
  });

  it('a webhook naming no payout of ours costs no call to PayPal; one past 64 KB is refused unread', async () => {
    const before = verifications();
    const batch = { id: 'NOTOURS1', item: { id: 'ITEM1', senderItemId: crypto.randomUUID(), receiver: 'x@example.com', amount: { value: '1.00', currency: 'USD' }, note: '', status: 'SUCCESS' as const, transactionId: null } };
    expect((await signed('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', batch)).statusCode).toBe(200);
    expect(await stored(batch.item.senderItemId)).toMatchObject([{ operator: 'paypal', signature_ok: null }]);
    await verified();
    expect(verifications()).toBe(before);
    const huge = { event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', padding: 'x'.repeat(70_000) };
    expect((await webhook(JSON.stringify(huge))).statusCode).toBe(413);
  });

  it('without PAYPAL_WEBHOOK_ID, webhooks are kept unchecked and move nothing: the payout follows its enquiries alone', async () => {
    const [someone, anAdmin] = await Promise.all([createUser(noWebhookId, { full_name: 'Awa Sender' }), createUser(noWebhookId, { role: 'admin' })]);
    expect((await noWebhookId.request({ method: 'PUT', url: '/api/rails/paypal_payouts', token: anAdmin.token, payload: { enabled: true } })).statusCode).toBe(200);
    const paid = await createTransfer(noWebhookId, someone.id, { paid: true, direction: 'XAF_USD', amount: '65000', recipient: { recipient_name: 'Marie Nguema', recipient_email: 'no.webhook.id@example.com' } });
    const here = { config: noWebhookId.config, db: noWebhookId.database.db };
    await startPayout(here, paid.id);
    const [attempt] = await noWebhookId.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, paid.id));
    expect(attempt).toMatchObject({ state: 'pending' });
    const due = await nextEnquiry(attempt!.id, noWebhookId);
    const before = verifications();

    const batch = paypal.payouts.bySenderBatchId(attempt!.reference)!;
    expect((await signed('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', batch, noWebhookId)).statusCode).toBe(200);
    expect(await stored(attempt!.reference, noWebhookId)).toMatchObject([{ operator: 'paypal', signature_ok: null }]);
    expect(await verifying(noWebhookId)).toBe(0);
    expect(verifications()).toBe(before);
    expect(await nextEnquiry(attempt!.id, noWebhookId)).toEqual(due);
    // Its enquiry, on its own schedule, pays it.
    await enquire(here, attempt!.id);
    expect((await noWebhookId.database.db.select().from(transferRequests).where(eq(transferRequests.id, paid.id)))[0]).toMatchObject({ status: 'completed' });
  });

  it('with the rail off, a transfer to PayPal is paid by hand: no batch is made', async () => {
    expect((await railOn(false)).statusCode).toBe(200);
    const email = 'by.hand@example.com';
    const paid = await paidTransfer(email);
    expect(await startPayout(ctx(), paid.id)).toBe('by_hand');
    expect(await attempts(paid.id)).toEqual([]);
    expect([...paypal.payouts.batches.values()].some((b) => b.item.receiver === email)).toBe(false);
  });
});
