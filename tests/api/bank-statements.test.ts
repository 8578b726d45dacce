import { mkdtempSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAmount, toDecimal } from '@core/money.js';
import { auditLog, ledgerEntries, ledgerLines, payoutAttempts, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { CamtReader } from '@server/modules/bank/camt.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Bank statements (docs/rules/bank-rail.md#statements): camt.053 and camt.054 messages built here
// with the structure of the ISO 20022 published samples (GrpHdr/MsgId, Stmt|Ntfctn, Ntry with
// Amt, CdtDbtInd, Sts/Cd, BookgDt, AcctSvcrRef, NtryDtls/TxDtls with Refs/EndToEndId, RmtInf,
// RtrInf/Rsn/Cd) settle and return our payouts and record senders' payments, once.

const BANK = { BANK_IBAN: 'FR7630004000031234567890143', BANK_BIC: 'BNPAFRPP', BANK_ACCOUNT_NAME: 'Money Transfer SAS' };
let t: TestApp;
let sender: TestUser;
let staff: TestUser;
let admin: TestUser;

/** The e-mails the app sent, as its mailer was given them. */
const mails: { to: string; subject: string; text: string }[] = [];
const mailer = { send: async (m: { to: string; subject: string; text: string }) => { mails.push(m); }, close: () => undefined };

beforeAll(async () => {
  t = await createTestApp({ env: BANK, mailer });
  [sender, staff, admin] = await Promise.all([createUser(t, { full_name: 'Awa Diallo' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
  await t.request({ method: 'PUT', url: '/api/rails/sepa_france', token: admin.token, payload: { enabled: true } });
}, 60_000);
afterAll(async () => { await t.close(); });
beforeEach(async () => {
  await t.database.db.update(transferRequests).set({ status: 'cancelled' }).where(eq(transferRequests.status, 'pending'));
});

const db = () => t.database.db;
const recipient = { account_holder: 'Paul Martin', recipient_name: 'Paul Martin', iban: 'FR7630006000011234567890189' };
const row = async (id: string) => (await db().select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const entries = (id: string, kind: string) => db().select().from(ledgerEntries)
  .where(and(eq(ledgerEntries.transfer_request_id, id), eq(ledgerEntries.kind, kind as 'payout')));

/** An entry: the bank's reference (AcctSvcrRef) when it gives one, its number in the statement (NtryRef) when it gives one. */
interface Line { credit: boolean; amount: string; ref?: string; ntryRef?: string; e2e?: string; remittance?: string; reason?: string }
let seq = 0;
/** A camt message in the published samples' shape. */
function camt(kind: '053' | '054', lines: Line[], msgId = `MSG-${++seq}-${Date.now()}`, iban = BANK.BANK_IBAN): string {
  const root = kind === '053' ? 'BkToCstmrStmt' : 'BkToCstmrDbtCdtNtfctn';
  const block = kind === '053' ? 'Stmt' : 'Ntfctn';
  const ntry = (l: Line) => `<Ntry>${l.ntryRef ? `<NtryRef>${l.ntryRef}</NtryRef>` : ''}<Amt Ccy="EUR">${l.amount}</Amt><CdtDbtInd>${l.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
    <BookgDt><Dt>2026-11-27</Dt></BookgDt><ValDt><Dt>2026-11-27</Dt></ValDt>${l.ref ? `<AcctSvcrRef>${l.ref}</AcctSvcrRef>` : ''}
    <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${l.credit ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>${l.reason ? 'RRTN' : 'ESCT'}</SubFmlyCd></Fmly></Domn></BkTxCd>
    <NtryDtls><TxDtls><Refs>${l.e2e ? `<EndToEndId>${l.e2e}</EndToEndId>` : ''}</Refs><Amt Ccy="EUR">${l.amount}</Amt>
    ${l.remittance ? `<RmtInf><Ustrd>${l.remittance}</Ustrd></RmtInf>` : ''}${l.reason ? `<RtrInf><Rsn><Cd>${l.reason}</Cd></Rsn></RtrInf>` : ''}</TxDtls></NtryDtls></Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.${kind}.001.08"><${root}>
    <GrpHdr><MsgId>${msgId}</MsgId><CreDtTm>2026-11-27T18:00:00</CreDtTm></GrpHdr><${block}><Id>S-${seq}</Id>
    <Acct><Id><IBAN>${iban}</IBAN></Id></Acct>${lines.map(ntry).join('')}</${block}></${root}></Document>`;
}

function importStatement(xml: string, token = staff.token, app = t) {
  const boundary = '----camt';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.xml"\r\nContent-Type: application/xml\r\n\r\n`),
    Buffer.from(xml), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.request({ method: 'POST', url: '/api/bank/statements', token, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

/** The files an import keeps its lines in that this process holds open (removed from their folder once opened). */
const unnamedLinesFiles = () => readdirSync('/proc/self/fd').flatMap((fd) => {
  try { return [readlinkSync(`/proc/self/fd/${fd}`)]; } catch { return []; }
}).filter((target) => target.endsWith('lines.ndjson (deleted)'));

/** A reference of its own for each transfer or message a test makes. */
const tag = () => `${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`;

/** A paid transfer to a French account, in a bank file: its attempt pending. */
async function inAFile(amount = '200') {
  const transfer = await createTransfer(t, sender.id, { direction: 'EUR_EUR', paid: true, amount, recipient });
  expect((await t.request({ method: 'POST', url: '/api/bank/files', token: admin.token })).statusCode).toBe(201);
  return row(transfer.id);
}

describe('a statement', () => {
  it('settles a payout by its EndToEndId: the attempt succeeded, the payout booked, the transfer completed; the same file twice changes nothing', async () => {
    const transfer = await inAFile('200');
    const xml = camt('053', [{ credit: false, amount: transfer.payout_amount, ref: `BNK-S-${transfer.reference}`, e2e: transfer.reference }]);
    const res = await importStatement(xml);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ kind: 'camt.053', settled: 1, returned: 0, payments: 0, unmatched: 0, already_imported: 0 });
    expect(await row(transfer.id)).toMatchObject({ status: 'completed', payout_status: 'sent', payout_reference: `BNK-S-${transfer.reference}` });
    const [attempt] = await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
    expect(attempt!.state).toBe('succeeded');
    expect(await entries(transfer.id, 'payout')).toHaveLength(1);

    const again = await importStatement(xml);
    expect(again.json().data).toMatchObject({ settled: 0, unmatched: 0, already_imported: 1 });
    // The camt.054 that notified the same booking earlier or later is the same line too.
    const notice = await importStatement(camt('054', [{ credit: false, amount: transfer.payout_amount, ref: `BNK-S-${transfer.reference}`, e2e: transfer.reference }]));
    expect(notice.json().data).toMatchObject({ kind: 'camt.054', settled: 0, already_imported: 1 });
    expect(await entries(transfer.id, 'payout')).toHaveLength(1);
  });

  it('records a statement uploaded twice at the same moment once', async () => {
    const transfer = await inAFile('210');
    const due = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '70', recipient, reference: `MT-${Date.now().toString(36).toUpperCase()}T` });
    const xml = camt('053', [
      { credit: false, amount: transfer.payout_amount, ref: `BNK-T-${transfer.reference}`, e2e: transfer.reference },
      { credit: true, amount: due.total, ref: `IN-T-${due.reference}`, remittance: `Virement ${due.reference}` },
    ]);
    const both = (await Promise.all([importStatement(xml), importStatement(xml)])).map((r) => r.json().data);
    expect(both.map((d) => [d.settled, d.payments, d.already_imported]).sort()).toEqual([[0, 0, 2], [1, 1, 0]]);
    expect(await entries(transfer.id, 'payout')).toHaveLength(1);
    expect(await entries(due.id, 'payment')).toHaveLength(1);
    expect(await row(due.id)).toMatchObject({ payment_status: 'received', version: due.version + 1 });
  });

  it('settles many payouts of one statement together, each as alone: its own timeline steps, books and bank reference', async () => {
    const first = await inAFile('120');
    const second = await inAFile('340');
    const res = await importStatement(camt('053', [first, second].map((p) => ({ credit: false, amount: p.payout_amount, ref: `BNK-M-${p.reference}`, e2e: p.reference }))));
    expect(res.json().data).toMatchObject({ settled: 2, unmatched: 0 });
    for (const transfer of [first, second]) {
      expect(await row(transfer.id)).toMatchObject({ status: 'completed', payout_status: 'sent', payout_reference: `BNK-M-${transfer.reference}`, version: transfer.version + 2 });
      const steps = await db().select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, transfer.id)).orderBy(transferStatusHistory.id);
      expect(steps.slice(-2).map((s) => [s.event, s.to_status])).toEqual([['payout_sent', 'processing'], [null, 'completed']]);
      expect((await entries(transfer.id, 'payout')).map((e) => e.reference)).toEqual([`BNK-M-${transfer.reference}`]);
      expect(await entries(transfer.id, 'fee')).toHaveLength(1);
      const [attempt] = await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
      expect(attempt).toMatchObject({ state: 'succeeded', operator_id: `BNK-M-${transfer.reference}` });
    }
  });

  it("tells each sender once what the statement did to their payout, after the import; its e-mails' job run again sends none twice", async () => {
    const paid = await inAFile('130');
    const back = await inAFile('145');
    await t.jobsDone();
    const told = (transfer: { reference: string }) => mails.filter((m) => m.to === sender.email && m.text.includes(transfer.reference));
    const before = { paid: told(paid).length, back: told(back).length };
    const res = await importStatement(camt('053', [
      { credit: false, amount: paid.payout_amount, ref: `BNK-E-${paid.reference}`, e2e: paid.reference },
      { credit: true, amount: back.payout_amount, ref: `RET-E-${back.reference}`, e2e: back.reference, reason: 'AC04' },
    ]));
    expect(res.json().data).toMatchObject({ settled: 1, returned: 1 });
    await t.jobsDone();
    // Paid out and completed, in one e-mail with the bank's reference.
    expect(told(paid).slice(before.paid).map((m) => [m.subject, /paid out/.test(m.text), m.text.includes(`BNK-E-${paid.reference}`), /completed/i.test(m.text)]))
      .toEqual([[`Updates on your transfer ${paid.reference}`, true, true, true]]);
    // Paid out and sent back by the bank in the same statement: one e-mail telling both, in order.
    const [returned, ...more] = told(back).slice(before.back);
    expect(more).toEqual([]);
    expect(returned!.text.indexOf('was paid out')).toBeGreaterThan(0);
    expect(returned!.text.indexOf('sent back the payout')).toBeGreaterThan(returned!.text.indexOf('was paid out'));

    // The job run again (a worker killed after its commit, before the job ended): no second e-mail.
    const { rows } = await t.database.pool.query('select id from bank_statement_mails where statement_id = $1', [res.json().data.id]);
    expect(rows).toHaveLength(1);
    await db().execute(sql`select graphile_worker.add_job('bank_statement_mails', json_build_object('id', ${rows[0].id}::text))`);
    await t.jobsDone();
    expect([told(paid).length, told(back).length]).toEqual([before.paid + 1, before.back + 1]);
  });

  it.each(['AC01', 'AC04', 'AC06', 'MS03'])('returns a paid payout (%s): reversed in the books, the transfer open again for staff, the reason kept', async (reason) => {
    const transfer = await inAFile('150');
    await importStatement(camt('053', [{ credit: false, amount: transfer.payout_amount, ref: `S-${reason}-${transfer.reference}`, e2e: transfer.reference }]));
    const res = await importStatement(camt('054', [{ credit: true, amount: transfer.payout_amount, ref: `R-${reason}-${transfer.reference}`, e2e: transfer.reference, reason }]));
    expect(res.json().data).toMatchObject({ returned: 1, entries: [{ outcome: 'returned', return_reason: reason, transfer_reference: transfer.reference }] });
    expect(await row(transfer.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent', payout_reference: null });
    const [attempt] = await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
    expect(attempt!.state).toBe('reversed');
    expect(await entries(transfer.id, 'payout_reversal')).toHaveLength(1);
    expect(await entries(transfer.id, 'fee_reversal')).toHaveLength(1);
    const steps = await db().select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, transfer.id));
    expect(steps.some((s) => s.event === 'payout_returned' && s.note === reason)).toBe(true);
    expect(steps.at(-1)).toMatchObject({ from_status: 'completed', to_status: 'processing', actor_profile_id: null });

    // Sent back by the bank, it waits for staff: never into the next file to the same account, never paid again by hand.
    await t.request({ method: 'POST', url: '/api/bank/files', token: admin.token });
    expect(await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id))).toHaveLength(1);
    const byHand = await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/payout`, token: admin.token, payload: { reference: 'VIR-BY-HAND-1' } });
    expect(byHand.json()).toMatchObject({ code: 'payout_reversed' });
  });

  it('books a payout returned before the statement that pays it, then returns it: each written once', async () => {
    const transfer = await inAFile('95');
    const res = await importStatement(camt('054', [{ credit: true, amount: transfer.payout_amount, ref: `RB-${transfer.reference}`, e2e: transfer.reference, reason: 'AC04' }]));
    expect(res.json().data).toMatchObject({ returned: 1, unmatched: 0 });
    expect(await row(transfer.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent', payout_reference: null });
    for (const kind of ['payout', 'payout_reversal', 'fee', 'fee_reversal']) expect(await entries(transfer.id, kind)).toHaveLength(1);
    const [attempt] = await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
    expect(attempt!.state).toBe('reversed');
    expect((attempt!.steps as { call: string; state: string }[]).filter((s) => s.call === 'bank_statement').map((s) => s.state)).toEqual(['reversed']);
    const steps = await db().select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, transfer.id)).orderBy(transferStatusHistory.id);
    expect(steps.slice(-4).map((s) => [s.event, s.to_status])).toEqual([['payout_sent', 'processing'], [null, 'completed'], ['payout_returned', 'completed'], [null, 'processing']]);
  });

  it("records a sender's payment its remittance names, flags another amount, and lists what matches nothing", async () => {
    const due = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '300', recipient, reference: `MT-${Date.now().toString(36).toUpperCase()}A` });
    const short = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '120', recipient, reference: `MT-${Date.now().toString(36).toUpperCase()}B` });
    const res = await importStatement(camt('053', [
      { credit: true, amount: due.total, ref: `IN-${due.reference}`, remittance: `Virement ${due.reference} Awa Diallo` },
      { credit: true, amount: '100.00', ref: `IN-${short.reference}`, remittance: `pour ${short.reference}` },
      { credit: true, amount: '42.00', ref: `IN-UNKNOWN-${seq}`, remittance: 'Loyer novembre' },
      { credit: false, amount: '10.00', ref: `OUT-UNKNOWN-${seq}`, e2e: 'NOT-OURS-1' },
    ]));
    expect(res.json().data).toMatchObject({ payments: 2, unmatched: 2 });
    expect(await row(due.id)).toMatchObject({ payment_status: 'received', payment_amount: due.total, payment_flagged: false, payment_recorded_by: staff.id });
    expect(await row(short.id)).toMatchObject({ payment_status: 'received', payment_amount: '100.00', payment_flagged: true });
    const listed = res.json().data.entries.filter((e: { outcome: string }) => e.outcome === 'unmatched');
    expect(listed.map((e: { amount: string; note: string }) => [e.amount, e.note])).toEqual([
      ['42.00', 'names no transfer reference'], ['10.00', 'no payout of ours has this EndToEndId'],
    ]);
    const statements = (await t.request({ method: 'GET', url: '/api/bank/statements', token: staff.token })).json().data;
    expect(statements[0]).toMatchObject({ payments: 2, unmatched: 2 });
  });

  it("records many senders' payments together exactly as staff record one by hand; a staff member's own transfer is not recorded; the same file twice changes nothing", async () => {
    const tag = Date.now().toString(36).toUpperCase();
    const due = (k: string, amount: string) => createTransfer(t, sender.id, { direction: 'EUR_EUR', amount, recipient, reference: `MT-${tag}${k}` });
    const [byHand, exact, other] = [await due('H', '80'), await due('E', '81'), await due('O', '82')];
    const own = await createTransfer(t, staff.id, { direction: 'EUR_EUR', amount: '90', recipient, reference: `MT-${tag}S` });
    const hand = await t.request({ method: 'POST', url: `/api/transfer-requests/${byHand.id}/payment`, token: staff.token, payload: { amount: byHand.total, reference: `IN-${byHand.reference}` } });
    expect(hand.statusCode).toBe(200);
    const xml = camt('053', [
      { credit: true, amount: exact.total, ref: `IN-${exact.reference}`, remittance: `Virement ${exact.reference}` },
      { credit: true, amount: '50.00', ref: `IN-${other.reference}`, remittance: `Virement ${other.reference}` },
      { credit: true, amount: own.total, ref: `IN-${own.reference}`, remittance: `Virement ${own.reference}` },
    ]);
    const res = await importStatement(xml);
    expect(res.json().data).toMatchObject({ payments: 2, unmatched: 1 });
    expect(res.json().data.entries.map((e: { outcome: string; flagged: boolean; note: string | null }) => [e.outcome, e.flagged, e.note])).toEqual([
      ['payment', false, null], ['payment', true, null], ['unmatched', true, 'not recorded: own_transfer'],
    ]);
    expect(await row(other.id)).toMatchObject({ payment_status: 'received', payment_amount: '50.00', payment_flagged: true });
    expect(await row(own.id)).toMatchObject({ payment_status: 'awaiting', version: own.version });

    // What the statement wrote for a transfer is what recording it by hand writes.
    const effects = async (id: string) => {
      const r = await row(id);
      const steps = await db().select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, id)).orderBy(transferStatusHistory.id);
      const books = await entries(id, 'payment');
      const audits = await db().select().from(auditLog).where(and(eq(auditLog.target_id, id), eq(auditLog.action, 'transfer_request.payment')));
      const { rows: mails } = await t.database.pool.query(`select payload from graphile_worker._private_jobs where key = $1`, [`transfer_mail:${id}`]);
      return {
        row: { status: r.status, payment_status: r.payment_status, payment_flagged: r.payment_flagged, payment_recorded_by: r.payment_recorded_by, version: r.version, reference: r.payment_reference === `IN-${r.reference}` },
        steps: steps.map((s) => [s.from_status, s.to_status, s.event, s.actor_profile_id, s.actor_role, s.note]),
        books: books.map((b) => [b.actor_profile_id, b.reference === `IN-${r.reference}`]),
        audits: audits.map((a) => [a.actor_profile_id, a.target_type, (a.before as { payment_status: string }).payment_status, (a.after as { payment_status: string }).payment_status]),
        mails: mails.map((m) => (m.payload as { steps: unknown[] }).steps),
      };
    };
    const expected = await effects(byHand.id);
    expect(expected).toMatchObject({ row: { payment_status: 'received', payment_recorded_by: staff.id, version: byHand.version + 1, reference: true }, books: [[staff.id, true]] });
    expect(expected.audits).toHaveLength(1);
    expect(expected.mails).toEqual([[{ event: 'paid', status: 'pending' }]]);
    expect(await effects(exact.id)).toEqual(expected);

    const again = await importStatement(xml);
    expect(again.json().data).toMatchObject({ payments: 0, unmatched: 0, already_imported: 3 });
    expect(await effects(exact.id)).toEqual(expected);
    expect(await row(other.id)).toMatchObject({ version: other.version + 1 });
  });

  it('matches the lines of one statement in order: a payout settled then returned, a transfer paid by the first line naming it only', async () => {
    const transfer = await inAFile('175');
    const due = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '60', recipient, reference: `MT-${Date.now().toString(36).toUpperCase()}C` });
    const res = await importStatement(camt('053', [
      { credit: false, amount: transfer.payout_amount, ref: `SO-${transfer.reference}`, e2e: transfer.reference },
      { credit: true, amount: transfer.payout_amount, ref: `RO-${transfer.reference}`, e2e: transfer.reference, reason: 'AC04' },
      { credit: true, amount: due.total, ref: `IN1-${due.reference}`, remittance: `Virement ${due.reference}` },
      { credit: true, amount: due.total, ref: `IN2-${due.reference}`, remittance: `Virement ${due.reference} encore` },
    ]));
    expect(res.json().data).toMatchObject({ settled: 1, returned: 1, payments: 1, unmatched: 1 });
    expect(res.json().data.entries.map((e: { outcome: string }) => e.outcome)).toEqual(['settled', 'returned', 'payment', 'unmatched']);
    expect(res.json().data.entries[3]).toMatchObject({ note: 'names no transfer awaiting a payment in euros' });
    expect(await row(transfer.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent' });
    expect(await row(due.id)).toMatchObject({ payment_status: 'received', payment_amount: due.total });
  });

  it('matches a long statement in order across its batches (1,000 lines each, two at a time): a payout settled in the first, returned in the third', async () => {
    const transfer = await inAFile('180');
    const due = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '70', recipient, reference: `MT-${Date.now().toString(36).toUpperCase()}L` });
    const tag = Date.now();
    const filler = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ credit: true, amount: '1.00', ref: `FILL-${tag}-${from + i}`, remittance: `Loyer ${from + i}` }));
    const res = await importStatement(camt('053', [
      { credit: false, amount: transfer.payout_amount, ref: `SL-${transfer.reference}`, e2e: transfer.reference },
      ...filler(0, 2_100),
      { credit: true, amount: transfer.payout_amount, ref: `RL-${transfer.reference}`, e2e: transfer.reference, reason: 'AC04' },
      { credit: true, amount: due.total, ref: `IL1-${due.reference}`, remittance: `Virement ${due.reference}` },
      ...filler(2_100, 500),
      { credit: true, amount: due.total, ref: `IL2-${due.reference}`, remittance: `Virement ${due.reference} encore` },
    ]));
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ settled: 1, returned: 1, payments: 1, unmatched: 2_601, already_imported: 0 });
    const statementId = res.json().data.id as string;
    const { rows } = await db().execute<{ outcome: string; key: string }>(sql`select outcome, entry_key as key from bank_statement_entries where statement_id = ${statementId}::uuid order by id`);
    expect(rows).toHaveLength(2_604);
    // Listed as the bank wrote them, whichever batch committed first.
    expect(rows.map((r) => r.key.split(':')[1])).toEqual([`SL-${transfer.reference}`, ...Array.from({ length: 2_100 }, (_, i) => `FILL-${tag}-${i}`),
      `RL-${transfer.reference}`, `IL1-${due.reference}`, ...Array.from({ length: 500 }, (_, i) => `FILL-${tag}-${2_100 + i}`), `IL2-${due.reference}`]);
    expect([rows[0]!.outcome, rows[2_101]!.outcome, rows[2_102]!.outcome, rows[2_603]!.outcome]).toEqual(['settled', 'returned', 'payment', 'unmatched']);
    expect(await row(transfer.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent' });
    for (const kind of ['payout', 'payout_reversal']) expect(await entries(transfer.id, kind)).toHaveLength(1);
    expect(await row(due.id)).toMatchObject({ payment_status: 'received', payment_amount: due.total });
    // The answer lists its first 1,000 lines, in the same order; imported again, it changes nothing.
    expect(res.json().data.entries.map((e: { outcome: string }) => e.outcome).slice(0, 2)).toEqual(['settled', 'unmatched']);
    expect(res.json().data.entries).toHaveLength(1_000);
    const again = await importStatement(camt('053', [
      { credit: false, amount: transfer.payout_amount, ref: `SL-${transfer.reference}`, e2e: transfer.reference },
      ...filler(0, 2_100),
    ]));
    expect(again.json().data).toMatchObject({ settled: 0, returned: 0, payments: 0, unmatched: 0, already_imported: 2_101, entries: [] });
  });

  it('changes nothing for a statement cut off after more lines than a batch: refused whole', async () => {
    const transfer = await inAFile('160');
    const tag = Date.now();
    const msgId = `CUT-${tag}`;
    const whole = camt('053', [
      { credit: false, amount: transfer.payout_amount, ref: `SC-${transfer.reference}`, e2e: transfer.reference },
      ...Array.from({ length: 2_500 }, (_, i) => ({ credit: true, amount: '2.00', ref: `CUT-${tag}-${i}`, remittance: `Facture ${i}` })),
    ], msgId);
    const res = await importStatement(whole.slice(0, whole.lastIndexOf('<Ntry>') + 40));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bank_statement_invalid');
    expect(unnamedLinesFiles()).toEqual([]);
    const { rows } = await db().execute<{ n: number }>(sql`select (select count(*)::int from bank_statements where msg_id = ${msgId})
      + (select count(*)::int from bank_statement_entries where entry_key like ${`ref:CUT-${tag}-%`} or entry_key like ${`ref:SC-${transfer.reference}:%`}) as n`);
    expect(rows[0]!.n).toBe(0);
    expect(await row(transfer.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent' });
    const [attempt] = await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
    expect(attempt!.state).toBe('pending');
    // The same statement whole is then imported as if never tried.
    expect((await importStatement(whole)).json().data).toMatchObject({ settled: 1, unmatched: 2_500, already_imported: 0 });
  });

  it('keeps the batches written when a later one fails, audits them as an import not complete, and does the rest when the file is imported again', async () => {
    const transfer = await inAFile('140');
    const tag = Date.now();
    const msgId = `HALF-${tag}`;
    // Three batches: the payout settled in the first, the line the database refuses alone in the third.
    const xml = camt('053', [
      { credit: false, amount: transfer.payout_amount, ref: `SH-${transfer.reference}`, e2e: transfer.reference },
      ...Array.from({ length: 1_999 }, (_, i) => ({ credit: true, amount: '3.00', ref: `HALF-${tag}-${i}`, remittance: `Loyer ${i}` })),
      { credit: true, amount: '3.00', ref: `BOOM-${tag}`, remittance: 'Loyer' },
    ], msgId);
    await t.database.pool.query(`create function refuse_boom() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`);
    await t.database.pool.query(`create trigger refuse_boom before insert on bank_statement_entries for each row when (new.entry_key like 'ref:BOOM-%') execute function refuse_boom()`);
    try {
      expect((await importStatement(xml)).statusCode).toBe(500);
    } finally {
      await t.database.pool.query('drop trigger refuse_boom on bank_statement_entries; drop function refuse_boom()');
    }
    // Left half-way, the import closed the file its lines were kept in.
    expect(unnamedLinesFiles()).toEqual([]);
    const [statement] = (await t.database.pool.query('select id from bank_statements where msg_id = $1', [msgId])).rows as { id: string }[];
    const written = await db().execute<{ n: number }>(sql`select count(*)::int as n from bank_statement_entries where statement_id = ${statement!.id}::uuid`);
    expect(written.rows[0]!.n).toBe(2_000);
    expect(await row(transfer.id)).toMatchObject({ status: 'completed', payout_status: 'sent' });
    const audits = () => db().select().from(auditLog).where(and(eq(auditLog.action, 'bank_statement.import'), eq(auditLog.target_id, statement!.id))).orderBy(auditLog.created_at);
    expect((await audits()).map((a) => a.after)).toEqual([{ msg_id: msgId, kind: 'camt.053', settled: 1, returned: 0, payments: 0, unmatched: 1_999, already_imported: 0, complete: false }]);

    const again = await importStatement(xml);
    expect(again.json().data).toMatchObject({ settled: 0, unmatched: 1, already_imported: 2_000 });
    expect((await audits()).map((a) => (a.after as { complete: boolean }).complete)).toEqual([false, true]);
    expect(await entries(transfer.id, 'payout')).toHaveLength(1);
  });

  it('runs a batch PostgreSQL ended as deadlocked again, three tries in all: once, the statement is imported whole and in order; three times, the import fails with the batch before kept', async () => {
    const transfer = await inAFile('130');
    const tag = Date.now();
    const fill = (from: number) => Array.from({ length: 1_200 }, (_, i) => ({ credit: true, amount: '4.00', ref: `DL-${tag}-${from + i}`, remittance: `Loyer ${i}` }));
    const keys = async (msgId: string) => (await db().execute<{ key: string }>(sql`select e.entry_key as key from bank_statement_entries e
      join bank_statements s on s.id = e.statement_id where s.msg_id = ${msgId} order by e.id`)).rows.map((r) => r.key.split(':')[1]);
    /** A line naming DEAD ended as deadlocked the first `times` it is written, by a test trigger. */
    const deadlockFirst = (times: number) => t.database.pool.query(`alter sequence test_deadlocks restart; create or replace function deadlock_test() returns trigger language plpgsql as $$
      begin if nextval('test_deadlocks') <= ${times} then raise exception 'deadlock detected by the test' using errcode = '40P01'; end if; return new; end $$`);
    await t.database.pool.query('create sequence test_deadlocks');
    await deadlockFirst(1);
    await t.database.pool.query(`create trigger deadlock_test before insert on bank_statement_entries for each row when (new.entry_key like 'ref:DEAD%') execute function deadlock_test()`);
    try {
      // Two batches: the payout settled in the first, the line ended as deadlocked in the second.
      const once = camt('053', [
        { credit: false, amount: transfer.payout_amount, ref: `SD-${transfer.reference}`, e2e: transfer.reference },
        ...fill(0), { credit: true, amount: '4.00', ref: `DEAD1-${tag}`, remittance: 'Loyer' },
      ], `DL1-${tag}`);
      const res = await importStatement(once);
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ settled: 1, unmatched: 1_201, already_imported: 0 });
      expect(await keys(`DL1-${tag}`)).toEqual([`SD-${transfer.reference}`, ...fill(0).map((l) => l.ref), `DEAD1-${tag}`]);
      expect(await entries(transfer.id, 'payout')).toHaveLength(1);
      expect(await row(transfer.id)).toMatchObject({ status: 'completed', payout_status: 'sent' });

      await deadlockFirst(3);
      const thrice = camt('053', [...fill(10_000), { credit: true, amount: '4.00', ref: `DEAD3-${tag}`, remittance: 'Loyer' }], `DL3-${tag}`);
      expect((await importStatement(thrice)).statusCode).toBe(500);
      expect((await t.database.pool.query(`select last_value from test_deadlocks`)).rows[0].last_value).toBe('3');
      expect(await keys(`DL3-${tag}`)).toEqual(fill(10_000).slice(0, 1_000).map((l) => l.ref));
    } finally {
      await t.database.pool.query('drop trigger deadlock_test on bank_statement_entries; drop function deadlock_test(); drop sequence test_deadlocks');
    }
  });

  it('lists the lines that matched nothing for the reconciliation board, newest first, signed, with why', async () => {
    const tag = `${Date.now()}`;
    await importStatement(camt('053', [
      { credit: true, amount: '42.10', ref: `UM-IN-${tag}`, remittance: `Loyer ${tag}` },
      { credit: false, amount: '9.90', ref: `UM-OUT-${tag}`, e2e: `NOT-OURS-${tag}` },
    ]));
    const res = await t.request({ method: 'GET', url: '/api/bank/statements/unmatched?limit=2', token: staff.token });
    expect(res.statusCode).toBe(200);
    const { count, lines } = res.json().data;
    expect(count).toBeGreaterThanOrEqual(2);
    expect(lines.map((l: { amount: string; reference: string | null; description: string | null; note: string }) => [l.amount, l.reference, l.description, l.note])).toEqual([
      ['-9.90', `NOT-OURS-${tag}`, null, 'no payout of ours has this EndToEndId'],
      ['42.10', null, `Loyer ${tag}`, 'names no transfer reference'],
    ]);
    expect((await t.request({ method: 'GET', url: '/api/bank/statements/unmatched', token: sender.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/bank/statements/unmatched?limit=0', token: staff.token })).statusCode).toBe(400);
  });

  it('refuses what is not a camt.053 or camt.054, and senders', async () => {
    expect((await importStatement('<Document><CstmrCdtTrfInitn/></Document>')).json().code).toBe('bank_statement_invalid');
    expect((await importStatement('not xml')).json().code).toBe('bank_statement_invalid');
    expect((await importStatement(camt('053', []), sender.token)).statusCode).toBe(403);
  });

  it("keeps the lines it has read in a file with no name while they wait their turn (freed by the system if the process dies), and closes it after", async () => {
    const tag = Date.now();
    const turn = await t.database.pool.connect();
    try {
      await turn.query(`select pg_advisory_lock(hashtext('bank_statement_import'))`);
      const importing = importStatement(camt('053', [{ credit: true, amount: '6.00', ref: `WAIT-${tag}`, remittance: 'Loyer' }], `WAIT-${tag}`));
      await expect.poll(async () => (await t.database.pool.query(`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and query like '%bank_statement_import%' and pid <> pg_backend_pid()`)).rows[0].n, { timeout: 10_000 }).toBe(1);
      expect(unnamedLinesFiles()).toHaveLength(1);
      expect(readdirSync(tmpdir()).filter((name) => name.startsWith('bank-statement-'))).toEqual([]);
      await turn.query(`select pg_advisory_unlock(hashtext('bank_statement_import'))`);
      expect((await importing).json().data).toMatchObject({ unmatched: 1 });
    } finally {
      turn.release();
    }
    expect(unnamedLinesFiles()).toEqual([]);
  });

  it("holds its turn for its whole length where the database ends a transaction idle for long (idle_in_transaction_session_timeout)", async () => {
    const url = new URL(t.database.url);
    url.searchParams.set('options', '-c idle_in_transaction_session_timeout=100');
    const strict = await createTestApp({ env: BANK, databaseUrl: url.toString() });
    try {
      const clerk = await createUser(strict, { role: 'manager' });
      const tag = Date.now();
      // Three batches: the transaction holding the import's turn idles while they are matched.
      const lines = Array.from({ length: 2_500 }, (_, i) => ({ credit: true, amount: '7.00', ref: `IDLE-${tag}-${i}`, remittance: `Loyer ${i}` }));
      const res = await importStatement(camt('053', lines), clerk.token, strict);
      expect(res.statusCode).toBe(201);
      expect(res.json().data).toMatchObject({ unmatched: 2_500 });
    } finally {
      await strict.close();
    }
  });
});

describe('a 20 MB statement', () => {
  it('is read piece by piece with its memory under 200 MB', () => {
    const entry = (i: number) => `<Ntry><Amt Ccy="EUR">${(i % 9000) + 1}.25</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-27</Dt></BookgDt><AcctSvcrRef>BIG-${i}</AcctSvcrRef><NtryDtls><TxDtls><Refs><EndToEndId>E2E-${i}</EndToEndId></Refs><RmtInf><Ustrd>Payment number ${i} for invoice ${i * 7} with a longer remittance text</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
    const reader = new CamtReader();
    const before = process.memoryUsage().rss;
    let peak = before;
    let bytes = 0;
    let lines = 0;
    reader.write('<?xml version="1.0"?><Document><BkToCstmrStmt><GrpHdr><MsgId>BIG-1</MsgId></GrpHdr><Stmt>');
    for (let i = 0; bytes < 20_000_000; i++) {
      const piece = Array.from({ length: 100 }, (_, j) => entry(i * 100 + j)).join('');
      bytes += piece.length;
      reader.write(piece);
      lines += reader.take().length;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    reader.write('</Stmt></BkToCstmrStmt></Document>');
    expect(reader.close()).toEqual({ kind: 'camt.053', msgId: 'BIG-1' });
    expect(bytes).toBeGreaterThanOrEqual(20_000_000);
    expect(lines).toBeGreaterThan(50_000);
    expect(peak - before).toBeLessThan(200 * 1024 * 1024);
  });
});

describe('statements from a folder (BANK_STATEMENTS_DIR)', () => {
  it('the scheduled job imports each file dropped there once, by the system, and moves it; a copy is not imported again; a file that is no statement or larger than 60 MB is set aside', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'camt-in-'));
    const fromDir = await createTestApp({ env: { ...BANK, BANK_STATEMENTS_DIR: dir } });
    try {
      const owner = await createUser(fromDir, { full_name: 'Awa Diallo' });
      const due = await createTransfer(fromDir, owner.id, { direction: 'EUR_EUR', amount: '80', recipient, reference: `MT-${Date.now().toString(36).toUpperCase()}D` });
      const xml = camt('053', [{ credit: true, amount: due.total, ref: `DIR-${due.reference}`, remittance: `Virement ${due.reference}` }]);
      const fetchNow = async () => {
        await fromDir.database.db.execute(sql`select graphile_worker.add_job('bank_statements_fetch', '{}'::json)`);
        await fromDir.jobsDone();
      };
      writeFileSync(path.join(dir, 'day-1.xml'), xml);
      writeFileSync(path.join(dir, 'not-a-statement.xml'), '<Document><CstmrCdtTrfInitn/></Document>');
      // Another statement, padded past 60 MB with the blanks XML allows between its elements.
      const large = camt('053', [{ credit: false, amount: '5.00', ref: `DIR-LARGE-${due.reference}`, e2e: 'SUPPLIER-1' }]);
      writeFileSync(path.join(dir, 'too-large.xml'), large.replace('<Ntry>', `${' '.repeat(60_000_000)}<Ntry>`));
      await fetchNow();
      const paid = (await fromDir.database.db.select().from(transferRequests).where(eq(transferRequests.id, due.id)))[0]!;
      expect(paid).toMatchObject({ payment_status: 'received', payment_amount: due.total, payment_recorded_by: null });
      expect(readdirSync(dir).sort()).toEqual(['imported', 'refused']);
      expect(readdirSync(path.join(dir, 'imported'))).toHaveLength(1);
      expect(readdirSync(path.join(dir, 'refused')).filter((name) => name.startsWith('too-large-'))).toHaveLength(1);
      expect(readdirSync(path.join(dir, 'refused'))).toHaveLength(2);

      writeFileSync(path.join(dir, 'day-1-again.xml'), xml);
      await fetchNow();
      expect(readdirSync(dir).sort()).toEqual(['imported', 'refused']);
      const imports = await fromDir.database.db.select().from(auditLog).where(eq(auditLog.action, 'bank_statement.import'));
      expect(imports.map((a) => a.actor_profile_id)).toEqual([null]);
    } finally {
      await fromDir.close();
    }
  }, 60_000);
});

// At their edges: entry numbers that repeat across statements, another account's statement, a
// return of another amount, a payment short of the amount due, a batch booking without amounts, a
// file nested past any camt.
describe('bank statements at their edges', () => {
  it('an entry numbered as another statement numbered one (NtryRef "1", no AcctSvcrRef) is a new line: its payment is recorded', async () => {
    // Banks number NtryRef within each statement (1, 2, 3…); this one gives no AcctSvcrRef.
    const monday = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '80', recipient, reference: `MT-${tag()}A` });
    const tuesday = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '90', recipient, reference: `MT-${tag()}B` });
    const first = await importStatement(camt('053', [{ credit: true, amount: monday.total, ntryRef: '1', remittance: `Virement ${monday.reference}` }]));
    expect(first.json().data).toMatchObject({ payments: 1 });
    const second = await importStatement(camt('053', [{ credit: true, amount: tuesday.total, ntryRef: '1', remittance: `Virement ${tuesday.reference}` }]));
    expect(second.statusCode).toBe(201);
    expect(second.json().data).toMatchObject({ payments: 1, already_imported: 0 });
    expect(await row(tuesday.id)).toMatchObject({ payment_status: 'received' });
  });

  it("refuses a statement of another account than the business's (BANK_IBAN): nothing settled", async () => {
    const transfer = await inAFile('210');
    const res = await importStatement(camt('053', [{ credit: false, amount: transfer.payout_amount, ref: `OTHER-${transfer.reference}`, e2e: transfer.reference }], undefined, 'DE89370400440532013000'));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bank_statement_invalid');
    const [attempt] = await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
    expect(attempt!.state).toBe('pending');
    expect(await row(transfer.id)).toMatchObject({ payout_status: 'not_sent' });
  });

  it('a return of 1.00 EUR of a 200 EUR payout is not booked as the payout sent back: listed unmatched, flagged', async () => {
    const transfer = await inAFile('200');
    await importStatement(camt('053', [{ credit: false, amount: transfer.payout_amount, ref: `PS-${transfer.reference}`, e2e: transfer.reference }]));
    expect(await row(transfer.id)).toMatchObject({ payout_status: 'sent' });
    const res = await importStatement(camt('053', [{ credit: true, amount: '1.00', ref: `PR-${transfer.reference}`, e2e: transfer.reference, reason: 'AC04' }]));
    const reversal = await db().select({ amount: ledgerLines.amount, account: ledgerLines.account }).from(ledgerEntries)
      .innerJoin(ledgerLines, eq(ledgerLines.entry_id, ledgerEntries.id))
      .where(and(eq(ledgerEntries.transfer_request_id, transfer.id), eq(ledgerEntries.kind, 'payout_reversal'), eq(ledgerLines.account, 'bank_france')));
    // What the books say came back into the bank account must be what the bank credited (1.00), or nothing and the line flagged.
    expect({ returned: res.json().data.returned, back_in_books: reversal.map((r) => r.amount) }).toEqual({ returned: 0, back_in_books: [] });
  });

  it('a transfer whose statement recorded 1.00 EUR of its 100 EUR (flagged) is not put in a bank file: staff look first', async () => {
    const short = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '100', recipient, reference: `MT-${tag()}U` });
    const res = await importStatement(camt('053', [{ credit: true, amount: '1.00', ref: `IN-${short.reference}`, remittance: `Virement ${short.reference}` }]));
    expect(res.json().data).toMatchObject({ payments: 1 });
    expect(await row(short.id)).toMatchObject({ payment_status: 'received', payment_amount: '1.00', payment_flagged: true });
    // "Create bank file" (and the daily cut-off, with no one looking) gathers it.
    await t.request({ method: 'POST', url: '/api/bank/files', token: admin.token });
    const attempts = await db().select({ amount: payoutAttempts.amount }).from(payoutAttempts).where(eq(payoutAttempts.transfer_id, short.id));
    expect(attempts).toEqual([]);
  });

  it('refuses a file nested far deeper than any camt, read to its end without holding the server; nothing recorded', async () => {
    const xml = `<?xml version="1.0"?><Document><BkToCstmrStmt><GrpHdr><MsgId>DEEP-${tag()}</MsgId></GrpHdr><Stmt><Ntry><NtryDtls><TxDtls>`
      + '<a>'.repeat(100_000) + '<Rsn><Cd>X</Cd></Rsn>'.repeat(100_000) + '</a>'.repeat(100_000) + '</TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>';
    const res = await importStatement(xml);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bank_statement_invalid');
    expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('a booked batch debit whose transaction details carry no amounts is one unmatched line of the entry, not none', async () => {
    const first = await inAFile('110');
    const second = await inAFile('115');
    const total = toDecimal(parseAmount(first.payout_amount, 'EUR')! + parseAmount(second.payout_amount, 'EUR')!, 'EUR');
    const msgId = `BATCH-${tag()}`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
      <GrpHdr><MsgId>${msgId}</MsgId><CreDtTm>2026-11-27T18:00:00</CreDtTm></GrpHdr><Stmt><Id>ST-${msgId}</Id><Acct><Id><IBAN>${BANK.BANK_IBAN}</IBAN></Id></Acct>
      <Ntry><Amt Ccy="EUR">${total}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-27</Dt></BookgDt>
      <AcctSvcrRef>B-${msgId}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
      <NtryDtls><Btch><NbOfTxs>2</NbOfTxs></Btch>
        <TxDtls><Refs><EndToEndId>${first.reference}</EndToEndId></Refs></TxDtls>
        <TxDtls><Refs><EndToEndId>${second.reference}</EndToEndId></Refs></TxDtls>
      </NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;
    const res = await importStatement(xml);
    expect(res.statusCode).toBe(201);
    const d = res.json().data;
    expect(d).toMatchObject({ settled: 0, unmatched: 1 });
  });
});
