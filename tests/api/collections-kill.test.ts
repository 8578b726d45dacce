import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionAttempts } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';
import { WorkerProcesses } from '../support/worker-processes.js';

// A worker process killed outright (kill -9) while sending a sender's "approve on my phone"
// request (docs/rules/payout-rails.md#collections): once with the push stuck on its way to Airtel,
// once after Airtel pushed it but before its answer was written. Restarted, the worker asks Airtel
// about each and never sends either again.

let t: TestApp;
let airtel: AirtelPeer;
let sender: TestUser;
const workers = new WorkerProcesses(() => airtel.env());

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  // The server only answers and queues; the requests leave from `npm run worker`'s process.
  t = await createTestApp({ env: { ...airtel.env(), RUN_WORKER: 'false' } });
  const admin = await createUser(t, { role: 'admin' });
  sender = await createUser(t, { full_name: 'Marie Nguema' });
  expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
}, 60_000);

afterAll(async () => {
  await workers.killAll();
  await t?.close();
  await airtel?.stop();
});

/** Marie asks for the payment of a new transfer on her phone: answered 202, the attempt written. */
async function asked() {
  const created = await createTransfer(t, sender.id, {
    direction: 'XAF_USD', amount: '50000', recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' },
  });
  const res = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/collect`, token: sender.token, payload: { msisdn: '+24177123456' } });
  expect(res.statusCode).toBe(202);
  return (await t.database.db.select().from(collectionAttempts).where(eq(collectionAttempts.transfer_id, created.id)))[0]!;
}
const attempt = async (id: string) => (await t.database.db.select().from(collectionAttempts).where(eq(collectionAttempts.id, id)))[0]!;
const pushesOf = (reference: string) => airtel.calls('POST', '/merchant/v2/payments')
  .filter((c) => (c.body as { transaction: { id: string } }).transaction.id === reference);
const enquiriesOf = (reference: string) => airtel.calls('GET', `/standard/v1/payments/${reference}`);

describe('a worker killed with SIGKILL while sending a collection', () => {
  it('restarted, asks Airtel about both: the push that never arrived is not sent again, the one Airtel pushed waits for the PIN, once', async () => {
    const doomed = await workers.start(t.database.url);

    // The first push leaves the worker and is stuck on its way: marked as leaving, not yet at Airtel.
    airtel.failNext('collect', { kind: 'held' });
    const stuck = await asked();
    await expect.poll(() => airtel.heldCount(), { timeout: 20_000 }).toBe(1);
    expect(await attempt(stuck.id)).toMatchObject({ state: 'submitting', sent_at: expect.any(Date) });

    // The second reaches Airtel, which pushes it to the phone; its answer is on its way back, slowly.
    airtel.failNext('collect', { kind: 'late', ms: 60_000 });
    const pushed = await asked();
    await expect.poll(() => airtel.pushes().includes(pushed.reference), { timeout: 20_000 }).toBe(true);
    expect((await attempt(pushed.id)).state).toBe('submitting');

    await workers.kill(doomed);
    await expect.poll(() => airtel.heldCount()).toBe(0);
    expect(airtel.pushes()).not.toContain(stuck.reference);

    await workers.start(t.database.url);
    // The send jobs the dead worker held are run again: each finds its request already left and asks.
    await expect.poll(async () => (await attempt(pushed.id)).state, { timeout: 60_000, interval: 500 }).toBe('pending');
    await expect.poll(async () => (await attempt(stuck.id)).state, { timeout: 60_000, interval: 500 }).toBe('unknown');
    expect(enquiriesOf(stuck.reference).length).toBeGreaterThanOrEqual(1);
    expect(enquiriesOf(pushed.reference).length).toBeGreaterThanOrEqual(1);

    // Never sent again: one request each; the stuck one never reached a phone.
    expect(pushesOf(stuck.reference)).toHaveLength(1);
    expect(pushesOf(pushed.reference)).toHaveLength(1);
    expect(airtel.pushes().filter((r) => r === stuck.reference || r === pushed.reference)).toEqual([pushed.reference]);
  }, 150_000);
});
