import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { payoutAttempts, payoutNameHolds, transferRequests } from '@server/db/schema.js';
import { enquire, startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// When the name is checked, and when a check already made stands (docs/rules/payout-rails.md#name-check):
// never by a start while an attempt is under way; a "pay anyway" for one attempt only. Against
// Airtel's loopback peer.

let t: TestApp;
let smtp: SmtpListener;
let airtel: AirtelPeer;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  smtp = await new SmtpListener().start();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, ...airtel.env() } });
  [sender, staff, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
  airtel.register('+24177654321', { first: 'Paul', last: 'Obame' });
  airtel.register('+24177111222', { first: 'Rose', last: 'Mba' });
}, 60_000);
afterAll(async () => {
  await t.close();
  await smtp.stop();
  await airtel.stop();
});
beforeEach(async () => {
  await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
});

const ctx = () => ({ config: t.config, db: t.database.db });
const transfer = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attempts = (id: string) => t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const holds = (id: string) => t.database.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, id)).orderBy(asc(payoutNameHolds.created_at));
const post = (url: string, token: string, payload: object = {}) => t.request({ method: 'POST', url, token, payload });
const nameLookups = () => airtel.calls('GET', '/standard/v1/users/').filter((c) => !c.path.startsWith('/standard/v1/users/balance')).length;

describe('a start while an attempt is under way', () => {
  it('checks no name and opens no hold (the register may have changed since): the attempt pays the number on record, once', async () => {
    const number = '+24177999001';
    airtel.register(number, { first: 'Marie', last: 'Nguema' });
    const paid = await createTransfer(t, sender.id, { paid: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: number } });
    airtel.scriptNext({ outcome: 'pending' });
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const [attempt] = await attempts(paid.id);
    expect(attempt!.state).toBe('pending');

    // The payout's start runs again (queued twice), and the operator's register now names someone else.
    airtel.register(number, { first: 'Paul', last: 'Obame' });
    const lookups = nameLookups();
    expect(await startPayout(ctx(), paid.id)).toBe('already_live');
    expect(nameLookups()).toBe(lookups);
    expect(await holds(paid.id)).toEqual([]);

    airtel.settle(attempt!.reference, 'TS');
    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id)).map((a) => a.state)).toEqual(['succeeded']);
    expect((await transfer(paid.id)).destination_details).toMatchObject({ recipient_phone: number });
  });
});

describe('a name check answered after the sender corrected the recipient', () => {
  it('holds nothing and sends nothing: the corrected recipient, checked by its own start, is what is paid', async () => {
    const paid = await createTransfer(t, sender.id, { paid: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177654321' } });
    // A first start's question about the number is on its way…
    airtel.failNext('user', { kind: 'held' });
    const late = startPayout(ctx(), paid.id);
    await expect.poll(() => airtel.heldCount(), { timeout: 10_000 }).toBe(1);
    // …while a second start finds Paul Obame's name on it, staff ask the sender, and the sender corrects the number.
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await holds(paid.id);
    expect((await post(`/api/payout-name-holds/${hold!.id}/ask-sender`, staff.token)).statusCode).toBe(200);
    const corrected = await t.request({ method: 'PUT', url: `/api/transfer-requests/${paid.id}/recipient`, token: sender.token, payload: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    expect(corrected.statusCode).toBe(200);
    await expect.poll(async () => (await transfer(paid.id)).payout_status, { timeout: 10_000 }).toBe('sent');

    airtel.releaseHeld();
    await late;
    expect((await holds(paid.id)).filter((h) => h.closed_at === null)).toEqual([]);
    expect((await attempts(paid.id)).map((a) => [a.msisdn, a.state])).toEqual([['+24177123456', 'succeeded']]);
  });
});

describe('paying again through the rail after a payout paid anyway was sent back', () => {
  it('checks the name again: the "pay anyway" stood for the first attempt only, and the mismatch waits for staff again', async () => {
    const paid = await createTransfer(t, sender.id, { paid: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177654321' } });
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await holds(paid.id);
    expect((await post(`/api/payout-name-holds/${hold!.id}/pay-anyway`, staff.token, { reason: 'her husband' })).statusCode).toBe(200);
    await expect.poll(async () => (await transfer(paid.id)).payout_status, { timeout: 10_000 }).toBe('sent');
    const [first] = await attempts(paid.id);
    airtel.reverse(first!.reference);
    await enquire(ctx(), first!.id);
    expect((await attempts(paid.id))[0]!.state).toBe('reversed');

    const lookups = nameLookups();
    const again = await post(`/api/transfer-requests/${paid.id}/payouts/pay-again`, staff.token, { how: 'retried', reason: 'operator error' });
    expect(again.statusCode).toBe(200);
    await t.jobsDone();
    expect(nameLookups()).toBeGreaterThan(lookups);
    expect((await attempts(paid.id)).map((a) => a.state)).toEqual(['reversed']);
    expect((await holds(paid.id)).map((h) => [h.decision, h.closed_at === null])).toEqual([['pay_anyway', false], [null, true]]);

    // Staff pay anyway again: that attempt goes, on the new check.
    const [, fresh] = await holds(paid.id);
    expect((await post(`/api/payout-name-holds/${fresh!.id}/pay-anyway`, staff.token, { reason: 'her husband, still' })).statusCode).toBe(200);
    await expect.poll(async () => (await transfer(paid.id)).payout_status, { timeout: 10_000 }).toBe('sent');
    expect((await attempts(paid.id)).map((a) => a.state)).toEqual(['reversed', 'succeeded']);
  });
});
