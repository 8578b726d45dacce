import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, collectionAttempts, ledgerEntries, transferRequests } from '@server/db/schema.js';
import { enquireCollection } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Collections that need a person (docs/rules/payout-rails.md#collections-that-need-a-person): in
// the staff's one list of payouts that need a person, a request Airtel has not settled past
// PAYOUT_UNKNOWN_AFTER (staff ask again), and money received twice for one transfer (staff
// record the refund they made by hand, audited). Against the loopback Airtel peer.

let t: TestApp;
let airtel: AirtelPeer;
let sender: TestUser;
let staff: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  t = await createTestApp({ env: airtel.env() });
  const admin = await createUser(t, { role: 'admin' });
  [sender, staff] = await Promise.all([createUser(t, { full_name: 'Marie Nguema' }), createUser(t, { role: 'manager' })]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
  expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await airtel?.stop();
});

const ctx = () => ({ config: t.config, db: t.database.db });
const gabonTransfer = () => createTransfer(t, sender.id, {
  direction: 'XAF_USD', amount: '50000', recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' },
});
/** Marie asks for the payment on her phone; the send job done. */
async function collect(id: string) {
  expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/collect`, token: sender.token, payload: { msisdn: '+24177123456' } })).statusCode).toBe(202);
  await expect.poll(async () => (await t.database.pool.query(`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'collection_send'`)).rows[0].n, { timeout: 20_000 }).toBe(0);
  return (await t.database.db.select().from(collectionAttempts).where(eq(collectionAttempts.transfer_id, id)))[0]!;
}
const attempt = async (id: string) => (await t.database.db.select().from(collectionAttempts).where(eq(collectionAttempts.id, id)))[0]!;
const exceptions = async (token = staff.token) => t.request({ method: 'GET', url: '/api/payout-exceptions', token });
const listed = async (transferId: string) => ((await exceptions()).json().data as { kind: string; transfer: { id: string } }[])
  .filter((e) => e.transfer.id === transferId);
const post = (path: string, payload: object, token = staff.token) => t.request({ method: 'POST', url: path, token, payload });

describe('a request Airtel has not settled past PAYOUT_UNKNOWN_AFTER', () => {
  it('is listed for staff with what is known; asked again, Airtel answers and it leaves the list', async () => {
    const created = await gabonTransfer();
    // The push reached Marie's phone, its answer lost; Airtel's enquiry then fails too.
    airtel.failNext('collect', { kind: 'lost' });
    const sent = await collect(created.id);
    expect(sent.state).toBe('unknown');
    expect(await listed(created.id)).toEqual([]);

    await t.database.db.update(collectionAttempts).set({ created_at: sql`now() - interval '31 minutes'`, sent_at: sql`now() - interval '31 minutes'` }).where(eq(collectionAttempts.id, sent.id));
    airtel.failNext('collect_enquire', { kind: 'down' });
    await enquireCollection(ctx(), sent.id);
    expect((await attempt(sent.id)).needs_attention_at).not.toBeNull();

    const [item] = await listed(created.id);
    expect(item).toMatchObject({
      kind: 'collection_unknown', hold: null, attempt: null,
      transfer: { id: created.id, reference: created.reference, sender_id: sender.id },
      collection: {
        id: sent.id, state: 'unknown', rail: 'airtel_gabon', reference: sent.reference, msisdn: '+24177123456', currency: 'XAF',
        recorded_payment: null, refund_reference: null, sent_at: expect.any(String),
        steps: [expect.objectContaining({ call: 'collect', http_status: null }), expect.objectContaining({ call: 'collection', http_status: 503 })],
      },
    });

    // Staff may not act on their own transfer; the sender may not read the list.
    expect((await exceptions(sender.token)).statusCode).toBe(403);
    const own = await createTransfer(t, staff.id, { direction: 'XAF_USD', amount: '50000', recipient: { recipient_name: 'John Smith', recipient_email: 'john@example.test' } });
    await t.database.db.insert(collectionAttempts).values({
      transfer_id: own.id, seq: 1, rail: 'airtel_gabon', reference: crypto.randomUUID(), msisdn: '+24177123456', amount: own.total, currency: 'XAF', state: 'unknown',
    });
    const [ownAttempt] = await t.database.db.select().from(collectionAttempts).where(eq(collectionAttempts.transfer_id, own.id));
    expect((await post(`/api/collection-attempts/${ownAttempt!.id}/enquire`, {})).statusCode).toBe(403);

    // Asked again: Airtel now says the push waits for the PIN, then that Marie approved it.
    const asked = await post(`/api/collection-attempts/${sent.id}/enquire`, {});
    expect(asked.statusCode).toBe(200);
    await expect.poll(async () => (await attempt(sent.id)).state, { timeout: 10_000 }).toBe('pending');
    expect(await listed(created.id)).toEqual([]);
    airtel.approve(sent.reference);
    await enquireCollection(ctx(), sent.id);
    expect((await attempt(sent.id)).state).toBe('succeeded');
    const settled = await post(`/api/collection-attempts/${sent.id}/enquire`, {});
    expect(settled.statusCode).toBe(409);
    expect(settled.json().code).toBe('collection_not_open');
  });
});

describe('money received twice for one transfer', () => {
  it('a collection Airtel confirmed after staff recorded the payment is listed; staff record its refund once, audited', async () => {
    const created = await gabonTransfer();
    const sent = await collect(created.id);
    // Meanwhile Marie also paid by hand and staff recorded it.
    const recorded = await post(`/api/transfer-requests/${created.id}/payment`, { amount: created.total, reference: 'MANUAL-42' });
    expect(recorded.statusCode).toBe(200);
    airtel.approve(sent.reference);
    await enquireCollection(ctx(), sent.id);

    const [transfer] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, created.id));
    expect(transfer).toMatchObject({ payment_status: 'received', payment_reference: 'MANUAL-42', payment_recorded_by: staff.id });
    const payments = await t.database.db.select().from(ledgerEntries)
      .where(and(eq(ledgerEntries.transfer_request_id, created.id), eq(ledgerEntries.kind, 'payment')));
    expect(payments).toHaveLength(1);

    const [item] = await listed(created.id);
    expect(item).toMatchObject({
      kind: 'collection_twice',
      collection: {
        id: sent.id, state: 'succeeded', operator_id: expect.stringMatching(/^MP\d+$/), amount: created.total,
        recorded_payment: { reference: 'MANUAL-42', amount: created.total, recorded_by: staff.id }, refund_reference: null,
      },
    });

    // The refund's reference is required; a collection received once has nothing to refund.
    const empty = await post(`/api/collection-attempts/${sent.id}/refund`, { reference: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toHaveProperty('reference');
    const once = await gabonTransfer();
    const single = await collect(once.id);
    airtel.approve(single.reference);
    await enquireCollection(ctx(), single.id);
    const notTwice = await post(`/api/collection-attempts/${single.id}/refund`, { reference: 'MP-REFUND-1' });
    expect(notTwice.statusCode).toBe(409);
    expect(notTwice.json().code).toBe('collection_not_twice');

    const refunded = await post(`/api/collection-attempts/${sent.id}/refund`, { reference: 'MP-REFUND-77' });
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json().data).toMatchObject({ refund_reference: 'MP-REFUND-77', refunded_by: staff.id, refunded_at: expect.any(String) });
    expect(await listed(created.id)).toEqual([]);
    const audited = await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'collection_attempt.refund'), eq(auditLog.target_id, created.id)));
    expect(audited).toEqual([expect.objectContaining({
      actor_profile_id: staff.id, target_type: 'transfer',
      after: expect.objectContaining({ collection_attempt_id: sent.id, refund_reference: 'MP-REFUND-77', amount: created.total }),
    })]);

    const again = await post(`/api/collection-attempts/${sent.id}/refund`, { reference: 'MP-REFUND-78' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('collection_refunded');
    expect((await attempt(sent.id)).refund_reference).toBe('MP-REFUND-77');
  });
});
