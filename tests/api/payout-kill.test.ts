import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, payoutAttempts, transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';
import { WorkerProcesses } from '../support/worker-processes.js';

// A worker process killed outright (kill -9) in the middle of a payout (docs/rules/payout-rails.md#attempts):
// once between writing the attempt and its request reaching Airtel, once after Airtel moved the
// money but before its answer was written. Restarted, it asks Airtel and never sends again.

let t: TestApp;
let airtel: AirtelPeer;
let staff: TestUser;
let sender: TestUser;
const workers = new WorkerProcesses(() => airtel.env());

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  // The servers only queue; the payouts run in `npm run worker`'s process.
  t = await createTestApp({ env: { ...airtel.env(), RUN_WORKER: 'false' } });
  const admin = await createUser(t, { role: 'admin' });
  [staff, sender] = await Promise.all([createUser(t, { role: 'manager' }), createUser(t, { full_name: 'Awa Sender' })]);
  expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
  airtel.register('+24177111111', { first: 'Marie', last: 'Nguema' });
  airtel.register('+24177222222', { first: 'Paul', last: 'Obame' });
}, 60_000);

afterAll(async () => {
  await workers.killAll();
  await t?.close();
  await airtel?.stop();
});

/** A transfer to `recipient`, its payment then recorded by staff: that queues its payout. */
async function paidByStaff(recipient: { recipient_name: string; recipient_phone: string }) {
  const created = await createTransfer(t, sender.id, { recipient });
  const recorded = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/payment`, token: staff.token, payload: { amount: created.total, reference: `STMT-${created.reference}` } });
  expect(recorded.statusCode).toBe(200);
  return created;
}

const attemptOf = async (transferId: string) =>
  (await t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transferId)))[0];
const disbursementsOf = (reference: string) =>
  airtel.calls('POST', '/standard/v2/disbursements').filter((r) => (r.body as { transaction?: { id?: string } }).transaction?.id === reference);
const enquiriesOf = (reference: string) => airtel.calls('GET', `/standard/v2/disbursements/${reference}`);

describe('a worker killed with SIGKILL in the middle of a payout', () => {
  it('restarted, asks Airtel about both attempts: the one that never arrived is not sent again, the one Airtel paid is recorded once', async () => {
    const doomed = await workers.start(t.database.url);

    // Marie's request leaves the worker and is stuck on its way: written, not yet at Airtel.
    airtel.failNext('disburse', { kind: 'held' });
    const stuck = await paidByStaff({ recipient_name: 'Marie Nguema', recipient_phone: '+24177111111' });
    await expect.poll(() => airtel.heldCount(), { timeout: 20_000 }).toBe(1);
    const neverArrived = (await attemptOf(stuck.id))!;
    expect(neverArrived.state).toBe('submitting');

    // Paul's request reaches Airtel, which pays him; its answer is on its way back, slowly.
    airtel.failNext('disburse', { kind: 'late', ms: 60_000 });
    const paid = await paidByStaff({ recipient_name: 'Paul Obame', recipient_phone: '+24177222222' });
    await expect.poll(async () => {
      const attempt = await attemptOf(paid.id);
      return attempt ? airtel.paidCount(attempt.reference) : 0;
    }, { timeout: 20_000 }).toBe(1);
    const moneyMoved = (await attemptOf(paid.id))!;
    expect(moneyMoved.state).toBe('submitting');

    await workers.kill(doomed);
    // The stuck request's caller is gone: it never reaches Airtel.
    await expect.poll(() => airtel.heldCount()).toBe(0);
    expect(airtel.statusOf(neverArrived.reference)).toBeUndefined();
    expect((await attemptOf(paid.id))!.state).toBe('submitting');

    await workers.start(t.database.url);
    // Each attempt is asked about (its enquiry is due 30 seconds after it was written).
    await expect.poll(async () => (await attemptOf(paid.id))!.state, { timeout: 60_000, interval: 500 }).toBe('succeeded');
    await expect.poll(async () => (await attemptOf(stuck.id))!.state, { timeout: 30_000, interval: 500 }).toBe('unknown');
    expect(enquiriesOf(neverArrived.reference).length).toBeGreaterThanOrEqual(1);
    expect(enquiriesOf(moneyMoved.reference).length).toBeGreaterThanOrEqual(1);

    // Never sent again: one request each, Marie paid nothing (yet: Airtel says it knows nothing), Paul once.
    expect(disbursementsOf(neverArrived.reference)).toHaveLength(1);
    expect(disbursementsOf(moneyMoved.reference)).toHaveLength(1);
    expect(airtel.calls('POST', '/standard/v2/disbursements')).toHaveLength(2);
    expect(airtel.paidCount(neverArrived.reference)).toBe(0);
    expect(airtel.paidCount(moneyMoved.reference)).toBe(1);
    expect(await t.database.db.select().from(payoutAttempts).where(sql`${payoutAttempts.transfer_id} in (${stuck.id}, ${paid.id})`)).toHaveLength(2);

    // Paul's payout recorded once: the transfer paid out, one payout entry in the books.
    const [paidRow] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, paid.id));
    expect(paidRow).toMatchObject({ payout_status: 'sent', payout_reference: (await attemptOf(paid.id))!.operator_id });
    const entries = await t.database.db.select().from(ledgerEntries)
      .where(sql`${ledgerEntries.transfer_request_id} = ${paid.id} and ${ledgerEntries.kind} = 'payout'`);
    expect(entries).toHaveLength(1);
    const [stuckRow] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, stuck.id));
    expect(stuckRow!.payout_status).toBe('not_sent');
  }, 150_000);
});
