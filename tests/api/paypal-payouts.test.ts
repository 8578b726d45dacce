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
// and, when PayPal sends them back, left to staff.

let t: TestApp;
let unconfigured: TestApp;
let paypal: PayPalServer;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  paypal = await new PayPalServer().start();
  t = await createTestApp({ env: { PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url, MAIL_GROUP_SECONDS: '0' } });
  unconfigured = await createTestApp();
  [sender, staff, admin] = await Promise.all([createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
}, 60_000);
afterAll(async () => {
  await t.close();
  await unconfigured.close();
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
const webhook = (body: unknown) => t.request({ method: 'POST', url: '/api/rails/paypal/webhook', payload: body as object });

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

    const batch = paypal.payouts.setItemStatus(attempt!.reference, 'SUCCESS');
    expect((await webhook(paypal.payouts.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', batch))).statusCode).toBe(200);
    await expect.poll(async () => (await transfer(paid.id)).status, { timeout: 15_000 }).toBe('completed');
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
    await webhook(paypal.payouts.webhook('PAYMENT.PAYOUTS-ITEM.REVERSED', batch));
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

  it('a forged webhook is stored and changes nothing: only PayPal asked moves the attempt', async () => {
    const email = 'forged.claim@example.com';
    paypal.payouts.receiverStatus(email, 'UNCLAIMED');
    const paid = await paidTransfer(email);
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    const forged = paypal.payouts.webhook('PAYMENT.PAYOUTS-ITEM.SUCCEEDED', { id: 'FORGED', item: { ...paypal.payouts.bySenderBatchId(attempt!.reference)!.item, status: 'SUCCESS' } });
    expect((await webhook(forged)).statusCode).toBe(200);
    const stored = await t.database.db.select().from(railCallbacks).where(eq(railCallbacks.reference, attempt!.reference));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ operator: 'paypal' });
    // The enquiry it brought forward asks PayPal, which still says UNCLAIMED.
    await expect.poll(async () => (await attempts(paid.id))[0]!.enquiries, { timeout: 15_000 }).toBeGreaterThan(0);
    expect((await attempts(paid.id))[0]).toMatchObject({ state: 'pending' });
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'not_sent' });
    expect((await webhook({ event_type: 'PAYMENT.PAYOUTS-ITEM.SUCCEEDED', resource: {} })).statusCode).toBe(200);
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
