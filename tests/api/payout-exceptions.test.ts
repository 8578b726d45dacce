import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, payoutAttempts, payoutNameHolds, profiles, transferRequests } from '@server/db/schema.js';
import { enquire, startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Payouts that need a person (docs/rules/payout-rails.md#needs-attention), against Airtel's
// loopback peer: a name the operator does not recognise, paid anyway (by two staff members at or
// above the approval threshold) or corrected by the sender; a failed attempt retried or left to
// staff; an unknown one that nobody may retry or pay by hand.

let t: TestApp;
let smtp: SmtpListener;
let airtel: AirtelPeer;
let sender: TestUser;
let otherSender: TestUser;
let staff: TestUser;
let secondStaff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  smtp = await new SmtpListener().start();
  t = await createTestApp({
    env: {
      SMTP_URL: smtp.url,
      ...airtel.env(),
      // An unknown attempt goes to staff one second after it was written.
      PAYOUT_UNKNOWN_AFTER: '1s',
    },
  });
  [sender, otherSender, staff, secondStaff, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { full_name: 'Jean Autre' }),
    createUser(t, { role: 'manager' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
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
/** A paid USD → XAF transfer to Marie Nguema at Paul Obame's number: the name check stops it. */
const mismatched = (amount = '100', profileId = sender.id) =>
  createTransfer(t, profileId, { paid: true, amount, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177654321' } });
const transfer = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attempts = (id: string) => t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const holds = (id: string) => t.database.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, id)).orderBy(asc(payoutNameHolds.created_at));
const audits = (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action));
const disbursements = () => airtel.calls('POST', '/standard/v2/disbursements').length;
const exceptions = async (token = staff.token) => t.request({ method: 'GET', url: '/api/payout-exceptions', token });
const post = (url: string, token: string, payload: object = {}) => t.request({ method: 'POST', url, token, payload });
const sentOf = async (id: string) => (await transfer(id)).payout_status;
/** The operator asked a number's registered name, so far. */
const nameLookups = () => airtel.calls('GET', '/standard/v1/users/').filter((c) => !c.path.startsWith('/standard/v1/users/balance')).length;

async function heldByName(amount = '100') {
  const paid = await mismatched(amount);
  if (amount !== '100') expect((await post(`/api/transfer-requests/${paid.id}/approve`, admin.token)).statusCode).toBe(200);
  expect(await startPayout(ctx(), paid.id)).toBe('name_hold');
  const [hold] = await holds(paid.id);
  return { paid, hold: hold! };
}

describe('a name the operator does not recognise, paid anyway', () => {
  it('shows both names to staff; below the threshold one staff member pays anyway with a reason, audited, and it is paid once', async () => {
    const { paid, hold } = await heldByName();
    const listed = await exceptions();
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toContainEqual(expect.objectContaining({
      kind: 'name_hold',
      transfer: expect.objectContaining({ id: paid.id, recipient_name: 'Marie Nguema', recipient_phone: '+24177654321' }),
      hold: expect.objectContaining({ id: hold.id, four_eyes: false, decision: null, name_check: expect.objectContaining({ outcome: 'mismatch', recipient_name: 'Marie Nguema', registered_name: 'Paul Obame' }) }),
    }));
    expect((await exceptions(sender.token)).statusCode).toBe(403);
    expect((await post(`/api/payout-name-holds/${hold.id}/pay-anyway`, sender.token, { reason: 'x' })).statusCode).toBe(403);

    // No reason: refused, nothing changed.
    const blank = await post(`/api/payout-name-holds/${hold.id}/pay-anyway`, staff.token, { reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect((await holds(paid.id))[0]!.decision).toBeNull();

    const before = disbursements();
    const decided = await post(`/api/payout-name-holds/${hold.id}/pay-anyway`, staff.token, { reason: 'Paul Obame is her husband; she confirmed by phone' });
    expect(decided.statusCode).toBe(200);
    expect(decided.json().data).toMatchObject({ decision: 'pay_anyway', decided_by: staff.id, reason: 'Paul Obame is her husband; she confirmed by phone' });
    await expect.poll(() => sentOf(paid.id), { timeout: 10_000 }).toBe('sent');
    const [attempt] = await attempts(paid.id);
    expect(attempt).toMatchObject({ state: 'succeeded', msisdn: '+24177654321', name_check: { outcome: 'mismatch', registered_name: 'Paul Obame' } });
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
    expect(disbursements()).toBe(before + 1);
    expect(await startPayout(ctx(), paid.id)).toBe('waiting');
    expect(disbursements()).toBe(before + 1);

    const [audited] = (await audits('payout_name_hold.pay_anyway')).filter((a) => a.target_id === hold.id);
    expect(audited).toMatchObject({ actor_profile_id: staff.id, target_type: 'payout_name_hold', after: expect.objectContaining({ decision: 'pay_anyway', reason: 'Paul Obame is her husband; she confirmed by phone' }) });
    // Decided once: a second decision is refused.
    expect((await post(`/api/payout-name-holds/${hold.id}/ask-sender`, secondStaff.token)).json().code).toBe('name_hold_decided');
    expect((await exceptions()).json().data.map((e: { transfer: { id: string } }) => e.transfer.id)).not.toContain(paid.id);
  });

  it('at or above the threshold, one staff member proposes and a second one confirms; the proposer alone cannot', async () => {
    const { paid, hold } = await heldByName('1500');
    const before = disbursements();
    const proposed = await post(`/api/payout-name-holds/${hold.id}/pay-anyway`, staff.token, { reason: 'Registered under her maiden name' });
    expect(proposed.statusCode).toBe(200);
    expect(proposed.json().data).toMatchObject({ decision: null, proposed_by: staff.id, four_eyes: true, reason: 'Registered under her maiden name' });
    await t.jobsDone();
    expect(disbursements()).toBe(before);
    expect(await attempts(paid.id)).toEqual([]);

    const same = await post(`/api/payout-name-holds/${hold.id}/pay-anyway/confirm`, staff.token);
    expect(same.statusCode).toBe(409);
    expect(same.json().code).toBe('name_hold_same_staff');
    expect((await post(`/api/payout-name-holds/${hold.id}/pay-anyway`, staff.token, { reason: 'again' })).json().code).toBe('name_hold_proposed');
    expect((await holds(paid.id))[0]!.decision).toBeNull();
    expect(disbursements()).toBe(before);

    const confirmed = await post(`/api/payout-name-holds/${hold.id}/pay-anyway/confirm`, secondStaff.token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data).toMatchObject({ decision: 'pay_anyway', decided_by: secondStaff.id, proposed_by: staff.id });
    await expect.poll(() => sentOf(paid.id), { timeout: 10_000 }).toBe('sent');
    expect(disbursements()).toBe(before + 1);
    expect((await audits('payout_name_hold.propose')).some((a) => a.target_id === hold.id && a.actor_profile_id === staff.id)).toBe(true);
    expect((await audits('payout_name_hold.pay_anyway')).some((a) => a.target_id === hold.id && a.actor_profile_id === secondStaff.id)).toBe(true);
  });

  it('a staff member never decides on a transfer they sent', async () => {
    const own = await mismatched('100', staff.id);
    expect(await startPayout(ctx(), own.id)).toBe('name_hold');
    const [hold] = await holds(own.id);
    const refused = await post(`/api/payout-name-holds/${hold!.id}/pay-anyway`, staff.token, { reason: 'mine' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('own_transfer');
    expect((await post(`/api/payout-name-holds/${crypto.randomUUID()}/ask-sender`, staff.token)).statusCode).toBe(404);
  });
});

describe('the sender asked to correct the recipient', () => {
  it('is e-mailed and sees it on the transfer; their correction closes the hold, the name is checked again, and it pays', async () => {
    const { paid, hold } = await heldByName();
    const url = `/api/transfer-requests/${paid.id}`;
    const notAsked = await t.request({ method: 'PUT', url: `${url}/recipient`, token: sender.token, payload: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    expect(notAsked.statusCode).toBe(409);
    expect(notAsked.json().code).toBe('correction_not_asked');

    const asked = await post(`/api/payout-name-holds/${hold.id}/ask-sender`, staff.token);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().data).toMatchObject({ decision: 'ask_sender', decided_by: staff.id });
    expect((await audits('payout_name_hold.ask_sender')).some((a) => a.target_id === hold.id)).toBe(true);
    await t.jobsDone();
    const mail = await smtp.waitFor(sender.email, /does not know the recipient's name or number/);
    expect(mail.raw).toContain(`http://localhost:3000/pay/${paid.id}`);

    const seen = await t.request({ method: 'GET', url, token: sender.token });
    expect(seen.json().data).toMatchObject({ action_needed: true });
    const correction = await t.request({ method: 'GET', url: `${url}/recipient-correction`, token: sender.token });
    expect(correction.json().data).toMatchObject({ recipient_name: 'Marie Nguema', recipient_phone: '+24177654321' });
    expect((await t.request({ method: 'GET', url: `${url}/recipient-correction`, token: otherSender.token })).statusCode).toBe(404);

    // Someone else's transfer: not found. A number of no Gabonese operator, or no name: refused, nothing changed.
    const theirs = await t.request({ method: 'PUT', url: `${url}/recipient`, token: otherSender.token, payload: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    expect(theirs.statusCode).toBe(404);
    const badNumber = await t.request({ method: 'PUT', url: `${url}/recipient`, token: sender.token, payload: { recipient_name: 'Marie Nguema', recipient_phone: '+33612345678' } });
    expect(badNumber.statusCode).toBe(400);
    expect(badNumber.json().code).toBe('recipient_phone_operator');
    const noName = await t.request({ method: 'PUT', url: `${url}/recipient`, token: sender.token, payload: { recipient_name: ' ', recipient_phone: '+24177123456' } });
    expect(noName.statusCode).toBe(400);
    expect((await transfer(paid.id)).destination_details).toMatchObject({ recipient_phone: '+24177654321' });
    expect((await holds(paid.id))[0]!.closed_at).toBeNull();

    const corrected = await t.request({ method: 'PUT', url: `${url}/recipient`, token: sender.token, payload: { recipient_name: 'Marie Nguema', recipient_phone: '+241 77 12 34 56' } });
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json().data).toBeNull();
    await expect.poll(() => sentOf(paid.id), { timeout: 10_000 }).toBe('sent');
    const [first, second] = await holds(paid.id);
    expect(first!.closed_at).not.toBeNull();
    expect(second).toBeUndefined();
    const [attempt] = await attempts(paid.id);
    expect(attempt).toMatchObject({ state: 'succeeded', msisdn: '+24177123456', name_check: { outcome: 'match', registered_name: 'Marie Nguema' } });
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
    expect((await t.request({ method: 'GET', url, token: sender.token })).json().data.action_needed).toBe(false);
    expect((await audits('transfer_request.recipient_correct')).some((a) => a.target_id === paid.id && a.actor_profile_id === sender.id)).toBe(true);
  });

  it('a correction still wrong is held again with the new names, and a French sender is asked in French', async () => {
    await t.database.db.update(profiles).set({ language: 'fr' }).where(eq(profiles.id, sender.id));
    try {
      const { paid, hold } = await heldByName();
      await post(`/api/payout-name-holds/${hold.id}/ask-sender`, staff.token);
      await t.jobsDone();
      await smtp.waitFor(sender.email, /Action requise sur votre transfert/);
      const corrected = await t.request({ method: 'PUT', url: `/api/transfer-requests/${paid.id}/recipient`, token: sender.token, payload: { recipient_name: 'Marie Nguema', recipient_phone: '+24177111222' } });
      expect(corrected.statusCode).toBe(200);
      await expect.poll(async () => (await holds(paid.id)).length, { timeout: 10_000 }).toBe(2);
      const [, again] = await holds(paid.id);
      expect(again!.name_check).toMatchObject({ outcome: 'mismatch', registered_name: 'Rose Mba' });
      expect(again!.closed_at).toBeNull();
      expect(await attempts(paid.id)).toEqual([]);
    } finally {
      await t.database.db.update(profiles).set({ language: 'en' }).where(eq(profiles.id, sender.id));
    }
  });
});

describe('a failed attempt', () => {
  async function failedPayout() {
    const paid = await createTransfer(t, sender.id, { paid: true });
    airtel.scriptNext({ outcome: 'fail', code: 'DP00900001013' });
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const [attempt] = await attempts(paid.id);
    expect(attempt!.state).toBe('failed');
    return { paid, attempt: attempt! };
  }

  it('waits for staff, never retried by itself; retried by staff it is paid once, audited', async () => {
    const { paid, attempt } = await failedPayout();
    expect(await startPayout(ctx(), paid.id)).toBe('after_failure');
    expect((await exceptions()).json().data).toContainEqual(expect.objectContaining({ kind: 'failed', attempt: expect.objectContaining({ id: attempt.id, state: 'failed' }) }));
    const byHandFirst = await post(`/api/transfer-requests/${paid.id}/payout`, staff.token, { reference: 'AIRTEL-HAND-1' });
    expect(byHandFirst.statusCode).toBe(409);
    expect(byHandFirst.json().code).toBe('payout_attempt_failed');

    const retried = await post(`/api/transfer-requests/${paid.id}/payouts/retry`, staff.token);
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ id: attempt.id, state: 'failed' });
    await expect.poll(() => sentOf(paid.id), { timeout: 10_000 }).toBe('sent');
    const [first, second] = await attempts(paid.id);
    expect(first).toMatchObject({ state: 'failed', resolution: 'retried', resolved_by: staff.id });
    expect(second!.state).toBe('succeeded');
    expect(airtel.paidCount(first!.reference)).toBe(0);
    expect(airtel.paidCount(second!.reference)).toBe(1);
    expect((await audits('payout_attempt.retry')).some((a) => a.target_id === attempt.id && a.actor_profile_id === staff.id)).toBe(true);
    // Paid and completed: nothing is left to retry.
    expect((await post(`/api/transfer-requests/${paid.id}/payouts/retry`, staff.token)).json().code).toBe('transfer_closed');
    expect(await attempts(paid.id)).toHaveLength(2);
  });

  it('switched to by hand: the rail leaves it, and staff record the payout as before', async () => {
    const { paid, attempt } = await failedPayout();
    const switched = await post(`/api/transfer-requests/${paid.id}/payouts/by-hand`, secondStaff.token);
    expect(switched.statusCode).toBe(200);
    expect((await audits('payout_attempt.by_hand')).some((a) => a.target_id === attempt.id)).toBe(true);
    expect(await startPayout(ctx(), paid.id)).toBe('by_hand');
    const recorded = await post(`/api/transfer-requests/${paid.id}/payout`, staff.token, { reference: 'AIRTEL-HAND-2' });
    expect(recorded.statusCode).toBe(200);
    expect(await transfer(paid.id)).toMatchObject({ payout_status: 'sent', payout_reference: 'AIRTEL-HAND-2' });
    expect(await attempts(paid.id)).toHaveLength(1);
  });
});

describe('an attempt still unknown', () => {
  it('goes to staff with what is known; it cannot be retried or paid by hand, only asked about again', async () => {
    const paid = await createTransfer(t, sender.id, { paid: true });
    airtel.failNext('disburse', { kind: 'down' });
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    expect(attempt!.state).toBe('unknown');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await enquire(ctx(), attempt!.id);
    const [overdue] = await attempts(paid.id);
    expect(overdue).toMatchObject({ state: 'unknown', needs_attention_at: expect.any(Date) });

    const listed = (await exceptions()).json().data.find((e: { attempt: { id: string } | null }) => e.attempt?.id === attempt!.id);
    expect(listed).toMatchObject({ kind: 'unknown', attempt: { reference: attempt!.reference, state: 'unknown', needs_attention_at: expect.any(String) } });
    expect(listed.attempt.steps.length).toBeGreaterThanOrEqual(2);

    for (const path of ['retry', 'by-hand']) {
      const refused = await post(`/api/transfer-requests/${paid.id}/payouts/${path}`, staff.token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('payout_attempt_open');
    }
    const byHand = await post(`/api/transfer-requests/${paid.id}/payout`, staff.token, { reference: 'AIRTEL-HAND-3' });
    expect(byHand.json().code).toBe('payout_attempt_open');
    expect((await transfer(paid.id)).payout_status).toBe('not_sent');
    expect((await attempts(paid.id))[0]).toMatchObject({ resolution: null });

    const asked = await post(`/api/transfer-requests/${paid.id}/payouts/enquire`, staff.token);
    expect(asked.statusCode).toBe(200);
    const waiting = await t.database.db.execute<{ run_at: Date }>(sql`select run_at from graphile_worker._private_jobs where key = ${`payout-enquire:${attempt!.id}`}`);
    expect(new Date(waiting.rows[0]!.run_at).getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(airtel.paidCount(attempt!.reference)).toBe(0);
  });
});

describe('an attempt the operator has not settled', () => {
  it("the operator's credentials removed while it is pending: it goes to staff at once, is still asked about on its schedule, and never sent again", async () => {
    const paid = await createTransfer(t, sender.id, { paid: true });
    airtel.scriptNext({ outcome: 'pending' });
    await startPayout(ctx(), paid.id);
    const [attempt] = await attempts(paid.id);
    expect(attempt!.state).toBe('pending');
    const sent = airtel.calls('POST', '/standard/v2/disbursements').length;

    // A worker started again without the Airtel variables.
    await enquire({ config: { ...t.config, AIRTEL_CLIENT_SECRET: undefined }, db: t.database.db }, attempt!.id);
    const [unasked] = await attempts(paid.id);
    expect(unasked).toMatchObject({ state: 'pending', needs_attention_at: expect.any(Date) });
    expect(unasked!.steps.at(-1)).toMatchObject({ call: 'disbursement', http_status: null, message: 'rail not configured', state: 'pending' });
    const listed = (await exceptions()).json().data.find((e: { attempt: { id: string } | null }) => e.attempt?.id === attempt!.id);
    expect(listed).toMatchObject({ kind: 'unknown', attempt: { state: 'pending' } });
    const next = await t.database.pool.query(`select run_at from graphile_worker.jobs where key = $1`, [`payout-enquire:${attempt!.id}`]);
    expect(next.rows).toHaveLength(1);

    // The credentials back: Airtel is asked, and the payout recorded once.
    airtel.settle(attempt!.reference, 'TS');
    await enquire(ctx(), attempt!.id);
    expect((await attempts(paid.id))[0]!.state).toBe('succeeded');
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
    expect(airtel.calls('POST', '/standard/v2/disbursements').length).toBe(sent);
    expect((await transfer(paid.id)).payout_status).toBe('sent');
  });

  it('Airtel answered that it already holds the id, then its enquiry finds nothing: never failed by itself nor sent again; it goes to staff', async () => {
    const paid = await createTransfer(t, sender.id, { paid: true });
    const sent = () => airtel.calls('POST', '/standard/v2/disbursements').length;
    airtel.failNext('disburse', { kind: 'error', code: 'DP00900001017' });
    await startPayout(ctx(), paid.id);
    const before = sent();
    const [attempt] = await attempts(paid.id);
    expect(attempt).toMatchObject({ state: 'unknown' });
    // Its 2 minutes of grace for "never created" long past.
    await t.database.db.update(payoutAttempts).set({ created_at: new Date(Date.now() - 10 * 60_000) }).where(eq(payoutAttempts.id, attempt!.id));
    await enquire(ctx(), attempt!.id);

    const [after] = await attempts(paid.id);
    expect(after).toMatchObject({ state: 'unknown', needs_attention_at: expect.any(Date) });
    expect(after!.steps.map((s) => [s.call, s.operator_code, s.state])).toEqual([
      ['disburse', 'DP00900001017', 'unknown'], ['disbursement', 'DP00900001015', 'unknown'],
    ]);
    const listed = (await exceptions()).json().data.find((e: { attempt: { id: string } | null }) => e.attempt?.id === attempt!.id);
    expect(listed).toMatchObject({ kind: 'unknown', attempt: { state: 'unknown' } });
    expect(await startPayout(ctx(), paid.id)).toBe('already_live');
    expect(sent()).toBe(before);
    expect((await transfer(paid.id)).payout_status).toBe('not_sent');
  });

  it('keeps its transfer open: staff cannot reject it (the sender refunded, the recipient paid); once the operator pays, it completes', async () => {
    const paid = await createTransfer(t, sender.id, { paid: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    airtel.scriptNext({ outcome: 'pending' });
    expect(await startPayout(ctx(), paid.id)).toBe('sent');
    const [attempt] = await attempts(paid.id);
    expect(attempt!.state).toBe('pending');

    const rejected = await t.request({ method: 'PATCH', url: `/api/transfer-requests/${paid.id}`, token: staff.token, payload: { status: 'rejected', note: 'stuck' } });
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json().code).toBe('payout_attempt_open');
    expect(await transfer(paid.id)).toMatchObject({ status: 'processing', payment_status: 'received' });
    const refund = await post(`/api/transfer-requests/${paid.id}/refund`, staff.token, { reference: 'REFUND-OPEN-1' });
    expect(refund.statusCode).toBe(409);

    airtel.settle(attempt!.reference, 'TS');
    await enquire(ctx(), attempt!.id);
    expect(await transfer(paid.id)).toMatchObject({ status: 'completed', payment_status: 'received', payout_status: 'sent' });
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
    const kinds = await t.database.db.execute<{ kind: string }>(sql`select kind from ledger_entries where transfer_request_id = ${paid.id}::uuid order by id`);
    expect(kinds.rows.map((r) => r.kind)).not.toContain('refund_due');
  });
});

describe("the staff details' attempts and name checks", () => {
  it('lists the name checks of a transfer for staff only', async () => {
    const { paid } = await heldByName();
    const listed = await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}/payouts/name-holds`, token: staff.token });
    expect(listed.json().data).toEqual([expect.objectContaining({ name_check: expect.objectContaining({ registered_name: 'Paul Obame' }) })]);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${paid.id}/payouts/name-holds`, token: sender.token })).statusCode).toBe(403);
    expect(await t.database.db.select().from(payoutNameHolds).where(and(eq(payoutNameHolds.transfer_id, paid.id)))).toHaveLength(1);
  });
});

// When the name is checked, and when a check already made stands: never by a start while an
// attempt is under way; a "pay anyway" for one attempt only; a check answered after a correction
// acts on nothing.
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
    // The start it queued has run once the new check is held (other tests' enquiries stay queued here).
    await expect.poll(async () => (await holds(paid.id)).length, { timeout: 10_000 }).toBe(2);
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
