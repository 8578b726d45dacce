import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectionAttempts, ledgerEntries, railCallbacks, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { enquireCollection, sendCollection } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { MtnPeer } from '../support/peers/mtn-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// "Approve on my phone" (docs/rules/payout-rails.md#collections): a sender paying from Airtel
// Money Gabon or MoMo Rwanda asks the operator to take the payment from their wallet; the
// operator's answer to the status enquiry, and only that, records the payment received as staff
// would. Against loopback peers speaking Airtel's and MTN's published APIs.

let t: TestApp;
let noCollectionKey: TestApp;
let airtel: AirtelPeer;
let mtn: MtnPeer;
let sender: TestUser;
let other: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  mtn = await new MtnPeer({ currency: 'RWF' }).start();
  t = await createTestApp({ env: { ...airtel.env(), ...mtn.env(), MTN_MOMO_COLLECTION_KEY: mtn.collectionKey } });
  noCollectionKey = await createTestApp({ env: mtn.env() });
  [sender, other, admin] = await Promise.all([
    createUser(t, { full_name: 'Marie Nguema' }), createUser(t, { full_name: 'Someone Else' }), createUser(t, { role: 'admin' }),
  ]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
  mtn.register('+250781234567', { given_name: 'Jean', family_name: 'Habimana' });
}, 60_000);
afterAll(async () => {
  await t.close();
  await noCollectionKey.close();
  await airtel.stop();
  await mtn.stop();
});

const railsOn = (app: TestApp, token: string, enabled = true) => Promise.all(['airtel_gabon', 'mtn_rwanda'].map((id) =>
  app.request({ method: 'PUT', url: `/api/rails/${id}`, token, payload: { enabled } })));
beforeEach(async () => {
  airtel.pushScript = null;
  await railsOn(t, admin.token);
});

const ctx = () => ({ config: t.config, db: t.database.db });
/** A transfer Marie pays from her Airtel Money Gabon wallet (XAF → PayPal USD), not paid yet. */
const gabonTransfer = (profileId = sender.id) => createTransfer(t, profileId, {
  direction: 'XAF_USD', amount: '50000', recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' },
});
/** The sender's request as it is answered: the operator is called afterwards, by the collection_send job. */
const ask = (id: string, msisdn = '+24177123456', token = sender.token, app = t) =>
  app.request({ method: 'POST', url: `/api/transfer-requests/${id}/collect`, token, payload: { msisdn } });
/** Every collection_send job done: each request asked has been sent (or asked about). */
const sendsDone = (app = t) => expect.poll(async () => (await app.database.pool.query(
  `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'collection_send'`)).rows[0].n, { timeout: 20_000 }).toBe(0);
/** The sender's request, then its send job done. */
const collect = async (id: string, msisdn = '+24177123456', token = sender.token, app = t) => {
  const answer = await ask(id, msisdn, token, app);
  await sendsDone(app);
  return answer;
};
const status = async (id: string, token = sender.token) =>
  (await t.request({ method: 'GET', url: `/api/transfer-requests/${id}/collection`, token })).json().data;
const transfer = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attemptsOf = (id: string) => t.database.db.select().from(collectionAttempts)
  .where(eq(collectionAttempts.transfer_id, id)).orderBy(asc(collectionAttempts.seq));
const paymentEntries = (id: string) => t.database.db.select().from(ledgerEntries)
  .where(sql`${ledgerEntries.transfer_request_id} = ${id} and ${ledgerEntries.kind} = 'payment'`);
/** Each currency's lines of the transfer's entries: debits and credits sum to zero. */
const unbalanced = async (id: string) => (await t.database.pool.query(`select l.currency, sum(l.amount) as total from ledger_lines l
  join ledger_entries e on e.id = l.entry_id where e.transfer_request_id = $1 group by l.currency having sum(l.amount) <> 0`, [id])).rows;
/** The reference of the transfer's latest request, as the operator received it. */
const latestReference = async (id: string) => (await attemptsOf(id)).at(-1)!.reference;

describe('approve on my phone with Airtel Money Gabon', () => {
  it('is offered, asks Airtel once, waits for the sender, and records the payment received as staff would, once', async () => {
    const created = await gabonTransfer();
    expect(await status(created.id)).toEqual({ available: true, collection: null });

    const asked = await collect(created.id, '077 12 34 56');
    expect(asked.statusCode).toBe(202);
    expect(asked.json().data).toMatchObject({ state: 'approve_on_phone', reason: null, msisdn: '+24177123456', currency: 'XAF' });
    const reference = await latestReference(created.id);
    const push = airtel.calls('POST', '/merchant/v2/payments').at(-1)!;
    expect(push.body).toMatchObject({ subscriber: { msisdn: '77123456', country: 'GA', currency: 'XAF' }, transaction: { id: reference, amount: Number(created.total) } });
    expect((await transfer(created.id)).payment_status).toBe('awaiting');

    // Marie approves on her phone; Airtel's answer to the enquiry records the payment.
    airtel.approve(reference);
    await enquireCollection(ctx(), (await attemptsOf(created.id))[0]!.id);
    expect(await status(created.id)).toMatchObject({ available: false, collection: { state: 'received', reason: null } });
    const paid = await transfer(created.id);
    expect(paid).toMatchObject({ payment_status: 'received', payment_amount: created.total, payment_flagged: false, payment_recorded_by: null });
    expect(paid.payment_reference).toMatch(/^MP\d+$/);
    expect(await paymentEntries(created.id)).toEqual([expect.objectContaining({ actor_profile_id: null, reference: paid.payment_reference })]);
    expect(await unbalanced(created.id)).toEqual([]);
    const steps = await t.database.db.select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, created.id));
    expect(steps.filter((s) => s.event === 'payment_received')).toEqual([expect.objectContaining({ actor_profile_id: null })]);

    // Asked again (a repeated callback, a late job): nothing more is recorded.
    await t.request({ method: 'POST', url: '/api/rails/airtel/callback', payload: { transaction: { id: reference, status_code: 'TS', airtel_money_id: 'MP999' } } });
    await enquireCollection(ctx(), (await attemptsOf(created.id))[0]!.id);
    expect(await paymentEntries(created.id)).toHaveLength(1);
    const again = await collect(created.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('payment_already_recorded');
  });

  it('a payment received this way starts the payout the way a staff recording does (by hand for a PayPal payout)', async () => {
    const created = await gabonTransfer();
    airtel.pushScript = { answer: 'TS', enquiries: 1 };
    await collect(created.id);
    await enquireCollection(ctx(), (await attemptsOf(created.id))[0]!.id);
    expect((await transfer(created.id)).payment_status).toBe('received');
    await t.jobsDone();
    // No operator rail pays a PayPal recipient: the transfer waits for staff, paid, as after a staff recording.
    expect(await transfer(created.id)).toMatchObject({ status: 'pending', payment_status: 'received', payout_status: 'not_sent' });
    expect(airtel.calls('POST', '/standard/v2/disbursements')).toHaveLength(0);
  });

  it('a refusal on the phone says so, and the sender may try again', async () => {
    const created = await gabonTransfer();
    await collect(created.id);
    airtel.refuse(await latestReference(created.id));
    await enquireCollection(ctx(), (await attemptsOf(created.id))[0]!.id);
    expect(await status(created.id)).toMatchObject({ available: true, collection: { state: 'failed', reason: 'refused' } });
    expect((await transfer(created.id)).payment_status).toBe('awaiting');

    const retry = await collect(created.id);
    expect(retry.statusCode).toBe(202);
    expect((await attemptsOf(created.id)).map((a) => [a.seq, a.state])).toEqual([[1, 'failed'], [2, 'pending']]);
  });

  it('after 5 requests to phones for one transfer, no more are sent: the sender pays by hand', async () => {
    const created = await gabonTransfer();
    for (let i = 1; i <= 5; i++) {
      expect((await collect(created.id)).statusCode).toBe(202);
      airtel.refuse(await latestReference(created.id));
      await enquireCollection(ctx(), (await attemptsOf(created.id)).at(-1)!.id);
    }
    expect(await status(created.id)).toMatchObject({ available: false, collection: { state: 'failed' } });
    const sixth = await collect(created.id);
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toMatchObject({ code: 'collection_limit', error: expect.stringContaining('5 payment requests') });
    const references = (await attemptsOf(created.id)).map((a) => a.reference);
    expect(references).toHaveLength(5);
    expect(airtel.calls('POST', '/merchant/v2/payments').filter((c) =>
      references.includes((c.body as { transaction: { id: string } }).transaction.id))).toHaveLength(5);
  });

  it('an expired push says it expired', async () => {
    const created = await gabonTransfer();
    await collect(created.id);
    airtel.expire(await latestReference(created.id));
    await enquireCollection(ctx(), (await attemptsOf(created.id))[0]!.id);
    expect((await status(created.id)).collection).toMatchObject({ state: 'expired', reason: 'expired' });
    expect(await paymentEntries(created.id)).toEqual([]);
  });

  it('an ambiguous answer inside HTTP 200 is asked about again, never sent again', async () => {
    const created = await gabonTransfer();
    airtel.failNext('collect', { kind: 'error', code: 'DP00800001000' });
    const asked = await collect(created.id);
    expect(asked.statusCode).toBe(202);
    expect(asked.json().data.state).toBe('approve_on_phone');
    const [attempt] = await attemptsOf(created.id);
    expect(attempt!.state).toBe('unknown');
    // The push reached the phone all the same; the enquiry finds it, and its approval.
    airtel.approve(attempt!.reference);
    airtel.failNext('collect_enquire', { kind: 'error', code: 'DP00800001000' });
    await enquireCollection(ctx(), attempt!.id);
    expect((await attemptsOf(created.id))[0]!.state).toBe('unknown');
    await enquireCollection(ctx(), attempt!.id);
    expect((await status(created.id)).collection.state).toBe('received');
    expect(airtel.calls('POST', '/merchant/v2/payments').filter((c) => (c.body as { transaction: { id: string } }).transaction.id === attempt!.reference)).toHaveLength(1);
  });

  it('a refusal inside HTTP 200 fails the request as soon as it is sent', async () => {
    const created = await gabonTransfer();
    airtel.failNext('collect', { kind: 'error', code: 'DP00800001007' });
    const asked = await collect(created.id);
    expect(asked.json().data).toMatchObject({ state: 'approve_on_phone', reason: null });
    expect((await status(created.id)).collection).toMatchObject({ state: 'failed', reason: 'insufficient_funds' });
  });

  it('a second request while one waits on the phone is refused with a clear code', async () => {
    const created = await gabonTransfer();
    expect((await collect(created.id)).statusCode).toBe(202);
    const second = await collect(created.id);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'collection_in_progress', error: expect.stringContaining('already waiting') });
    expect(await attemptsOf(created.id)).toHaveLength(1);
  });

  it('a forged callback changes nothing; a lost one delays nothing beyond the enquiry', async () => {
    const created = await gabonTransfer();
    await collect(created.id);
    const [attempt] = await attemptsOf(created.id);
    const forged = await t.request({ method: 'POST', url: '/api/rails/airtel/callback', payload: { transaction: { id: attempt!.reference, status_code: 'TS', airtel_money_id: 'MP000666' } } });
    expect(forged.statusCode).toBe(200);
    // The callback is kept and makes the app ask Airtel, whose answer (still waiting) is what counts.
    expect(await t.database.db.select().from(railCallbacks).where(eq(railCallbacks.reference, attempt!.reference))).toHaveLength(1);
    await expect.poll(async () => (await attemptsOf(created.id))[0]!.enquiries, { timeout: 10_000 }).toBeGreaterThan(0);
    expect((await attemptsOf(created.id))[0]!.state).toBe('pending');
    expect((await transfer(created.id)).payment_status).toBe('awaiting');

    // Approved, the callback lost: the waiting enquiry finds it.
    airtel.loseCallbacks(1);
    airtel.approve(attempt!.reference);
    await enquireCollection(ctx(), attempt!.id);
    expect((await transfer(created.id)).payment_status).toBe('received');
  });

  it("another sender's transfer is not found; a number of another operator is refused", async () => {
    const created = await gabonTransfer();
    const foreign = await collect(created.id, '+24177123456', other.token);
    expect(foreign.statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/collection`, token: other.token })).statusCode).toBe(404);
    const wrongNumber = await collect(created.id, '+24166123456');
    expect(wrongNumber.statusCode).toBe(400);
    expect(wrongNumber.json().fields).toHaveProperty('msisdn');
  });

  it('is not offered while the rail is off, nor for a transfer paid by PayPal', async () => {
    const created = await gabonTransfer();
    await railsOn(t, admin.token, false);
    expect((await status(created.id)).available).toBe(false);
    const refused = await collect(created.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('collection_unavailable');
    await railsOn(t, admin.token);
    const paypal = await createTransfer(t, sender.id, { direction: 'USD_XAF' });
    expect((await status(paypal.id)).available).toBe(false);
    expect((await collect(paypal.id)).json().code).toBe('collection_unavailable');
  });
});

describe('the request sent by a durable job, once', () => {
  const pushesOf = (reference: string) => airtel.calls('POST', '/merchant/v2/payments')
    .filter((c) => (c.body as { transaction: { id: string } }).transaction.id === reference);
  const enquiriesOf = (reference: string) => airtel.calls('GET', `/standard/v1/payments/${reference}`);

  it('the sender is answered before Airtel is called; the push then reaches Airtel once', async () => {
    const created = await gabonTransfer();
    // Anything sent to Airtel now waits on its way: the sender's answer cannot depend on it.
    airtel.failNext('collect', { kind: 'held' });
    const asked = await ask(created.id);
    expect(asked.statusCode).toBe(202);
    expect(asked.json().data).toMatchObject({ state: 'approve_on_phone', reason: null, msisdn: '+24177123456' });
    const [attempt] = await attemptsOf(created.id);
    expect(attempt).toMatchObject({ state: 'submitting', steps: [] });
    expect(airtel.pushes()).not.toContain(attempt!.reference);

    // The job's request is the one on its way; let through, it reaches Airtel, once.
    await expect.poll(() => airtel.heldCount(), { timeout: 10_000 }).toBe(1);
    airtel.releaseHeld();
    await sendsDone();
    expect(airtel.pushes().filter((r) => r === attempt!.reference)).toHaveLength(1);
    expect(pushesOf(attempt!.reference)).toHaveLength(1);
    expect((await attemptsOf(created.id))[0]).toMatchObject({ state: 'pending', sent_at: expect.any(Date) });
    expect((await status(created.id)).collection).toMatchObject({ state: 'approve_on_phone' });
  });

  it('the answer lost after Airtel pushed: the job run again asks Airtel, and the payment is recorded once', async () => {
    const created = await gabonTransfer();
    airtel.failNext('collect', { kind: 'lost' });
    await collect(created.id);
    const [attempt] = await attemptsOf(created.id);
    expect(attempt!.state).toBe('unknown');
    expect(airtel.pushes().filter((r) => r === attempt!.reference)).toHaveLength(1);

    // The job again (a worker restarted, a retried job): it finds the request already left and asks.
    await sendCollection(ctx(), attempt!.id);
    expect(pushesOf(attempt!.reference)).toHaveLength(1);
    expect(enquiriesOf(attempt!.reference).length).toBeGreaterThan(0);
    expect((await attemptsOf(created.id))[0]!.state).toBe('pending');

    airtel.approve(attempt!.reference);
    await enquireCollection(ctx(), attempt!.id);
    await sendCollection(ctx(), attempt!.id);
    expect((await status(created.id)).collection.state).toBe('received');
    expect(pushesOf(attempt!.reference)).toHaveLength(1);
    expect(airtel.collected(attempt!.reference)).toBe(true);
    expect(await paymentEntries(created.id)).toHaveLength(1);
    expect(await unbalanced(created.id)).toEqual([]);
  });

  it('a 5xx before Airtel did anything: never sent again; once Airtel still does not know it, the sender may ask again', async () => {
    const created = await gabonTransfer();
    airtel.failNext('collect', { kind: 'down' });
    await collect(created.id);
    const [attempt] = await attemptsOf(created.id);
    expect(attempt!.state).toBe('unknown');
    expect(airtel.pushes()).not.toContain(attempt!.reference);
    expect((await status(created.id)).collection.state).toBe('approve_on_phone');

    await sendCollection(ctx(), attempt!.id);
    expect(pushesOf(attempt!.reference)).toHaveLength(1);
    expect((await attemptsOf(created.id))[0]!.state).toBe('unknown');
    // Airtel may not show a transaction it is still creating: only once the grace after the request left is over is "not found" believed.
    await t.database.db.update(collectionAttempts).set({ created_at: sql`now() - interval '3 minutes'`, sent_at: sql`now() - interval '3 minutes'` }).where(eq(collectionAttempts.id, attempt!.id));
    await enquireCollection(ctx(), attempt!.id);
    expect((await status(created.id)).collection).toMatchObject({ state: 'failed', reason: 'failed' });
    expect(airtel.pushes()).not.toContain(attempt!.reference);

    expect((await collect(created.id)).statusCode).toBe(202);
    const second = (await attemptsOf(created.id)).at(-1)!;
    expect(second.reference).not.toBe(attempt!.reference);
    expect(airtel.pushes().filter((r) => r === second.reference)).toHaveLength(1);
  });
});

describe("the operator's credentials removed while a request waits on the phone", () => {
  it('goes to staff at once and is still asked about on its schedule; the sender is not told it failed', async () => {
    const created = await gabonTransfer();
    await collect(created.id);
    const [attempt] = await attemptsOf(created.id);
    expect(attempt!.state).toBe('pending');
    await enquireCollection({ config: { ...t.config, AIRTEL_CLIENT_SECRET: undefined }, db: t.database.db }, attempt!.id);
    const [unasked] = await attemptsOf(created.id);
    expect(unasked).toMatchObject({ state: 'pending', needs_attention_at: expect.any(Date) });
    expect(unasked!.steps.at(-1)).toMatchObject({ call: 'collection', http_status: null, message: 'rail not configured' });
    expect((await status(created.id)).collection.state).toBe('approve_on_phone');
    const next = await t.database.pool.query(`select 1 from graphile_worker.jobs where key = $1`, [`collection-enquire:${attempt!.id}`]);
    expect(next.rows).toHaveLength(1);

    airtel.approve(attempt!.reference);
    await enquireCollection(ctx(), attempt!.id);
    expect((await status(created.id)).collection.state).toBe('received');
    expect(await paymentEntries(created.id)).toHaveLength(1);
  });
});

describe('the grace before "not found" is believed', () => {
  it('counts from when the request left, not from when the sender asked: a push sent late and still on its way is asked about again, then recorded once approved', async () => {
    const created = await gabonTransfer();
    airtel.failNext('collect', { kind: 'held' });
    expect((await ask(created.id)).statusCode).toBe(202);
    await expect.poll(() => airtel.heldCount(), { timeout: 10_000 }).toBe(1);
    const [attempt] = await attemptsOf(created.id);
    // The send job ran 110 s after the sender asked (its workers busy), and left 10 s ago.
    await t.database.pool.query(`update collection_attempts set created_at = now() - interval '120 seconds', sent_at = now() - interval '10 seconds' where id = $1`, [attempt!.id]);
    await enquireCollection(ctx(), attempt!.id);
    expect((await attemptsOf(created.id))[0]!.state).toBe('unknown');
    expect((await status(created.id)).collection.state).toBe('approve_on_phone');

    // The push reaches Airtel and the sender approves it.
    airtel.releaseHeld();
    await expect.poll(() => airtel.pushes().includes(attempt!.reference), { timeout: 10_000 }).toBe(true);
    airtel.approve(attempt!.reference);
    await enquireCollection(ctx(), attempt!.id);
    expect((await status(created.id)).collection.state).toBe('received');
    expect(await paymentEntries(created.id)).toHaveLength(1);
    expect((await transfer(created.id)).payment_status).toBe('received');
  });

  it('is never given to a push Airtel said it already holds: its later "not found" leaves the request open, and the sender cannot ask again', async () => {
    const created = await gabonTransfer();
    airtel.failNext('collect', { kind: 'error', code: 'ESB000041' });
    await collect(created.id);
    const [attempt] = await attemptsOf(created.id);
    expect(attempt!.state).toBe('unknown');
    await t.database.db.update(collectionAttempts).set({ created_at: sql`now() - interval '10 minutes'`, sent_at: sql`now() - interval '10 minutes'` }).where(eq(collectionAttempts.id, attempt!.id));
    await enquireCollection(ctx(), attempt!.id);
    expect((await attemptsOf(created.id))[0]!.steps.map((s) => [s.operator_code, s.state])).toEqual([['ESB000041', 'unknown'], ['DP00800001025', 'unknown']]);
    expect((await status(created.id)).collection.state).toBe('approve_on_phone');
    expect((await ask(created.id)).statusCode).toBe(409);
    expect(await attemptsOf(created.id)).toHaveLength(1);
  });
});

describe('approve on my phone with MTN MoMo Rwanda', () => {
  const rwandaTransfer = (app = t, profileId = sender.id) => createTransfer(app, profileId, {
    direction: 'RWF_USD', amount: '30000', recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' },
  });

  it('sends a request-to-pay under our X-Reference-Id and records the payment once MTN says SUCCESSFUL', async () => {
    const created = await rwandaTransfer();
    const asked = await collect(created.id, '0781 234 567');
    expect(asked.statusCode).toBe(202);
    const reference = await latestReference(created.id);
    const request = mtn.calls('POST', '/collection/v1_0/requesttopay').at(-1)!;
    expect(request.headers['x-reference-id']).toBe(reference);
    expect(request.body).toMatchObject({ currency: 'RWF', payer: { partyIdType: 'MSISDN', partyId: '250781234567' } });

    mtn.approve(reference);
    // MTN's callback (here brought by hand: the test app listens on no port) makes the app ask at once.
    const callback = await t.request({ method: 'PUT', url: '/api/rails/mtn/callback', payload: mtn.statusBody(mtn.transaction(reference)!) });
    expect(callback.statusCode).toBe(200);
    await expect.poll(async () => (await transfer(created.id)).payment_status, { timeout: 10_000 }).toBe('received');
    expect(await paymentEntries(created.id)).toHaveLength(1);
    expect(await unbalanced(created.id)).toEqual([]);
  });

  it('APPROVAL_REJECTED and EXPIRED are told in the sender\'s words', async () => {
    const refusedOne = await rwandaTransfer();
    await collect(refusedOne.id, '+250781234567');
    mtn.refuse(await latestReference(refusedOne.id));
    await enquireCollection(ctx(), (await attemptsOf(refusedOne.id))[0]!.id);
    expect((await status(refusedOne.id)).collection).toMatchObject({ state: 'failed', reason: 'refused' });

    const expiredOne = await rwandaTransfer();
    await collect(expiredOne.id, '+250781234567');
    mtn.expire(await latestReference(expiredOne.id));
    await enquireCollection(ctx(), (await attemptsOf(expiredOne.id))[0]!.id);
    expect((await status(expiredOne.id)).collection).toMatchObject({ state: 'expired', reason: 'expired' });
  });

  it('a request still PENDING for a long time stays to approve, asked again with backoff', async () => {
    const created = await rwandaTransfer();
    await collect(created.id, '+250781234567');
    const [attempt] = await attemptsOf(created.id);
    for (let i = 0; i < 3; i++) await enquireCollection(ctx(), attempt!.id);
    const after = (await attemptsOf(created.id))[0]!;
    expect(after).toMatchObject({ state: 'pending', enquiries: 3 });
    expect((await status(created.id)).collection.state).toBe('approve_on_phone');
    expect(mtn.paidCount(attempt!.reference)).toBe(0);
  });

  it('without MTN_MOMO_COLLECTION_KEY it is not offered', async () => {
    const otherAdmin = await createUser(noCollectionKey, { role: 'admin' });
    const rwandan = await createUser(noCollectionKey);
    await railsOn(noCollectionKey, otherAdmin.token);
    const created = await rwandaTransfer(noCollectionKey, rwandan.id);
    const read = await noCollectionKey.request({ method: 'GET', url: `/api/transfer-requests/${created.id}/collection`, token: rwandan.token });
    expect(read.json().data).toEqual({ available: false, collection: null });
    const refused = await collect(created.id, '+250781234567', rwandan.token, noCollectionKey);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('collection_unavailable');
  });
});
