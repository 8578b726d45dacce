import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, mailOutbox, payoutAttempts, payoutNameHolds, transferRequests } from '@server/db/schema.js';
import { enquire, startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { MtnPeer } from '../support/peers/mtn-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// The name check and the payouts that need a person (docs/rules/payout-rails.md#name-check,
// #needs-attention) on the mtn_rwanda rail, against MTN MoMo's loopback peer: the name MTN's
// basicuserinfo gives for the number matches, almost matches, differs, is unknown, inactive or
// barred; staff pay anyway (alone below the approval threshold, two of them at or above it) or ask
// the sender, whose corrected number is checked again. Every case ends paid exactly once by MTN's
// own ledger, or not at all and in staff's queue.

let t: TestApp;
let mtn: MtnPeer;
let sender: TestUser;
let staff: TestUser;
let secondStaff: TestUser;
let admin: TestUser;

const JEAN = '+250781110001';
const JEAN_CLAUDE = '+250781110002';
const ERIC = '+250781110003';
const INACTIVE = '+250781110004';
const BLOCKED = '+250781110005';
const NOBODY = '+250781110099';

beforeAll(async () => {
  mtn = await new MtnPeer({ currency: 'RWF' }).start();
  t = await createTestApp({ env: { ...mtn.env(), MAIL_GROUP_SECONDS: '0' } });
  [sender, staff, secondStaff, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
  mtn.register(JEAN, { given_name: 'Jean', family_name: 'Habimana' });
  mtn.register(JEAN_CLAUDE, { given_name: 'Jean Claude', family_name: 'Habimana' });
  mtn.register(ERIC, { given_name: 'Eric', family_name: 'Mugisha' });
  mtn.register(INACTIVE, { given_name: 'Jean', family_name: 'Habimana', status: 'INACTIVE' });
  mtn.register(BLOCKED, { given_name: 'Jean', family_name: 'Habimana', status: 'BLOCKED' });
}, 60_000);
afterAll(async () => {
  await t.close();
  await mtn.stop();
});
beforeEach(async () => {
  expect((await t.request({ method: 'PUT', url: '/api/rails/mtn_rwanda', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
});

const ctx = () => ({ config: t.config, db: t.database.db });
/** A paid USD → RWF transfer to Jean Habimana (as the sender wrote him) at this MTN number, every control cleared. */
const paidTo = (msisdn: string, amount = '100', name = 'Jean Habimana') =>
  createTransfer(t, sender.id, { paid: true, direction: 'USD_RWF', amount, recipient: { recipient_name: name, recipient_phone: msisdn } });
const transfer = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attempts = (id: string) => t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const holds = (id: string) => t.database.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, id)).orderBy(asc(payoutNameHolds.created_at));
const audited = async (action: string, targetId: string) => (await t.database.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.target_id, targetId))));
const post = (url: string, token: string, payload: object = {}) => t.request({ method: 'POST', url, token, payload });
/** MTN's transfers (money sent) and basicuserinfo reads for one number. */
const transfersTo = (msisdn: string) => mtn.calls('POST', '/disbursement/v1_0/transfer').filter((c) => (c.body as { payee?: { partyId?: string } }).payee?.partyId === msisdn.slice(1));
const nameReads = (msisdn: string) => mtn.calls('GET', `/disbursement/v1_0/accountholder/msisdn/${msisdn.slice(1)}/basicuserinfo`).length;
/** Paid by MTN's own ledger: the money that left for the number. */
const paidToNumber = (msisdn: string) => mtn.payments.filter((p) => p.product === 'disbursement' && p.msisdn === msisdn.slice(1)).length;
const exceptionFor = async (id: string) => ((await t.request({ method: 'GET', url: '/api/payout-exceptions', token: staff.token })).json().data as { kind: string; transfer: { id: string } }[])
  .find((e) => e.transfer.id === id);
/** The attempt's answer from MTN, asked once more if it is still open. */
async function settled(id: string) {
  const [attempt] = await attempts(id);
  if (attempt && ['submitting', 'pending', 'unknown'].includes(attempt.state)) await enquire(ctx(), attempt.id);
  return (await attempts(id))[0]!;
}

describe('the name MTN gives for the number, before anything is paid', () => {
  it('matching (word order and case aside): paid once through mtn_rwanda, the check kept on the attempt', async () => {
    const paid = await paidTo(JEAN, '100', 'HABIMANA jean');
    const reads = nameReads(JEAN);
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    expect(nameReads(JEAN)).toBe(reads + 1);
    const attempt = await settled(paid.id);
    expect(attempt).toMatchObject({
      rail: 'mtn_rwanda', state: 'succeeded', msisdn: JEAN,
      name_check: { outcome: 'match', recipient_name: 'HABIMANA jean', registered_name: 'Jean Habimana' },
    });
    expect(mtn.paidCount(attempt.reference)).toBe(1);
    expect(await transfer(paid.id)).toMatchObject({ status: 'completed', payout_status: 'sent' });
    expect(await holds(paid.id)).toEqual([]);
  });

  it('close: paid, and staff see both names on the payout', async () => {
    const paid = await paidTo(JEAN_CLAUDE);
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const attempt = await settled(paid.id);
    expect(attempt.state).toBe('succeeded');
    expect(mtn.paidCount(attempt.reference)).toBe(1);
    const seen = await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}/payouts`, token: staff.token });
    expect(seen.json().data[0]).toMatchObject({
      rail: 'mtn_rwanda', state: 'succeeded',
      name_check: { outcome: 'close', recipient_name: 'Jean Habimana', registered_name: 'Jean Claude Habimana', score: expect.any(Number) },
    });
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}/payouts`, token: sender.token })).statusCode).toBe(403);
    expect(await exceptionFor(paid.id)).toBeUndefined();
  });

  it.each([
    ['a different name', ERIC, 'mismatch', 'Eric Mugisha'],
    ['a number MTN does not know', NOBODY, 'unknown_number', null],
    ['an inactive wallet', INACTIVE, 'inactive', null],
    ['a blocked wallet', BLOCKED, 'barred', null],
  ] as const)('%s: nothing sent, the transfer waits in staff\'s queue with both names', async (_case, msisdn, outcome, registered) => {
    const paid = await paidTo(msisdn);
    const sent = transfersTo(msisdn).length;
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    expect(transfersTo(msisdn)).toHaveLength(sent);
    expect(await attempts(paid.id)).toEqual([]);
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'not_sent' });
    expect(await exceptionFor(paid.id)).toMatchObject({
      kind: 'name_hold',
      transfer: expect.objectContaining({ id: paid.id, recipient_name: 'Jean Habimana', recipient_phone: msisdn }),
      hold: expect.objectContaining({ decision: null, name_check: expect.objectContaining({ outcome, recipient_name: 'Jean Habimana', registered_name: registered }) }),
    });
    // Asked again, MTN is not asked twice and nothing leaves: the hold waits for staff.
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    expect(transfersTo(msisdn)).toHaveLength(sent);
    expect(await holds(paid.id)).toHaveLength(1);
  });

  it('MTN not answering basicuserinfo is no verdict: no hold, nothing sent; asked again once it answers, it pays', async () => {
    const paid = await paidTo(JEAN);
    mtn.failNext('userinfo', { kind: 'down' });
    await expect(startPayout(ctx(), paid.id)).rejects.toThrow(/registered name/);
    expect(await holds(paid.id)).toEqual([]);
    expect(await attempts(paid.id)).toEqual([]);
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    expect(mtn.paidCount((await settled(paid.id)).reference)).toBe(1);
  });
});

describe('staff decide on a held MTN payout', () => {
  it('below the threshold, one staff member pays anyway with a reason: audited, paid once to the held number', async () => {
    const paid = await paidTo(ERIC);
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await holds(paid.id);
    const before = paidToNumber(ERIC);
    expect((await post(`/api/payout-name-holds/${hold!.id}/pay-anyway`, staff.token, { reason: ' ' })).statusCode).toBe(400);
    const decided = await post(`/api/payout-name-holds/${hold!.id}/pay-anyway`, staff.token, { reason: 'Eric Mugisha is his brother; confirmed with the sender by phone' });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().data).toMatchObject({ decision: 'pay_anyway', decided_by: staff.id, four_eyes: false });
    await expect.poll(async () => (await attempts(paid.id)).length, { timeout: 10_000 }).toBe(1);
    const attempt = await settled(paid.id);
    expect(attempt).toMatchObject({ rail: 'mtn_rwanda', state: 'succeeded', msisdn: ERIC, name_check: { outcome: 'mismatch', registered_name: 'Eric Mugisha' } });
    expect(mtn.paidCount(attempt.reference)).toBe(1);
    expect(paidToNumber(ERIC)).toBe(before + 1);
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'sent' });
    expect(await audited('payout_name_hold.pay_anyway', hold!.id)).toEqual([expect.objectContaining({ actor_profile_id: staff.id })]);
    // Decided once, and paid once: nothing more leaves.
    expect((await post(`/api/payout-name-holds/${hold!.id}/ask-sender`, secondStaff.token)).json().code).toBe('name_hold_decided');
    expect(await startPayout(ctx(), paid.id)).toBe('waiting');
    await t.jobsDone();
    expect(paidToNumber(ERIC)).toBe(before + 1);
    expect(await exceptionFor(paid.id)).toBeUndefined();
  });

  it('at or above the threshold, a second staff member confirms; the proposer alone pays nothing', async () => {
    const paid = await paidTo(ERIC, '1500');
    expect((await post(`/api/transfer-requests/${paid.id}/approve`, admin.token)).statusCode).toBe(200);
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await holds(paid.id);
    const sent = transfersTo(ERIC).length;
    const proposed = await post(`/api/payout-name-holds/${hold!.id}/pay-anyway`, staff.token, { reason: 'Registered under his second name' });
    expect(proposed.json().data).toMatchObject({ decision: null, proposed_by: staff.id, four_eyes: true });
    expect((await post(`/api/payout-name-holds/${hold!.id}/pay-anyway/confirm`, staff.token)).json().code).toBe('name_hold_same_staff');
    await t.jobsDone();
    expect(transfersTo(ERIC)).toHaveLength(sent);
    expect(await attempts(paid.id)).toEqual([]);

    const confirmed = await post(`/api/payout-name-holds/${hold!.id}/pay-anyway/confirm`, secondStaff.token);
    expect(confirmed.json().data).toMatchObject({ decision: 'pay_anyway', decided_by: secondStaff.id, proposed_by: staff.id });
    await expect.poll(async () => (await attempts(paid.id)).length, { timeout: 10_000 }).toBe(1);
    const attempt = await settled(paid.id);
    expect(attempt.state).toBe('succeeded');
    expect(mtn.paidCount(attempt.reference)).toBe(1);
    expect(transfersTo(ERIC)).toHaveLength(sent + 1);
  });

  it('paid anyway to a number MTN does not know: MTN refuses it, nothing paid, the failure waits for staff', async () => {
    const paid = await paidTo(NOBODY);
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await holds(paid.id);
    expect((await post(`/api/payout-name-holds/${hold!.id}/pay-anyway`, staff.token, { reason: 'The sender insists the number is right' })).statusCode).toBe(200);
    await expect.poll(async () => (await attempts(paid.id)).length, { timeout: 10_000 }).toBe(1);
    const attempt = await settled(paid.id);
    expect(attempt.state).toBe('failed');
    expect(mtn.paidCount(attempt.reference)).toBe(0);
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'not_sent' });
    expect(await exceptionFor(paid.id)).toMatchObject({ kind: 'failed' });
    expect(await startPayout(ctx(), paid.id)).toBe('after_failure');
  });

  it('the sender asked to correct: e-mailed, their corrected number is checked again with MTN and paid once', async () => {
    const paid = await paidTo(INACTIVE);
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await holds(paid.id);
    expect((await post(`/api/payout-name-holds/${hold!.id}/ask-sender`, staff.token)).json().data).toMatchObject({ decision: 'ask_sender', decided_by: staff.id });
    expect(await audited('payout_name_hold.ask_sender', hold!.id)).toHaveLength(1);
    await expect.poll(async () => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, sender.email)))
      .some((m) => m.subject.includes(paid.reference) && /does not know the recipient's name or number/.test(m.text)), { timeout: 10_000 }).toBe(true);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}`, token: sender.token })).json().data).toMatchObject({ action_needed: true });

    // An Airtel Gabon number is no Rwandan mobile-money number: refused, nothing changed.
    const wrong = await t.request({ method: 'PUT', url: `/api/transfer-requests/${paid.id}/recipient`, token: sender.token, payload: { recipient_name: 'Jean Habimana', recipient_phone: '+24177123456' } });
    expect(wrong.json().code).toBe('recipient_phone_operator');
    const reads = nameReads(JEAN);
    const corrected = await t.request({ method: 'PUT', url: `/api/transfer-requests/${paid.id}/recipient`, token: sender.token, payload: { recipient_name: 'Jean Habimana', recipient_phone: '078 111 0001' } });
    expect(corrected.statusCode).toBe(200);
    await expect.poll(async () => (await attempts(paid.id)).length, { timeout: 10_000 }).toBe(1);
    expect(nameReads(JEAN)).toBe(reads + 1);
    const attempt = await settled(paid.id);
    expect(attempt).toMatchObject({ state: 'succeeded', msisdn: JEAN, name_check: { outcome: 'match', registered_name: 'Jean Habimana' } });
    expect(mtn.paidCount(attempt.reference)).toBe(1);
    expect(transfersTo(INACTIVE)).toHaveLength(0);
    expect((await holds(paid.id))[0]!.closed_at).not.toBeNull();
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}`, token: sender.token })).json().data.action_needed).toBe(false);
  });

  it('a correction to a number MTN does not know is held again, with the new check', async () => {
    const paid = await paidTo(BLOCKED);
    expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
    const [hold] = await holds(paid.id);
    await post(`/api/payout-name-holds/${hold!.id}/ask-sender`, staff.token);
    const corrected = await t.request({ method: 'PUT', url: `/api/transfer-requests/${paid.id}/recipient`, token: sender.token, payload: { recipient_name: 'Jean Habimana', recipient_phone: NOBODY } });
    expect(corrected.statusCode).toBe(200);
    await expect.poll(async () => (await holds(paid.id)).length, { timeout: 10_000 }).toBe(2);
    const [first, again] = await holds(paid.id);
    expect(first!.name_check).toMatchObject({ outcome: 'barred' });
    expect(again).toMatchObject({ closed_at: null, decision: null, name_check: expect.objectContaining({ outcome: 'unknown_number', recipient_name: 'Jean Habimana' }) });
    expect(await attempts(paid.id)).toEqual([]);
    expect(await exceptionFor(paid.id)).toMatchObject({ kind: 'name_hold', transfer: expect.objectContaining({ recipient_phone: NOBODY }) });
  });
});
