import { asc, eq, sql } from 'drizzle-orm';
import { Logger, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, ledgerEntries, payoutAttempts, payoutNameHolds, railCallbacks, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { placeHold, releaseHolds } from '@server/modules/holds/service.js';
import { enquire, runPayoutStartJob, startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { MtnPeer } from '../support/peers/mtn-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Payouts through the operators' rails (docs/rules/payout-rails.md), against loopback peers
// speaking Airtel's and MTN's published APIs: every fault ends with the recipient paid exactly
// once or not at all, and the transfer where staff can see it.

let t: TestApp;
let unconfigured: TestApp;
let airtel: AirtelPeer;
let mtn: MtnPeer;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  mtn = await new MtnPeer({ currency: 'RWF' }).start();
  t = await createTestApp({
    env: {
      ...airtel.env(),
      ...mtn.env(), MTN_MOMO_COLLECTION_KEY: mtn.collectionKey,
    },
  });
  unconfigured = await createTestApp();
  [sender, staff, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
  airtel.register('+24177654321', { first: 'Paul', last: 'Obame' });
  mtn.register('+250781234567', { given_name: 'Jean', family_name: 'Habimana' });
}, 60_000);
afterAll(async () => {
  await t.close();
  await unconfigured.close();
  await airtel.stop();
  await mtn.stop();
});

/** What the payout jobs run with: the app's configuration and database. */
const ctx = () => ({ config: t.config, db: t.database.db });
const railsOn = (enabled: boolean, token = admin.token) => Promise.all(['airtel_gabon', 'mtn_rwanda'].map((id) =>
  t.request({ method: 'PUT', url: `/api/rails/${id}`, token, payload: { enabled } })));
beforeEach(async () => { await railsOn(true); });

/** A paid USD → XAF transfer to Marie Nguema's Airtel number (or the recipient given), every control cleared. */
const paidTransfer = (recipient = { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' }, direction: 'USD_XAF' | 'USD_RWF' = 'USD_XAF') =>
  createTransfer(t, sender.id, { paid: true, recipient, direction });
const transfer = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attempts = (id: string) => t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const payoutEntries = (id: string) => t.database.db.select().from(ledgerEntries)
  .where(sql`${ledgerEntries.transfer_request_id} = ${id} and ${ledgerEntries.kind} = 'payout'`);
const disbursements = () => airtel.calls('POST', '/standard/v2/disbursements').length;

describe('the rails as staff see them and the admin switches them', () => {
  it('lists every rail with its state (here the operators\' configured, PayPal\'s and the bank\'s not); only an admin switches one, audited; unset credentials refuse it', async () => {
    const list = await t.request({ method: 'GET', url: '/api/rails', token: staff.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { id: string; configured: boolean }) => [r.id, r.configured]))
      .toEqual([['airtel_gabon', true], ['airtel_rwanda', true], ['mtn_rwanda', true], ['paypal_payouts', false], ['sepa_france', false]]);

    expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: staff.token, payload: { enabled: false } })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/rails', token: sender.token })).statusCode).toBe(403);
    const off = await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: false } });
    expect(off.json().data).toMatchObject({ id: 'airtel_gabon', configured: true, enabled: false });
    const audited = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'payout_rail.update')).orderBy(asc(auditLog.id));
    expect(audited.at(-1)).toMatchObject({ target_type: 'payout_rail', target_id: 'airtel_gabon', actor_profile_id: admin.id, before: { enabled: true }, after: { enabled: false } });
    expect((await t.request({ method: 'PUT', url: '/api/rails/nowhere', token: admin.token, payload: { enabled: true } })).statusCode).toBe(404);

    const otherAdmin = await createUser(unconfigured, { role: 'admin' });
    const refused = await unconfigured.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: otherAdmin.token, payload: { enabled: true } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('rail_not_configured');
    expect((await unconfigured.request({ method: 'GET', url: '/api/rails', token: otherAdmin.token })).json().data[0])
      .toMatchObject({ id: 'airtel_gabon', configured: false, enabled: false });
  });

  it('leaves a payout by hand while its rail is off', async () => {
    await railsOn(false);
    const paid = await paidTransfer();
    expect(await startPayout(ctx(), paid.id)).toBe('by_hand');
    expect(await attempts(paid.id)).toEqual([]);
  });
});

describe('a payout through Airtel Money Gabon', () => {
  it('pays a matching name once, posts the books as a manual payout does, and shows the attempt to staff', async () => {
    const paid = await paidTransfer();
    const before = disbursements();
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    expect(disbursements()).toBe(before + 1);

    const [attempt] = await attempts(paid.id);
    expect(attempt).toMatchObject({ state: 'succeeded', rail: 'airtel_gabon', msisdn: '+24177123456', name_check: { outcome: 'match', registered_name: 'Marie Nguema' } });
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'sent', payout_reference: attempt!.operator_id });
    expect(await payoutEntries(paid.id)).toHaveLength(1);
    // Processing as the attempt opened, paid out, completed: each step in the timeline, by no one.
    const steps = await t.database.db.select().from(transferStatusHistory)
      .where(eq(transferStatusHistory.transfer_request_id, paid.id)).orderBy(asc(transferStatusHistory.id));
    expect(steps.map((s) => s.event ?? `${s.from_status}→${s.to_status}`)).toEqual(['pending→processing', 'payout_sent', 'processing→completed']);
    expect(steps.every((s) => s.actor_profile_id === null)).toBe(true);
    expect((await transfer(paid.id)).status).toBe('completed');
    const fee = await t.database.db.select().from(ledgerEntries).where(sql`${ledgerEntries.transfer_request_id} = ${paid.id} and ${ledgerEntries.kind} = 'fee'`);
    expect(fee).toHaveLength(1);

    const shown = await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}/payouts`, token: staff.token });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().data).toEqual([expect.objectContaining({ state: 'succeeded', reference: attempt!.reference, operator_id: attempt!.operator_id, name_check: expect.objectContaining({ outcome: 'match' }) })]);
    expect(JSON.stringify(shown.json())).not.toContain(airtel.pin);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}/payouts`, token: sender.token })).statusCode).toBe(403);

    // Started again (a second job, a retry): nothing more leaves.
    expect(await startPayout(ctx(), paid.id)).toBe('waiting');
    expect(disbursements()).toBe(before + 1);
  });

  it('pays nothing to a number registered to someone else: the transfer waits for staff with both names', async () => {
    const paid = await paidTransfer({ recipient_name: 'Marie Nguema', recipient_phone: '+24177654321' });
    const before = disbursements();
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    expect(disbursements()).toBe(before);
    expect(await attempts(paid.id)).toEqual([]);
    const [hold] = await t.database.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, paid.id));
    expect(hold!.name_check).toMatchObject({ outcome: 'mismatch', recipient_name: 'Marie Nguema', registered_name: 'Paul Obame' });
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    expect(await transfer(paid.id)).toMatchObject({ status: 'pending', payout_status: 'not_sent' });
  });

  it('pays nothing to a number Airtel does not know', async () => {
    const paid = await paidTransfer({ recipient_name: 'Marie Nguema', recipient_phone: '+24174000000' });
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await t.database.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, paid.id));
    expect(hold!.name_check.outcome).toBe('unknown_number');
  });

  it('Airtel down when its name is asked: nothing paid, no hold written, the job tries again later', async () => {
    const paid = await paidTransfer();
    airtel.failNext('user', { kind: 'down' });
    await expect(startPayout(ctx(), paid.id)).rejects.toThrow(/registered name/);
    expect(await attempts(paid.id)).toEqual([]);
    expect(await t.database.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, paid.id))).toEqual([]);
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
  });

  it('the answer lost after Airtel paid: the attempt is unknown, the enquiry finds it paid, and it is never sent again', async () => {
    const paid = await paidTransfer();
    airtel.failNext('disburse', { kind: 'lost' });
    const before = disbursements();
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const [unknown] = await attempts(paid.id);
    expect(unknown!.state).toBe('unknown');
    expect((await transfer(paid.id)).payout_status).toBe('not_sent');

    expect(await startPayout(ctx(), paid.id)).toBe('already_live');
    await enquire(ctx(), unknown!.id);
    const [settled] = await attempts(paid.id);
    expect(settled!.state).toBe('succeeded');
    expect(airtel.paidCount(settled!.reference)).toBe(1);
    expect(disbursements()).toBe(before + 1);
    expect(await payoutEntries(paid.id)).toHaveLength(1);
  });

  it('a 5xx before anything happened: unknown, then failed once Airtel still knows nothing of it 2 minutes later; nothing paid', async () => {
    const paid = await paidTransfer();
    airtel.failNext('disburse', { kind: 'down' });
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    expect(attempt!.state).toBe('unknown');

    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]!.state).toBe('unknown');
    await t.database.db.update(payoutAttempts).set({ created_at: new Date(Date.now() - 2 * 60_000) }).where(eq(payoutAttempts.id, attempt!.id));
    await enquire(ctx(), attempt!.id);
    const [failed] = await attempts(paid.id);
    expect(failed!.state).toBe('failed');
    expect(airtel.paidCount(failed!.reference)).toBe(0);
    expect((await transfer(paid.id)).payout_status).toBe('not_sent');
  });

  it("two starts of one transfer at once: the one that looked before the other's attempt failed opens no second attempt; staff decide", async () => {
    const paid = await paidTransfer();
    const before = disbursements();
    // The first start's name check is on its way while a second start pays and Airtel refuses it.
    airtel.failNext('user', { kind: 'held' });
    const first = startPayout(ctx(), paid.id);
    await expect.poll(() => airtel.heldCount()).toBe(1);
    airtel.scriptNext({ outcome: 'fail', code: 'DP00900001013' });
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    expect((await attempts(paid.id)).map((a) => a.state)).toEqual(['failed']);

    airtel.releaseHeld();
    expect(await first).toBe('after_failure');
    expect((await attempts(paid.id)).map((a) => a.state)).toEqual(['failed']);
    expect(disbursements()).toBe(before + 1);
  });

  it('stopped between writing the attempt and sending it: the enquiry asks Airtel and never sends', async () => {
    const paid = await paidTransfer();
    // What a process killed right after the attempt's commit leaves: the attempt, no request.
    const [written] = await t.database.db.insert(payoutAttempts).values({
      transfer_id: paid.id, seq: 1, rail: 'airtel_gabon', reference: crypto.randomUUID(), msisdn: '+24177123456', amount: paid.payout_amount, currency: 'XAF',
      name_check: { outcome: 'match', recipient_name: 'Marie Nguema', registered_name: 'Marie Nguema', score: 1, checked_at: new Date().toISOString() },
    }).returning();
    const before = disbursements();
    expect(await startPayout(ctx(), paid.id)).toBe('already_live');
    await enquire(ctx(), written!.id);
    expect(disbursements()).toBe(before);
    expect((await attempts(paid.id))[0]!.state).toBe('unknown');
  });

  it('a forged or repeated callback changes nothing; one naming an attempt makes the app ask Airtel', async () => {
    const paid = await paidTransfer();
    airtel.failNext('disburse', { kind: 'lost' });
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);

    const forged = await t.request({ method: 'POST', url: '/api/rails/airtel/callback', payload: { transaction: { id: crypto.randomUUID(), status_code: 'TS', message: 'paid' } } });
    expect(forged.statusCode).toBe(200);
    const lying = await t.request({ method: 'POST', url: '/api/rails/airtel/callback', payload: { transaction: { id: attempt!.reference, status_code: 'TF', message: 'failed' } } });
    expect(lying.statusCode).toBe(200);
    // The callback said failed; Airtel's answer to the enquiry it triggers says paid, and that is what counts.
    await expect.poll(async () => (await attempts(paid.id))[0]!.state, { timeout: 10_000 }).toBe('succeeded');
    const [asked] = await attempts(paid.id);
    expect(airtel.paidCount(asked!.reference)).toBe(1);
    const stored = await t.database.db.select().from(railCallbacks).where(eq(railCallbacks.operator, 'airtel'));
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(await payoutEntries(paid.id)).toHaveLength(1);
  });

  it('callbacks arriving together are each stored before their answer; one the database cannot store fails alone', async () => {
    const paid = await Promise.all([paidTransfer(), paidTransfer(), paidTransfer()]);
    airtel.failNext('disburse', { kind: 'lost' }, 3);
    for (const p of paid) await startPayout(ctx(), p.id);
    const references = await Promise.all(paid.map(async (p) => (await attempts(p.id))[0]!.reference));
    const storedBefore = (await t.database.db.select().from(railCallbacks)).length;

    // A burst, as operators send them: each attempt's callback three times, two forged, and one whose
    // text PostgreSQL refuses (a NUL character), all at once.
    const post = (id: string, message = 'paid') => t.request({ method: 'POST', url: '/api/rails/airtel/callback', payload: { transaction: { id, status_code: 'TS', message } } });
    const burst = await Promise.all([
      ...references.flatMap((reference) => [post(reference), post(reference), post(reference)]),
      post(crypto.randomUUID()), post(crypto.randomUUID()),
      post(references[0]!, 'paid\u0000'),
    ]);
    const refused = burst.pop();
    expect(burst.map((a) => a.statusCode)).toEqual(Array(11).fill(200));
    expect(refused!.statusCode).toBe(500);
    expect((await t.database.db.select().from(railCallbacks)).length).toBe(storedBefore + 11);
    // Each attempt named is asked about and paid once, whatever the callbacks said or how often.
    for (const p of paid) await expect.poll(async () => (await attempts(p.id))[0]!.state, { timeout: 10_000 }).toBe('succeeded');
    for (const reference of references) expect(airtel.paidCount(reference)).toBe(1);
    for (const p of paid) expect(await payoutEntries(p.id)).toHaveLength(1);
  });

  it('an enquiry that answers an attempt while its request is on its way: the request\'s answer is written after it, the payout recorded once', async () => {
    const paid = await paidTransfer();
    airtel.failNext('disburse', { kind: 'held' });
    const starting = startPayout(ctx(), paid.id);
    await expect.poll(() => airtel.heldCount()).toBe(1);
    const [attempt] = await attempts(paid.id);
    // A callback's enquiry meanwhile: Airtel knows nothing of it yet.
    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]!.state).toBe('unknown');

    airtel.releaseHeld();
    expect(await starting).toBe('sent');
    const [answered] = await attempts(paid.id);
    expect(answered!.state).toBe('succeeded');
    expect(answered!.steps.map((s) => s.state)).toEqual(['unknown', 'succeeded']);
    expect(airtel.paidCount(answered!.reference)).toBe(1);
    expect(await payoutEntries(paid.id)).toHaveLength(1);
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'sent', status: 'completed' });
  });

  it('switched off mid-flight: the payout under way finishes as it is', async () => {
    const paid = await paidTransfer();
    airtel.failNext('disburse', { kind: 'lost' });
    await startPayout(ctx(), paid.id);
    await railsOn(false);
    const [attempt] = await attempts(paid.id);
    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]!.state).toBe('succeeded');
    expect((await transfer(paid.id)).payout_status).toBe('sent');
  });
});

describe('a batch of starts taking a due start whose payload names no transfer', () => {
  // An app of its own with no worker running: only the graphile-worker below takes jobs.
  let quiet: TestApp;
  beforeAll(async () => {
    quiet = await createTestApp({ env: { ...airtel.env(), RUN_WORKER: 'false' } });
    const quietAdmin = await createUser(quiet, { role: 'admin' });
    expect((await quiet.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: quietAdmin.token, payload: { enabled: true } })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => { await quiet.close(); });

  it('fails it as its own run would (unlocked, its error kept) and pays its own transfer once', async () => {
    const quietSender = await createUser(quiet);
    const paid = await createTransfer(quiet, quietSender.id, { paid: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    const add = async (payload: unknown) => (await quiet.database.pool.query(`select (graphile_worker.add_job('payout_start', $1::json, max_attempts => 5)).id::text as id`, [JSON.stringify(payload)])).rows[0].id as string;
    const good = await add({ transfer_id: paid.id });
    const bad = await add({ transfer_id: 'not-a-transfer' });
    const ran: string[] = [];
    // A real graphile-worker runs the first job; its batch takes the other.
    await runOnce({
      pgPool: quiet.database.pool, concurrency: 1, logger: new Logger(() => () => {}),
      taskList: { payout_start: async (payload, helpers) => { ran.push(helpers.job.id); await runPayoutStartJob({ config: quiet.config, db: quiet.database.db }, payload, helpers.job); } },
    });
    expect(ran).toEqual([good]);
    const [attempt] = await quiet.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, paid.id));
    expect(attempt!.state).toBe('succeeded');
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
    const { rows } = await quiet.database.pool.query('select attempts, last_error, locked_by, locked_at from graphile_worker._private_jobs where id = $1', [bad]);
    expect(rows).toEqual([{ attempts: 1, last_error: 'payout_start: its payload names nothing to do', locked_by: null, locked_at: null }]);
  });
});

describe('a payout through MTN MoMo Rwanda', () => {
  it('takes the MTN rail for an MTN number and pays it once', async () => {
    const paid = await paidTransfer({ recipient_name: 'Jean Habimana', recipient_phone: '+250781234567' }, 'USD_RWF');
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const [attempt] = await attempts(paid.id);
    expect(attempt).toMatchObject({ rail: 'mtn_rwanda', name_check: { outcome: 'match' } });
    if (attempt!.state !== 'succeeded') await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]!.state).toBe('succeeded');
    expect(mtn.paidCount(attempt!.reference)).toBe(1);
    expect((await transfer(paid.id)).payout_status).toBe('sent');
  });
});

describe('a payout through MTN MoMo Rwanda whose reference MTN says it holds', () => {
  it('409 to the transfer, then 404 to its enquiry 10 minutes on: never failed by itself, never sent again', async () => {
    const paid = await paidTransfer({ recipient_name: 'Jean Habimana', recipient_phone: '+250781234567' }, 'USD_RWF');
    mtn.failNext('transfer', { kind: 'error', code: 'RESOURCE_ALREADY_EXIST', status: 409 });
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    expect(attempt).toMatchObject({ rail: 'mtn_rwanda', state: 'unknown' });
    await t.database.db.update(payoutAttempts).set({ created_at: new Date(Date.now() - 10 * 60_000) }).where(eq(payoutAttempts.id, attempt!.id));
    await enquire(ctx(), attempt!.id);
    const [after] = await attempts(paid.id);
    expect(after!.steps.map((s) => [s.http_status, s.state])).toEqual([[409, 'unknown'], [404, 'unknown']]);
    expect(await startPayout(ctx(), paid.id)).toBe('already_live');
    expect(mtn.calls('POST', '/disbursement/v1_0/transfer').filter((r) => r.headers['x-reference-id'] === attempt!.reference)).toHaveLength(1);
    expect(mtn.paidCount(attempt!.reference)).toBe(0);
  });
});

describe('a payout that starts by itself once its last control clears', () => {
  const sentOf = async (id: string) => (await transfer(id)).payout_status;

  it('staff record the payment: the payout leaves through the rail with no one else', async () => {
    const created = await createTransfer(t, sender.id, { recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    const recorded = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/payment`, token: staff.token, payload: { amount: created.total, reference: 'STMT-7701' } });
    expect(recorded.statusCode).toBe(200);
    await expect.poll(() => sentOf(created.id), { timeout: 10_000 }).toBe('sent');
    const [attempt] = await attempts(created.id);
    expect(attempt!.state).toBe('succeeded');
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
  });

  it('staff record a payment short of the total (flagged): nothing leaves by itself; staff look first', async () => {
    const created = await createTransfer(t, sender.id, { recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    const recorded = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/payment`, token: staff.token, payload: { amount: '1.00', reference: 'STMT-7702' } });
    expect(recorded.json().data).toMatchObject({ payment_status: 'received', payment_flagged: true });
    expect(await startPayout(ctx(), created.id)).toBe('waiting');
    expect(await attempts(created.id)).toEqual([]);
  });

  it('payments recorded together leave together: each paid once, one whose name differs held, no start left waiting', async () => {
    const marie = { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' };
    const created = await Promise.all([...Array.from({ length: 8 }, () => createTransfer(t, sender.id, { recipient: marie })),
      createTransfer(t, sender.id, { recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177654321' } })]);
    const recorded = await Promise.all(created.map((c, n) => t.request({
      method: 'POST', url: `/api/transfer-requests/${c.id}/payment`, token: staff.token, payload: { amount: c.total, reference: `STMT-78${n}` },
    })));
    expect(recorded.map((r) => r.statusCode)).toEqual(created.map(() => 200));
    const [held, ...matching] = [created.at(-1)!, ...created.slice(0, -1)];
    for (const c of matching) await expect.poll(() => sentOf(c.id), { timeout: 10_000 }).toBe('sent');
    for (const c of matching) {
      const [attempt] = await attempts(c.id);
      expect(attempt!.state).toBe('succeeded');
      expect(airtel.paidCount(attempt!.reference)).toBe(1);
      expect(await payoutEntries(c.id)).toHaveLength(1);
    }
    await expect.poll(async () => (await t.database.db.execute(sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'payout_start'`)).rows[0])
      .toEqual({ n: 0 });
    expect(await attempts(held.id)).toEqual([]);
    expect(await t.database.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, held.id))).toHaveLength(1);
  });

  it('starts a worker process takes within a quarter second of its last batch go together in the next: the first at once, the three after in one transaction', async () => {
    const paid = await Promise.all(Array.from({ length: 4 }, () => paidTransfer()));
    // A quarter second with no batch begun (the app's own worker may just have run one), then four of a process's workers taking their jobs at once.
    await new Promise((resolve) => setTimeout(resolve, 250));
    await Promise.all(paid.map((p, n) => runPayoutStartJob(ctx(), { transfer_id: p.id }, { id: String(-1 - n) })));
    const written = await Promise.all(paid.map(async (p) => {
      const [attempt] = await attempts(p.id);
      expect(attempt!.state).toBe('succeeded');
      expect(airtel.paidCount(attempt!.reference)).toBe(1);
      return attempt!.created_at.toISOString();
    }));
    expect(new Set(written.slice(1)).size).toBe(1);
    expect(written[1]).not.toBe(written[0]);
  });

  it('a held transfer waits; once staff release the hold, it leaves', async () => {
    const paid = await paidTransfer();
    await placeHold(t.database.db, { transferId: paid.id, reason: 'screening', detail: { listed_name: 'Test Listed Name', score: 0.93 } });
    expect(await startPayout(ctx(), paid.id)).toBe('waiting');
    expect(await attempts(paid.id)).toEqual([]);
    await releaseHolds(t.database.db, { transferId: paid.id, by: admin.id, note: 'cleared in the test' });
    await expect.poll(() => sentOf(paid.id), { timeout: 10_000 }).toBe('sent');
  });
});
