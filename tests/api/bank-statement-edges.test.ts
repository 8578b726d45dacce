import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAmount, toDecimal } from '@core/money.js';
import { ledgerEntries, ledgerLines, payoutAttempts, transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Bank statements at their edges (docs/rules/bank-rail.md#statements): entry numbers that repeat
// across statements, another account's statement, a return of another amount, a payment short of
// the amount due, a batch booking without amounts, a file nested past any camt.

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
const tag = () => `${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`;

/** One booked entry of a camt.053.001.08 (ISO 20022 element order: NtryRef, Amt, CdtDbtInd, Sts, BookgDt, ValDt, AcctSvcrRef, BkTxCd, NtryDtls). */
interface Entry { credit: boolean; amount: string; ntryRef?: string; acctSvcrRef?: string; e2e?: string; remittance?: string; reason?: string }
function ntry(l: Entry): string {
  return `<Ntry>${l.ntryRef ? `<NtryRef>${l.ntryRef}</NtryRef>` : ''}<Amt Ccy="EUR">${l.amount}</Amt><CdtDbtInd>${l.credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>
    <Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-27</Dt></BookgDt><ValDt><Dt>2026-11-27</Dt></ValDt>${l.acctSvcrRef ? `<AcctSvcrRef>${l.acctSvcrRef}</AcctSvcrRef>` : ''}
    <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>${l.credit ? 'RCDT' : 'ICDT'}</Cd><SubFmlyCd>${l.reason ? 'RRTN' : 'ESCT'}</SubFmlyCd></Fmly></Domn></BkTxCd>
    <NtryDtls><TxDtls><Refs>${l.e2e ? `<EndToEndId>${l.e2e}</EndToEndId>` : '<EndToEndId>NOTPROVIDED</EndToEndId>'}</Refs><Amt Ccy="EUR">${l.amount}</Amt>
    ${l.remittance ? `<RmtInf><Ustrd>${l.remittance}</Ustrd></RmtInf>` : ''}${l.reason ? `<RtrInf><Rsn><Cd>${l.reason}</Cd></Rsn></RtrInf>` : ''}</TxDtls></NtryDtls></Ntry>`;
}
function camt053(entries: Entry[], opts: { msgId?: string; iban?: string } = {}): string {
  const msgId = opts.msgId ?? `AUD-${tag()}`;
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
    <GrpHdr><MsgId>${msgId}</MsgId><CreDtTm>2026-11-27T18:00:00</CreDtTm></GrpHdr><Stmt><Id>ST-${msgId}</Id>
    <Acct><Id><IBAN>${opts.iban ?? BANK.BANK_IBAN}</IBAN></Id></Acct>${entries.map(ntry).join('')}</Stmt></BkToCstmrStmt></Document>`;
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
async function inAFile(amount: string) {
  const transfer = await createTransfer(t, sender.id, { direction: 'EUR_EUR', paid: true, amount, recipient });
  expect((await t.request({ method: 'POST', url: '/api/bank/files', token: admin.token })).statusCode).toBe(201);
  return row(transfer.id);
}

describe('bank statements at their edges', () => {
  it('an entry numbered as another statement numbered one (NtryRef "1", no AcctSvcrRef) is a new line: its payment is recorded', async () => {
    // Banks number NtryRef within each statement (1, 2, 3…); this one gives no AcctSvcrRef.
    const monday = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '80', recipient, reference: `MT-${tag()}A` });
    const tuesday = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '90', recipient, reference: `MT-${tag()}B` });
    const first = await importStatement(camt053([{ credit: true, amount: monday.total, ntryRef: '1', remittance: `Virement ${monday.reference}` }]));
    expect(first.json().data).toMatchObject({ payments: 1 });
    const second = await importStatement(camt053([{ credit: true, amount: tuesday.total, ntryRef: '1', remittance: `Virement ${tuesday.reference}` }]));
    expect(second.statusCode).toBe(201);
    expect(second.json().data).toMatchObject({ payments: 1, already_imported: 0 });
    expect(await row(tuesday.id)).toMatchObject({ payment_status: 'received' });
  });

  it("refuses a statement of another account than the business's (BANK_IBAN): nothing settled", async () => {
    const transfer = await inAFile('210');
    const res = await importStatement(camt053([{ credit: false, amount: transfer.payout_amount, acctSvcrRef: `OTHER-${transfer.reference}`, e2e: transfer.reference }],
      { iban: 'DE89370400440532013000' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('bank_statement_invalid');
    const [attempt] = await db().select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transfer.id));
    expect(attempt!.state).toBe('pending');
    expect(await row(transfer.id)).toMatchObject({ payout_status: 'not_sent' });
  });

  it('a return of 1.00 EUR of a 200 EUR payout is not booked as the payout sent back: listed unmatched, flagged', async () => {
    const transfer = await inAFile('200');
    await importStatement(camt053([{ credit: false, amount: transfer.payout_amount, acctSvcrRef: `PS-${transfer.reference}`, e2e: transfer.reference }]));
    expect(await row(transfer.id)).toMatchObject({ payout_status: 'sent' });
    const res = await importStatement(camt053([{ credit: true, amount: '1.00', acctSvcrRef: `PR-${transfer.reference}`, e2e: transfer.reference, reason: 'AC04' }]));
    const reversal = await db().select({ amount: ledgerLines.amount, account: ledgerLines.account }).from(ledgerEntries)
      .innerJoin(ledgerLines, eq(ledgerLines.entry_id, ledgerEntries.id))
      .where(and(eq(ledgerEntries.transfer_request_id, transfer.id), eq(ledgerEntries.kind, 'payout_reversal'), eq(ledgerLines.account, 'bank_france')));
    // What the books say came back into the bank account must be what the bank credited (1.00), or nothing and the line flagged.
    expect({ returned: res.json().data.returned, back_in_books: reversal.map((r) => r.amount) }).toEqual({ returned: 0, back_in_books: [] });
  });

  it('a transfer whose statement recorded 1.00 EUR of its 100 EUR (flagged) is not put in a bank file: staff look first', async () => {
    const short = await createTransfer(t, sender.id, { direction: 'EUR_EUR', amount: '100', recipient, reference: `MT-${tag()}U` });
    const res = await importStatement(camt053([{ credit: true, amount: '1.00', acctSvcrRef: `IN-${short.reference}`, remittance: `Virement ${short.reference}` }]));
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
