import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ledgerEntries, payoutAttempts, transferRequests, transferStatusHistory } from '@server/db/schema.js';
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

beforeAll(async () => {
  t = await createTestApp({ env: BANK });
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

interface Line { credit: boolean; amount: string; ref: string; e2e?: string; remittance?: string; reason?: string }
let seq = 0;
/** A camt message in the published samples' shape. */
function camt(kind: '053' | '054', lines: Line[], msgId = `MSG-${++seq}-${Date.now()}`): string {
  const root = kind === '053' ? 'BkToCstmrStmt' : 'BkToCstmrDbtCdtNtfctn';
  const block = kind === '053' ? 'Stmt' : 'Ntfctn';
  const ntry = (l: Line) => `<Ntry><Amt Ccy="EUR">${l.amount}</Amt><CdtDbtInd>${l.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>
    <BookgDt><Dt>2026-11-27</Dt></BookgDt><ValDt><Dt>2026-11-27</Dt></ValDt><AcctSvcrRef>${l.ref}</AcctSvcrRef>
    <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${l.credit ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>${l.reason ? 'RRTN' : 'ESCT'}</SubFmlyCd></Fmly></Domn></BkTxCd>
    <NtryDtls><TxDtls><Refs>${l.e2e ? `<EndToEndId>${l.e2e}</EndToEndId>` : ''}</Refs><Amt Ccy="EUR">${l.amount}</Amt>
    ${l.remittance ? `<RmtInf><Ustrd>${l.remittance}</Ustrd></RmtInf>` : ''}${l.reason ? `<RtrInf><Rsn><Cd>${l.reason}</Cd></Rsn></RtrInf>` : ''}</TxDtls></NtryDtls></Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.${kind}.001.08"><${root}>
    <GrpHdr><MsgId>${msgId}</MsgId><CreDtTm>2026-11-27T18:00:00</CreDtTm></GrpHdr><${block}><Id>S-${seq}</Id>
    <Acct><Id><IBAN>${BANK.BANK_IBAN}</IBAN></Id></Acct>${lines.map(ntry).join('')}</${block}></${root}></Document>`;
}

function importStatement(xml: string, token = staff.token) {
  const boundary = '----camt';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="statement.xml"\r\nContent-Type: application/xml\r\n\r\n`),
    Buffer.from(xml), Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.request({ method: 'POST', url: '/api/bank/statements', token, payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

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

  it('refuses what is not a camt.053 or camt.054, and senders', async () => {
    expect((await importStatement('<Document><CstmrCdtTrfInitn/></Document>')).json().code).toBe('bank_statement_invalid');
    expect((await importStatement('not xml')).json().code).toBe('bank_statement_invalid');
    expect((await importStatement(camt('053', []), sender.token)).statusCode).toBe(403);
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
