import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, payoutAttempts, payoutRails, transferRequests } from '@server/db/schema.js';
import { readBalance, startPayout, startPayouts } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// The operator's float (docs/rules/payout-rails.md#float), against the loopback Airtel peer: the
// balance is read from the operator, a payout it would not cover waits in order instead of
// failing at the operator, and leaves by itself, once, when a reading covers it.

let t: TestApp;
let airtel: AirtelPeer;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  t = await createTestApp({
    env: {
      ...airtel.env(),
    },
  });
  [sender, staff, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
}, 60_000);
afterAll(async () => {
  await t.close();
  await airtel.stop();
});

const ctx = () => ({ config: t.config, db: t.database.db });
type Rail = { id: string; balance: { amount: string; currency: string; read_at: string } | null; balance_warning: string | null; below_warning: boolean; waiting: number; queue: { transfer_id: string; reference: string; amount: string }[]; shortfall: string | null };
const gabon = async (token = staff.token): Promise<Rail> => {
  const list = await t.request({ method: 'GET', url: '/api/rails', token });
  expect(list.statusCode).toBe(200);
  return (list.json().data as Rail[]).find((r) => r.id === 'airtel_gabon')!;
};
/** A paid USD → XAF transfer to Marie Nguema's Airtel number, every control cleared. */
const paidTransfer = (amount: string) => createTransfer(t, sender.id, { paid: true, amount, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
const attemptsOf = (id: string) => t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const paidTo = (id: string) => attemptsOf(id).then((rows) => rows.reduce((n, a) => n + airtel.paidCount(a.reference), 0));
const disbursements = () => airtel.calls('POST', '/standard/v2/disbursements').length;
/** Whole francs (XAF has no minor unit in use). */
const xaf = (amount: string) => BigInt(amount.replace(/\.00$/, ''));

describe('the float balance', () => {
  it('is read from the operator once the admin switches the rail on, and again after a payout ends', async () => {
    airtel.setFloat('XAF', '2500000');
    const on = await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
    expect(on.statusCode).toBe(200);
    await expect.poll(async () => (await gabon()).balance?.amount, { timeout: 10_000 }).toBe('2500000');
    expect((await gabon()).balance).toMatchObject({ currency: 'XAF' });

    const paid = await paidTransfer('100');
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const after = (xaf('2500000') - xaf(paid.payout_amount)).toString();
    expect(airtel.floatOf('XAF')).toBe(after);
    await expect.poll(async () => (await gabon()).balance?.amount, { timeout: 10_000 }).toBe(after);
  });

  it('is read on schedule by the rail_balances job', async () => {
    airtel.setFloat('XAF', '3100000');
    await t.database.pool.query(`select graphile_worker.add_job('rail_balances')`);
    await expect.poll(async () => (await gabon()).balance?.amount, { timeout: 10_000 }).toBe('3100000');
  });
});

describe('a payout the float does not cover', () => {
  it('waits in the order its controls cleared, leaves by itself once a reading covers it, and is paid once', async () => {
    airtel.setFloat('XAF', '1000');
    await readBalance(ctx(), 'airtel_gabon');
    const before = disbursements();

    // A large payout the float cannot cover, then a small one it could: first in, first out, both wait.
    const large = await paidTransfer('300');
    const small = await paidTransfer('20');
    expect(await startPayout(ctx(), large.id)).toBe('float_wait');
    airtel.setFloat('XAF', String(xaf(small.payout_amount) + 1000n));
    await readBalance(ctx(), 'airtel_gabon');
    expect(await startPayout(ctx(), small.id)).toBe('float_wait');
    expect(disbursements()).toBe(before);
    expect(await attemptsOf(large.id)).toEqual([]);
    expect((await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, large.id)))[0]).toMatchObject({ status: 'pending', payout_status: 'not_sent' });

    const rail = await gabon();
    expect(rail.waiting).toBe(2);
    expect(rail.queue.map((w) => w.reference)).toEqual([large.reference, small.reference]);
    expect(rail.queue[0]!.amount).toBe(xaf(large.payout_amount).toString());
    // Shortfall: what both need less the balance last read.
    const balance = xaf(small.payout_amount) + 1000n;
    expect(rail.shortfall).toBe((xaf(large.payout_amount) + xaf(small.payout_amount) - balance).toString());

    // Enough for the large one alone: it leaves, the small one keeps waiting (nothing left for it).
    airtel.setFloat('XAF', large.payout_amount.replace(/\.00$/, ''));
    await readBalance(ctx(), 'airtel_gabon');
    // The worker's own rail_balance job may start the same queue at once: wait for what leaves, not for whose reading sent it.
    await expect.poll(() => paidTo(large.id)).toBe(1);
    expect(await paidTo(small.id)).toBe(0);
    expect((await gabon()).queue.map((w) => w.reference)).toEqual([small.reference]);

    // Topped up: the small one leaves by itself on the next reading.
    airtel.setFloat('XAF', '5000000');
    await readBalance(ctx(), 'airtel_gabon');
    await expect.poll(() => paidTo(small.id)).toBe(1);
    await expect.poll(async () => (await gabon()).waiting).toBe(0);
    expect(await gabon()).toMatchObject({ waiting: 0, queue: [], shortfall: '0' });
    expect(disbursements()).toBe(before + 2);

    // Started again (a retried job, another reading): nothing more leaves; no attempt failed at the operator.
    expect(await startPayout(ctx(), large.id)).toBe('waiting');
    await readBalance(ctx(), 'airtel_gabon');
    expect(disbursements()).toBe(before + 2);
    const states = async () => [...await attemptsOf(large.id), ...await attemptsOf(small.id)].map((a) => a.state);
    await expect.poll(states).toEqual(['succeeded', 'succeeded']);
  });

  it('in one batch of starts, keeps the order their controls cleared, whichever name the operator answers first', async () => {
    await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
    airtel.register('+24177000001', { first: 'Paul', last: 'Obame' });
    const large = await paidTransfer('300');
    const small = await createTransfer(t, sender.id, { paid: true, amount: '20', recipient: { recipient_name: 'Paul Obame', recipient_phone: '+24177000001' } });
    // The float covers the small one only.
    airtel.setFloat('XAF', String(xaf(small.payout_amount) + 100n));
    await readBalance(ctx(), 'airtel_gabon');
    const before = disbursements();
    // The large one's name answers last.
    airtel.failNext('user', { kind: 'held' });
    const lookups = airtel.calls('GET', '/standard/v1/users/').length;
    const starting = startPayouts(ctx(), [large.id, small.id]);
    await expect.poll(() => airtel.calls('GET', '/standard/v1/users/').length - lookups, { timeout: 10_000 }).toBe(2);
    airtel.releaseHeld();
    const results = await starting;
    expect([results.get(large.id), results.get(small.id)]).toEqual(['float_wait', 'float_wait']);
    expect(disbursements()).toBe(before);
    expect((await gabon()).queue.map((w) => w.reference)).toEqual([large.reference, small.reference]);
    // Out of the way for the tests after.
    await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: false } });
    await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
  });

  it('counts payouts still under way against the float: two that fit only one after the other do not both leave', async () => {
    const first = await paidTransfer('100');
    const second = await paidTransfer('100');
    airtel.setFloat('XAF', String(xaf(first.payout_amount) + xaf(second.payout_amount) - 1n));
    await readBalance(ctx(), 'airtel_gabon');
    airtel.scriptNext({ outcome: 'pending', enquiries: 1000 });
    expect(await startPayout(ctx(), first.id)).toBe('sent');
    expect((await attemptsOf(first.id))[0]!.state).toBe('pending');
    // The first is pending at the operator (its money not yet taken): the second waits for it.
    expect(await startPayout(ctx(), second.id)).toBe('float_wait');
    expect(await paidTo(second.id)).toBe(0);
  });

  it('leaves the queue for staff to send by hand when the rail is switched off', async () => {
    airtel.setFloat('XAF', '10');
    await readBalance(ctx(), 'airtel_gabon');
    const paid = await paidTransfer('100');
    expect(await startPayout(ctx(), paid.id)).toBe('float_wait');
    expect((await gabon()).queue.map((w) => w.reference)).toContain(paid.reference);
    await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: false } });
    expect(await gabon()).toMatchObject({ waiting: 0, queue: [] });
    expect(await startPayout(ctx(), paid.id)).toBe('by_hand');
    await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
  });

  it('switched off while a start asks the operator the name: nothing leaves through the rail, the payout is staff\'s to send by hand', async () => {
    await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
    airtel.setFloat('XAF', '100000000');
    await readBalance(ctx(), 'airtel_gabon');
    const paid = await paidTransfer('100');
    const before = disbursements();
    airtel.failNext('user', { kind: 'held' });
    const starting = startPayout(ctx(), paid.id);
    await expect.poll(() => airtel.heldCount(), { timeout: 10_000 }).toBe(1);
    expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: false } })).statusCode).toBe(200);
    airtel.releaseHeld();
    expect(await starting).toBe('by_hand');
    expect(disbursements()).toBe(before);
    expect(await attemptsOf(paid.id)).toEqual([]);
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${paid.id}/payout`, token: staff.token, payload: { reference: 'AIRTEL-HAND-OFF' } })).statusCode).toBe(200);
    await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
  });
});

describe('a balance reading as the operator answers it', () => {
  // Each with the rail's queue empty: switched off (its waiting payouts left to staff) and on again.
  beforeEach(async () => {
    for (const enabled of [false, true]) await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled } });
    airtel.balanceAnswer = null;
  });

  it('counts from when it was asked: one answered late, a payout paid meanwhile, neither shows the money still there nor lets a payout it no longer covers leave', async () => {
    const [first, second] = await Promise.all([paidTransfer('100'), paidTransfer('100')]);
    // The float covers what the tests before left under way, and then one of these two, not both.
    const { rows: [open] } = await t.database.pool.query<{ sum: string }>(`select coalesce(sum(amount), 0)::bigint::text as sum from payout_attempts
      where rail = 'airtel_gabon' and state in ('submitting', 'pending', 'unknown')`);
    const float = BigInt(open!.sum) + xaf(first.payout_amount) + xaf(second.payout_amount) - 1n;
    airtel.setFloat('XAF', float.toString());
    await readBalance(ctx(), 'airtel_gabon');
    // Airtel reads its balance for a new reading; its answer takes 3 s, while the first payout is paid.
    const asked = airtel.calls('GET', '/standard/v1/users/balance').length;
    airtel.failNext('balance', { kind: 'late', ms: 3_000 });
    const reading = readBalance(ctx(), 'airtel_gabon');
    await expect.poll(() => airtel.calls('GET', '/standard/v1/users/balance').length, { timeout: 5_000 }).toBe(asked + 1);
    expect(await startPayout(ctx(), first.id)).toBe('sent');
    await reading;
    expect(await startPayout(ctx(), second.id)).toBe('float_wait');
    expect(await attemptsOf(second.id)).toEqual([]);
    // The readings after the payout (the one it queued included) show what Airtel holds now.
    await readBalance(ctx(), 'airtel_gabon');
    expect((await gabon()).balance?.amount).toBe((float - xaf(first.payout_amount)).toString());
  });

  it('in another currency than the rail\'s is no reading: the last one stands, and the rails answer', async () => {
    airtel.setFloat('XAF', '10');
    await readBalance(ctx(), 'airtel_gabon');
    airtel.balanceAnswer = { balance: '1000.50', currency: 'EUR' };
    await expect(readBalance(ctx(), 'airtel_gabon')).rejects.toThrow(/EUR, not XAF/);
    expect((await gabon()).balance).toMatchObject({ amount: '10', currency: 'XAF' });
    const paid = await paidTransfer('100');
    expect(await startPayout(ctx(), paid.id)).toBe('float_wait');
  });

  it('with a fraction of a franc is kept in whole francs, rounded down', async () => {
    airtel.balanceAnswer = { balance: '2500000.50', currency: 'XAF' };
    await readBalance(ctx(), 'airtel_gabon');
    expect((await gabon()).balance).toMatchObject({ amount: '2500000', currency: 'XAF' });
    airtel.balanceAnswer = null;
    airtel.setFloat('XAF', '2500000');
    const paid = await paidTransfer('100');
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
  });

  it('a waiting payout staff send by hand no longer shows as waiting, counts in no shortfall, and holds no payout back', async () => {
    airtel.setFloat('XAF', '10');
    await readBalance(ctx(), 'airtel_gabon');
    const paid = await paidTransfer('100');
    expect(await startPayout(ctx(), paid.id)).toBe('float_wait');
    const waiting = await gabon();
    expect(waiting.queue.map((w) => w.reference)).toEqual([paid.reference]);
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${paid.id}/payout`, token: staff.token, payload: { reference: 'AIRTEL-HAND-FLOAT' } })).statusCode).toBe(200);
    const after = await gabon();
    expect(after).toMatchObject({ waiting: 0, queue: [] });
    expect(xaf(after.shortfall!)).toBe(xaf(waiting.shortfall!) - xaf(paid.payout_amount));
    // A payout the float covers now leaves at once, not behind the one sent by hand.
    airtel.setFloat('XAF', '100000000');
    await t.database.db.update(payoutRails).set({ balance: '100000000' }).where(eq(payoutRails.id, 'airtel_gabon'));
    const next = await paidTransfer('100');
    expect(await startPayout(ctx(), next.id)).toBe('sent');
  });
});

describe('the balance warning level', () => {
  it('is set by an admin alone, as an exact amount, audited; below it the rail says so', async () => {
    airtel.setFloat('XAF', '400000');
    await readBalance(ctx(), 'airtel_gabon');
    const url = '/api/rails/airtel_gabon/balance-warning';
    expect((await t.request({ method: 'PUT', url, token: staff.token, payload: { amount: '500000' } })).statusCode).toBe(403);
    expect((await t.request({ method: 'PUT', url, token: sender.token, payload: { amount: '500000' } })).statusCode).toBe(403);
    const invalid = await t.request({ method: 'PUT', url, token: admin.token, payload: { amount: '500000.5' } });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('validation_failed');

    const set = await t.request({ method: 'PUT', url, token: admin.token, payload: { amount: '500000' } });
    expect(set.statusCode).toBe(200);
    expect(set.json().data).toMatchObject({ id: 'airtel_gabon', balance_warning: '500000', below_warning: true, balance: { amount: '400000' } });
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'payout_rail.balance_warning'));
    expect(audit).toMatchObject({ target_type: 'payout_rail', target_id: 'airtel_gabon', actor_profile_id: admin.id, before: { balance_warning: null }, after: { balance_warning: '500000', currency: 'XAF' } });

    airtel.setFloat('XAF', '500000');
    await readBalance(ctx(), 'airtel_gabon');
    expect(await gabon()).toMatchObject({ balance_warning: '500000', below_warning: false });
    const cleared = await t.request({ method: 'PUT', url, token: admin.token, payload: { amount: null } });
    expect(cleared.json().data).toMatchObject({ balance_warning: null, below_warning: false });
    expect((await t.request({ method: 'PUT', url: '/api/rails/sepa_france/balance-warning', token: admin.token, payload: { amount: '1' } })).statusCode).toBe(404);
  });

  it('names the variables a rail still lacks, never a value', async () => {
    const rails = (await t.request({ method: 'GET', url: '/api/rails', token: staff.token })).json().data as { id: string; configured: boolean; missing: string[] }[];
    expect(rails.find((r) => r.id === 'airtel_gabon')).toMatchObject({ configured: true, missing: [] });
    expect(rails.find((r) => r.id === 'mtn_rwanda')).toMatchObject({ configured: false, missing: ['MTN_MOMO_API_USER', 'MTN_MOMO_API_KEY', 'MTN_MOMO_DISBURSEMENT_KEY'] });
    expect(JSON.stringify(rails)).not.toContain(airtel.clientSecret);
  });
});
