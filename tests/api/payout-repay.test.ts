import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@server/lib/free-port.js';
import { auditLog, ledgerEntries, ledgerLines, mailOutbox, payoutAttempts, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { balances } from '@server/modules/ledger/service.js';
import { startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Paying again a payout sent back (docs/rules/payout-rails.md#paying-again), against Airtel's
// loopback peer and with bank statements: through the rail or by hand, four-eyes at or above the
// approval threshold, once; the books take a second payout only after the first was reversed
// (docs/rules/money-states.md#ledger).

const BANK = { BANK_IBAN: 'FR7630004000031234567890143', BANK_BIC: 'BNPAFRPP', BANK_ACCOUNT_NAME: 'Money Transfer SAS' };
let t: TestApp;
let airtel: AirtelPeer;
let staff: TestUser;
let secondStaff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  // The app listens so that Airtel's callbacks (which make it ask again, and learn of a reversal) reach it.
  const port = await freePort();
  t = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}`, MAIL_GROUP_SECONDS: '0', ...airtel.env(), ...BANK } });
  await t.app.listen({ port, host: '127.0.0.1' });
  airtel.callbackUrl = `${t.config.publicUrl}/api/rails/airtel/callback`;
  [staff, secondStaff, admin] = await Promise.all([createUser(t, { role: 'manager' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
  for (const rail of ['airtel_gabon', 'sepa_france']) {
    expect((await t.request({ method: 'PUT', url: `/api/rails/${rail}`, token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
  }
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await airtel?.stop();
});

const db = () => t.database.db;
const post = (url: string, token: string, payload: object = {}) => t.request({ method: 'POST', url, token, payload });
const payAgain = (id: string, token: string, how: 'retried' | 'by_hand', reason = 'The sender confirmed the number') =>
  post(`/api/transfer-requests/${id}/payouts/pay-again`, token, { how, reason });
const transferOf = async (id: string) => (await db().select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const attemptsOf = (id: string) => db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, id)).orderBy(asc(payoutAttempts.seq));
const entriesOf = (id: string) => db().select().from(ledgerEntries).where(eq(ledgerEntries.transfer_request_id, id)).orderBy(asc(ledgerEntries.id));
const disbursements = () => airtel.calls('POST', '/standard/v2/disbursements').length;
const audits = (action: string, id: string) => db().select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.target_id, id)));
const booksBalanced = async () => (await balances(db())).totals.every((c) => Number(c.sum) === 0);

/** The transfer's net on one account of the books: what it holds of this transfer's money. */
async function netOn(id: string, account: string): Promise<string> {
  const { rows } = await db().execute<{ sum: string }>(sql`select coalesce(sum(l.amount), 0)::text as sum from ledger_lines l
    join ledger_entries e on e.id = l.entry_id where e.transfer_request_id = ${id} and l.account = ${account}`);
  return rows[0]!.sum;
}

/** Its timeline, each step as its event or its move. */
async function timelineOf(id: string): Promise<string[]> {
  const steps = await db().select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, id)).orderBy(asc(transferStatusHistory.id));
  return steps.map((s) => s.event ?? `${s.from_status}→${s.to_status}`);
}

/** A transfer paid in by staff, paid out through Airtel by itself and completed, then taken back by Airtel. */
async function reversedByAirtel(o: { amount?: string; sender?: TestUser } = {}) {
  const sender = o.sender ?? await createUser(t, { language: 'en' });
  const created = await createTransfer(t, sender.id, { amount: o.amount ?? '100', recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
  expect((await post(`/api/transfer-requests/${created.id}/payment`, staff.token, { amount: created.total, reference: `STMT-${created.reference}` })).statusCode).toBe(200);
  if (o.amount && o.amount !== '100') expect((await post(`/api/transfer-requests/${created.id}/approve`, admin.token)).statusCode).toBe(200);
  // As long as its reversal's wait: on a busy machine (a local CI run) the first payout once took longer than 15 s.
  await expect.poll(async () => (await transferOf(created.id)).status, { timeout: 30_000 }).toBe('completed');
  const [paid] = await attemptsOf(created.id);
  airtel.reverse(paid!.reference);
  await expect.poll(async () => (await attemptsOf(created.id))[0]!.state, { timeout: 30_000 }).toBe('reversed');
  return { transfer: created, first: paid!, sender };
}

describe('a payout Airtel took back, paid again through the rail', () => {
  it('pays the recipient exactly once more: two payout entries and one reversal, the books balanced, the timeline and the sender following', async () => {
    const { transfer, first, sender } = await reversedByAirtel();
    const before = disbursements();
    const senderMails = async () => (await db().select().from(mailOutbox).where(eq(mailOutbox.to, sender.email))).length;
    const mailsBefore = await senderMails();

    const decided = await payAgain(transfer.id, staff.token, 'retried');
    expect(decided.statusCode).toBe(200);
    expect(decided.json().data).toMatchObject({ id: first.id, state: 'reversed', resolution: 'retried', resolution_reason: 'The sender confirmed the number', proposal: null });
    await expect.poll(async () => (await transferOf(transfer.id)).status, { timeout: 15_000 }).toBe('completed');

    // Airtel: one new disbursement under a new reference, paid once; the first one paid once and taken back.
    const attempts = await attemptsOf(transfer.id);
    expect(attempts.map((a) => a.state)).toEqual(['reversed', 'succeeded']);
    expect(attempts[1]!.reference).not.toBe(first.reference);
    expect(disbursements()).toBe(before + 1);
    expect(airtel.paidCount(attempts[1]!.reference)).toBe(1);
    expect(airtel.paidCount(first.reference)).toBe(1);
    expect(await transferOf(transfer.id)).toMatchObject({ payout_status: 'sent', payment_status: 'received' });

    // The books: the second payout numbered 2 after the reversal of the first; the sender's money all paid out.
    const entries = await entriesOf(transfer.id);
    expect(entries.map((e) => `${e.kind}#${e.sequence}`)).toEqual(['payment#1', 'payout#1', 'fee#1', 'payout_reversal#1', 'fee_reversal#1', 'payout#2', 'fee#2']);
    // The admin's ledger shows each entry's number too.
    const shown = await t.request({ method: 'GET', url: `/api/ledger/entries?transfer_id=${transfer.id}`, token: admin.token });
    expect(shown.json().data.map((e: { kind: string; sequence: number }) => `${e.kind}#${e.sequence}`)).toEqual(entries.map((e) => `${e.kind}#${e.sequence}`));
    expect(Number(await netOn(transfer.id, 'customer_funds'))).toBe(0);
    expect(Number(await netOn(transfer.id, 'airtel_gabon'))).toBe(-Number(transfer.payout_amount));
    expect(await booksBalanced()).toBe(true);

    // The timeline: paid, sent back, reopened, paid again, completed again; the sender is told.
    const timeline = await timelineOf(transfer.id);
    const returned = timeline.indexOf('payout_returned');
    expect(timeline.slice(returned)).toEqual(['payout_returned', 'completed→processing', 'payout_sent', 'processing→completed']);
    await expect.poll(senderMails, { timeout: 10_000 }).toBeGreaterThan(mailsBefore);
    const seen = await t.request({ method: 'GET', url: `/api/transfer-requests/${transfer.id}`, token: sender.token });
    expect(seen.json().data).toMatchObject({ status: 'completed', payout_status: 'sent' });

    // Staff's list no longer holds it; the decision is audited.
    const listed = (await t.request({ method: 'GET', url: '/api/payout-exceptions', token: staff.token })).json().data;
    expect(listed.some((e: { transfer: { id: string } }) => e.transfer.id === transfer.id)).toBe(false);
    expect(await audits('payout_attempt.pay_again', first.id)).toEqual([expect.objectContaining({ actor_profile_id: staff.id })]);
  }, 90_000);

  it('takes one of two staff members deciding at once: the other is refused and Airtel pays once', async () => {
    const { transfer } = await reversedByAirtel();
    const before = disbursements();
    const answers = await Promise.all([payAgain(transfer.id, staff.token, 'retried'), payAgain(transfer.id, secondStaff.token, 'retried')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().code).toBe('payout_not_reversed');
    await expect.poll(async () => (await transferOf(transfer.id)).status, { timeout: 15_000 }).toBe('completed');
    await t.jobsDone();
    expect((await attemptsOf(transfer.id)).map((a) => a.state)).toEqual(['reversed', 'succeeded']);
    expect(disbursements()).toBe(before + 1);
    expect((await entriesOf(transfer.id)).filter((e) => e.kind === 'payout')).toHaveLength(2);
    expect(await booksBalanced()).toBe(true);
  }, 90_000);

  it('at or above the approval threshold, one staff member proposes and a second confirms; the proposer, the sender and nobody else alone', async () => {
    const staffSender = await createUser(t, { role: 'manager' });
    const { transfer, first } = await reversedByAirtel({ amount: '1500', sender: staffSender });
    const before = disbursements();

    const proposed = await payAgain(transfer.id, staff.token, 'retried', 'Airtel confirmed the wallet is active again');
    expect(proposed.statusCode).toBe(200);
    expect(proposed.json().data).toMatchObject({ resolution: null, proposal: { resolution: 'retried', by: staff.id, reason: 'Airtel confirmed the wallet is active again' } });
    await t.jobsDone();
    expect(disbursements()).toBe(before);
    expect((await payAgain(transfer.id, staff.token, 'by_hand')).json().code).toBe('payout_repay_proposed');
    const confirm = (token: string) => post(`/api/transfer-requests/${transfer.id}/payouts/pay-again/confirm`, token);
    expect((await confirm(staff.token)).json().code).toBe('payout_repay_same_staff');
    const own = await confirm(staffSender.token);
    expect([own.statusCode, own.json().code]).toEqual([403, 'own_transfer']);
    expect((await attemptsOf(transfer.id)).map((a) => [a.state, a.resolution])).toEqual([['reversed', null]]);

    const confirmed = await confirm(secondStaff.token);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data).toMatchObject({ resolution: 'retried', proposal: null });
    await expect.poll(async () => (await transferOf(transfer.id)).status, { timeout: 15_000 }).toBe('completed');
    expect(disbursements()).toBe(before + 1);
    expect(await audits('payout_attempt.propose_pay_again', first.id)).toEqual([expect.objectContaining({ actor_profile_id: staff.id })]);
    expect(await audits('payout_attempt.pay_again', first.id)).toEqual([expect.objectContaining({ actor_profile_id: secondStaff.id })]);
  }, 90_000);
});

describe('a payout Airtel took back, the sender asked to correct the number first', () => {
  it('waits for the correction even once staff chose to pay again, then pays the corrected number once', async () => {
    const { transfer, sender } = await reversedByAirtel();
    const before = disbursements();
    const asked = await post(`/api/transfer-requests/${transfer.id}/payouts/ask-sender`, staff.token);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().data).toMatchObject({ decision: 'ask_sender', decided_by: staff.id, closed_at: null });
    expect((await post(`/api/transfer-requests/${transfer.id}/payouts/ask-sender`, secondStaff.token)).json().code).toBe('name_hold_decided');
    const correction = await t.request({ method: 'GET', url: `/api/transfer-requests/${transfer.id}/recipient-correction`, token: sender.token });
    expect(correction.json().data).toMatchObject({ recipient_phone: '+24177123456' });

    // Staff's choice to pay again waits for the sender: nothing leaves with the number sent back.
    expect((await payAgain(transfer.id, staff.token, 'retried')).statusCode).toBe(200);
    await t.jobsDone();
    expect(disbursements()).toBe(before);
    expect((await attemptsOf(transfer.id)).map((a) => a.state)).toEqual(['reversed']);

    airtel.register('+24177222333', { first: 'Marie', last: 'Nguema' });
    const corrected = await t.request({ method: 'PUT', url: `/api/transfer-requests/${transfer.id}/recipient`, token: sender.token, payload: { recipient_name: 'Marie Nguema', recipient_phone: '+24177222333' } });
    expect(corrected.statusCode).toBe(200);
    await expect.poll(async () => (await transferOf(transfer.id)).status, { timeout: 15_000 }).toBe('completed');
    const attempts = await attemptsOf(transfer.id);
    expect(attempts.map((a) => a.state)).toEqual(['reversed', 'succeeded']);
    expect(attempts[1]!.msisdn).toContain('77222333');
    expect(disbursements()).toBe(before + 1);
    expect(airtel.paidCount(attempts[1]!.reference)).toBe(1);
    expect((await entriesOf(transfer.id)).filter((e) => e.kind === 'payout')).toHaveLength(2);
  }, 90_000);
});

describe('a payout Airtel took back, paid again by hand', () => {
  it('is refused until staff choose it; then "Record payout" records the second payout, nothing leaves through Airtel', async () => {
    const { transfer } = await reversedByAirtel();
    const before = disbursements();
    const early = await post(`/api/transfer-requests/${transfer.id}/payout`, staff.token, { reference: 'AIRTEL-PORTAL-1' });
    expect([early.statusCode, early.json().code]).toEqual([409, 'payout_reversed']);

    expect((await payAgain(transfer.id, staff.token, 'by_hand', 'Sent from the operator portal')).json().data).toMatchObject({ resolution: 'by_hand' });
    expect(await startPayout({ config: t.config, db: db() }, transfer.id)).toBe('by_hand');
    const recorded = await post(`/api/transfer-requests/${transfer.id}/payout`, secondStaff.token, { reference: 'AIRTEL-PORTAL-1' });
    expect(recorded.statusCode).toBe(200);
    expect(await transferOf(transfer.id)).toMatchObject({ payout_status: 'sent', payout_reference: 'AIRTEL-PORTAL-1', status: 'processing' });
    expect((await t.request({ method: 'PATCH', url: `/api/transfer-requests/${transfer.id}`, token: staff.token, payload: { status: 'completed' } })).statusCode).toBe(200);

    await t.jobsDone();
    expect(disbursements()).toBe(before);
    const entries = await entriesOf(transfer.id);
    expect(entries.map((e) => `${e.kind}#${e.sequence}`)).toEqual(['payment#1', 'payout#1', 'fee#1', 'payout_reversal#1', 'fee_reversal#1', 'payout#2', 'fee#2']);
    expect(entries.at(-2)).toMatchObject({ reference: 'AIRTEL-PORTAL-1', actor_profile_id: secondStaff.id });
    expect(await booksBalanced()).toBe(true);
    // Paid: a second payout by hand is refused.
    expect((await post(`/api/transfer-requests/${transfer.id}/payout`, staff.token, { reference: 'AIRTEL-PORTAL-2' })).statusCode).toBe(409);
  }, 90_000);
});

const holder = { account_holder: 'Paul Martin', recipient_name: 'Paul Martin' };
let statementSeq = 0;
/** A camt.054 of one booked line, in the published samples' shape (as in bank-statements.test.ts). */
function camt054(l: { credit: boolean; amount: string; e2e: string; reason?: string }): string {
  const ref = `BNK-${++statementSeq}-${Date.now()}`;
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
    <GrpHdr><MsgId>MSG-${ref}</MsgId><CreDtTm>2026-11-27T18:00:00</CreDtTm></GrpHdr><Ntfctn><Id>N-${ref}</Id>
    <Acct><Id><IBAN>${BANK.BANK_IBAN}</IBAN></Id></Acct><Ntry><Amt Ccy="EUR">${l.amount}</Amt><CdtDbtInd>${l.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>
    <Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-27</Dt></BookgDt><AcctSvcrRef>${ref}</AcctSvcrRef>
    <NtryDtls><TxDtls><Refs><EndToEndId>${l.e2e}</EndToEndId></Refs><Amt Ccy="EUR">${l.amount}</Amt>
    ${l.reason ? `<RtrInf><Rsn><Cd>${l.reason}</Cd></Rsn></RtrInf>` : ''}</TxDtls></NtryDtls></Ntry></Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}

function importStatement(xml: string) {
  const boundary = '----camt';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.xml"\r\nContent-Type: application/xml\r\n\r\n`),
    Buffer.from(xml), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.request({ method: 'POST', url: '/api/bank/statements', token: staff.token, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

describe('a payout Airtel took back, paid again through the rail switched off meanwhile', () => {
  it('is left to staff by hand, as any payout of a rail switched off: "Record payout" records it, nothing leaves through Airtel', async () => {
    const { transfer } = await reversedByAirtel();
    expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: false } })).statusCode).toBe(200);
    try {
      const before = disbursements();
      expect((await payAgain(transfer.id, staff.token, 'retried', 'Wallet active again')).statusCode).toBe(200);
      await t.jobsDone();
      expect((await attemptsOf(transfer.id)).map((a) => [a.state, a.resolution, a.resolved_by])).toEqual([['reversed', 'by_hand', null]]);
      expect(await audits('payout_attempt.pay_again', (await attemptsOf(transfer.id))[0]!.id)).toHaveLength(1);
      const recorded = await post(`/api/transfer-requests/${transfer.id}/payout`, secondStaff.token, { reference: 'AIRTEL-PORTAL-9' });
      expect(recorded.statusCode).toBe(200);
      expect(await transferOf(transfer.id)).toMatchObject({ payout_status: 'sent', payout_reference: 'AIRTEL-PORTAL-9' });
      expect(disbursements()).toBe(before);
    } finally {
      await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } });
    }
  });
});

describe('a SEPA payout the bank returned', () => {
  it('goes into no file to the account that returned it; once the IBAN is corrected and staff pay again, the next file takes it, and it is paid once', async () => {
    const sender = await createUser(t, { full_name: 'Awa Diallo' });
    const created = await createTransfer(t, sender.id, { direction: 'EUR_EUR', paid: true, amount: '180', recipient: { ...holder, iban: 'FR7630006000011234567890189' } });
    // Only this transfer is ready for a file.
    await db().update(transferRequests).set({ status: 'cancelled' }).where(and(eq(transferRequests.status, 'pending'), sql`${transferRequests.id} <> ${created.id}`));
    expect((await post('/api/bank/files', admin.token)).statusCode).toBe(201);
    const transfer = await transferOf(created.id);
    expect((await importStatement(camt054({ credit: false, amount: transfer.payout_amount, e2e: transfer.reference }))).json().data).toMatchObject({ settled: 1 });
    expect((await importStatement(camt054({ credit: true, amount: transfer.payout_amount, e2e: transfer.reference, reason: 'AC04' }))).json().data).toMatchObject({ returned: 1 });
    const [returned] = await attemptsOf(transfer.id);
    expect(returned!.state).toBe('reversed');

    // Staff see it; paying again through the bank to the same account is refused, and no file takes it.
    const listed = (await t.request({ method: 'GET', url: '/api/payout-exceptions', token: staff.token })).json().data;
    expect(listed).toContainEqual(expect.objectContaining({ kind: 'reversed', attempt: expect.objectContaining({ id: returned!.id, rail: 'sepa_france' }) }));
    const sameAccount = await payAgain(transfer.id, staff.token, 'retried');
    expect([sameAccount.statusCode, sameAccount.json().code]).toEqual([409, 'bank_account_returned']);
    expect((await post('/api/bank/files', admin.token)).json().code).toBe('bank_nothing_ready');

    // Staff ask the sender to correct the account; the sender corrects it on their page (not before they were asked).
    const corrected = 'FR7630006000019876543210076';
    const correct = (iban: string) => t.request({ method: 'PUT', url: `/api/transfer-requests/${transfer.id}/recipient-account`, token: sender.token, payload: { account_holder: 'Paul Martin', iban } });
    expect((await correct(corrected)).json().code).toBe('correction_not_asked');
    const asked = await post(`/api/transfer-requests/${transfer.id}/payouts/ask-sender`, staff.token);
    expect([asked.statusCode, asked.json().data]).toEqual([200, null]);
    expect((await post(`/api/transfer-requests/${transfer.id}/payouts/ask-sender`, staff.token)).json().code).toBe('name_hold_decided');
    const state = await t.request({ method: 'GET', url: `/api/transfer-requests/${transfer.id}/recipient-correction`, token: sender.token });
    expect(state.json().data).toMatchObject({ account_holder: 'Paul Martin', iban: 'FR7630006000011234567890189', recipient_phone: null });
    expect((await correct('FR7630006000011234567890180')).json()).toMatchObject({ code: 'validation_failed' });
    const saved = await correct('FR76 3000 6000 0198 7654 3210 076');
    expect([saved.statusCode, saved.json().data]).toEqual([200, null]);
    expect((await transferOf(transfer.id)).destination_details).toMatchObject({ iban: corrected, account_holder: 'Paul Martin' });
    expect(await audits('transfer_request.recipient_correct', transfer.id)).toEqual([expect.objectContaining({ actor_profile_id: sender.id })]);

    // Staff pay it again: the next file takes it to the corrected account.
    expect((await payAgain(transfer.id, staff.token, 'retried', 'IBAN corrected by the sender')).json().data).toMatchObject({ resolution: 'retried' });
    const file = await post('/api/bank/files', admin.token);
    expect(file.json().data).toMatchObject({ count: 1, control_sum: transfer.payout_amount });
    const attempts = await attemptsOf(transfer.id);
    expect(attempts.map((a) => [a.state, a.reference, a.iban])).toEqual([
      ['reversed', transfer.reference, 'FR7630006000011234567890189'], ['pending', `${transfer.reference}-2`, corrected],
    ]);
    // It is in one live file only: the next one finds nothing.
    expect((await post('/api/bank/files', admin.token)).json().code).toBe('bank_nothing_ready');

    // The bank pays the second; a late debit under the first EndToEndId pays nothing more in the books.
    expect((await importStatement(camt054({ credit: false, amount: transfer.payout_amount, e2e: `${transfer.reference}-2` }))).json().data).toMatchObject({ settled: 1 });
    expect((await importStatement(camt054({ credit: false, amount: transfer.payout_amount, e2e: transfer.reference }))).json().data).toMatchObject({ settled: 0, unmatched: 1 });
    expect(await transferOf(transfer.id)).toMatchObject({ status: 'completed', payout_status: 'sent' });
    const payouts = (await entriesOf(transfer.id)).filter((e) => e.kind.startsWith('payout'));
    expect(payouts.map((e) => `${e.kind}#${e.sequence}`)).toEqual(['payout#1', 'payout_reversal#1', 'payout#2']);
    expect(Number(await netOn(transfer.id, 'bank_france'))).toBe(-Number(transfer.payout_amount));
    expect(await booksBalanced()).toBe(true);
  }, 90_000);
});

describe('the books', () => {
  it('refuse a second payout entry before the first was reversed, a reversal of no payout, and the same payout twice', async () => {
    const sender = await createUser(t);
    const transfer = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '100', recipient: { ...holder, iban: 'FR7630006000011234567890189' } });
    expect((await post(`/api/transfer-requests/${transfer.id}/payment`, staff.token, { amount: transfer.total, reference: `STMT-${transfer.reference}` })).statusCode).toBe(200);
    expect((await post(`/api/transfer-requests/${transfer.id}/payout`, staff.token, { reference: 'BY-HAND-1' })).statusCode).toBe(200);

    /** A balanced payout-shaped entry written straight into the journal, as a bug or a hand would. */
    const insert = (kind: 'payout' | 'payout_reversal', sequence: number) => db().transaction(async (tx) => {
      const [entry] = await tx.insert(ledgerEntries).values({ transfer_request_id: transfer.id, kind, sequence, reference: 'DIRECT' }).returning();
      await tx.insert(ledgerLines).values([
        { entry_id: entry!.id, account: 'customer_funds', currency: 'EUR', amount: '1.00' },
        { entry_id: entry!.id, account: 'fx', currency: 'EUR', amount: '-1.00' },
      ]);
    });
    const refusal = async (p: Promise<unknown>) => {
      const error = await p.then(() => null, (e: { message: string; cause?: { message?: string; code?: string } }) => e);
      return error && { message: error.cause?.message ?? error.message, code: error.cause?.code };
    };
    expect(await refusal(insert('payout', 2))).toMatchObject({ code: '23514', message: expect.stringContaining('before payout 1 was reversed') });
    expect(await refusal(insert('payout_reversal', 2))).toMatchObject({ code: '23514', message: expect.stringContaining('reverses no payout 2') });
    expect(await refusal(insert('payout', 1))).toMatchObject({ code: '23505' });
    expect((await entriesOf(transfer.id)).map((e) => `${e.kind}#${e.sequence}`)).toEqual(['payment#1', 'payout#1']);

    // Once payout 1 is reversed, payout 2 is taken: the key, not the code, is the last word.
    await insert('payout_reversal', 1);
    await insert('payout', 2);
    expect(await refusal(insert('payout', 3))).toMatchObject({ code: '23514' });
    expect((await entriesOf(transfer.id)).map((e) => `${e.kind}#${e.sequence}`)).toEqual(['payment#1', 'payout#1', 'payout_reversal#1', 'payout#2']);
  });
});
