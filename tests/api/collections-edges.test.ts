import { randomBytes } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectionAttempts, railCallbacks, transferRequests } from '@server/db/schema.js';
import { enquireCollection } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// "Approve on my phone" requests staff must see, and the operators' callbacks' size
// (docs/rules/payout-rails.md#collections, #callbacks), against the loopback Airtel peer.

let t: TestApp;
let airtel: AirtelPeer;
let sender: TestUser;
let admin: TestUser;
let staff: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  t = await createTestApp({ env: airtel.env() });
  [sender, admin, staff] = await Promise.all([
    createUser(t, { full_name: 'Marie Nguema' }), createUser(t, { role: 'admin' }), createUser(t, { role: 'manager' }),
  ]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await airtel?.stop();
});
beforeEach(async () => {
  expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
});

const ctx = () => ({ config: t.config, db: t.database.db });
const gabonTransfer = () => createTransfer(t, sender.id, {
  direction: 'XAF_USD', amount: '50000', recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' },
});
const attemptsOf = (id: string) => t.database.db.select().from(collectionAttempts)
  .where(eq(collectionAttempts.transfer_id, id)).orderBy(asc(collectionAttempts.seq));
/** Marie asks for the payment on her phone; the send job done. */
async function collect(id: string) {
  const answer = await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/collect`, token: sender.token, payload: { msisdn: '+24177123456' } });
  expect(answer.statusCode).toBe(202);
  await expect.poll(async () => (await t.database.pool.query(
    `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'collection_send'`)).rows[0].n, { timeout: 20_000 }).toBe(0);
  return (await attemptsOf(id)).at(-1)!;
}
/** What staff's one list (GET /api/payout-exceptions) shows of a transfer. */
const listed = async (transferId: string) => {
  const answer = await t.request({ method: 'GET', url: '/api/payout-exceptions', token: staff.token });
  expect(answer.statusCode).toBe(200);
  return (answer.json().data as { kind: string; transfer: { id: string } }[]).filter((e) => e.transfer.id === transferId);
};

describe('collections that need a person', () => {
  it('a push waiting on the phone whose rail credentials were removed is marked for staff, and staff see it', async () => {
    const created = await gabonTransfer();
    const attempt = await collect(created.id);
    expect(attempt.state).toBe('pending');
    // The credentials removed: nobody can ask Airtel whether Marie approved (and paid).
    await enquireCollection({ config: { ...t.config, AIRTEL_CLIENT_SECRET: undefined }, db: t.database.db }, attempt.id);
    const [marked] = await attemptsOf(created.id);
    expect(marked).toMatchObject({ state: 'pending', needs_attention_at: expect.any(Date) });
    expect((await listed(created.id)).map((e) => e.kind)).toEqual(['collection_unknown']);
  });

  it('a push Airtel has not settled past PAYOUT_UNKNOWN_AFTER stays before staff after the sender cancels: it may still take the money', async () => {
    const created = await gabonTransfer();
    airtel.failNext('collect', { kind: 'lost' });
    const attempt = await collect(created.id);
    expect(attempt.state).toBe('unknown');
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/cancel`, token: sender.token })).statusCode).toBe(200);
    await t.database.db.update(collectionAttempts).set({ created_at: sql`now() - interval '31 minutes'`, sent_at: sql`now() - interval '31 minutes'` })
      .where(eq(collectionAttempts.id, attempt.id));
    airtel.failNext('collect_enquire', { kind: 'down' });
    await enquireCollection(ctx(), attempt.id);
    expect((await attemptsOf(created.id))[0]).toMatchObject({ state: 'unknown', needs_attention_at: expect.any(Date) });
    // The push reached Marie's phone (Airtel holds it): she can still approve it and be charged for a cancelled transfer.
    expect(airtel.pushes()).toContain(attempt.reference);
    expect((await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, created.id)))[0]).toMatchObject({ status: 'cancelled', payment_status: 'awaiting' });
    expect((await listed(created.id)).map((e) => e.kind)).toEqual(['collection_unknown']);
  });
});

describe('the operators\' callbacks', () => {
  it("a body far past any operator's callback (900 kB) is refused unread (413), as PayPal's webhook past 64 kB is: nothing stored", async () => {
    const before = Number((await t.database.pool.query(`select count(*)::int as n from rail_callbacks`)).rows[0].n);
    const payload = { transaction: { id: 'x' }, junk: randomBytes(675_000).toString('base64') };
    expect(JSON.stringify(payload).length).toBeGreaterThan(900_000);
    const answers = await Promise.all(['airtel', 'mtn', 'airtel', 'mtn', 'airtel'].map((operator) => t.request({ method: 'POST', url: `/api/rails/${operator}/callback`, payload })));
    const stored = await t.database.db.select({ n: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(pg_column_size(body)), 0)::int` }).from(railCallbacks);
    // Public and without a rate limit: each such request stored would keep about 1 MB in the database.
    expect({ statuses: answers.map((a) => a.statusCode), storedMore: stored[0]!.n - before, bytes: stored[0]!.bytes })
      .toEqual({ statuses: [413, 413, 413, 413, 413], storedMore: 0, bytes: expect.any(Number) });
  });
});
