import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN, useE2eApp } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';

// The bank rail end to end (docs/rules/bank-rail.md) in Chromium: at 1366 px the admin creates a
// bank file for a paid transfer to a French account and imports the bank's camt.054 that returns
// it (AC04, closed account), and sees the transfer open again with the reason; at 390 px its
// sender reads why and what happens next, in English and in French.

const BANK = { BANK_IBAN: 'FR7630004000031234567890143', BANK_BIC: 'BNPAFRPP', BANK_ACCOUNT_NAME: 'Money Transfer SAS' };
const app = useE2eApp({ smtp: true, env: () => BANK });
const SENDER = { email: 'bank-sender@example.test', password: 'Bank-Returns-Happen-44', full_name: 'Awa Diallo' };
const ADMIN = catalog('en', 'admin');
const SHOTS = '/tmp/shots';

let admin: string;
let transfer: { id: string; reference: string };

/** The bank's notification that the payout came back, in the published camt.054 samples' shape. */
function returnNotice(reference: string, amount: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
  <GrpHdr><MsgId>NTF-${reference}</MsgId><CreDtTm>2026-11-28T09:00:00</CreDtTm></GrpHdr>
  <Ntfctn><Id>N-1</Id><Acct><Id><IBAN>${BANK.BANK_IBAN}</IBAN></Id></Acct>
    <Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-28</Dt></BookgDt>
      <AcctSvcrRef>RTN-${reference}</AcctSvcrRef>
      <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn></BkTxCd>
      <NtryDtls><TxDtls><Refs><EndToEndId>${reference}</EndToEndId></Refs><Amt Ccy="EUR">${amount}</Amt>
        <RtrInf><Rsn><Cd>AC04</Cd></Rsn></RtrInf></TxDtls></NtryDtls></Ntry>
  </Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}

const UNMATCHED_REMITTANCE = 'Loyer novembre atelier';

/** A booked credit naming no transfer, in the same shape. */
function unmatchedNotice(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
  <GrpHdr><MsgId>NTF-UNMATCHED-1</MsgId><CreDtTm>2026-11-28T10:00:00</CreDtTm></GrpHdr>
  <Ntfctn><Id>N-2</Id><Acct><Id><IBAN>${BANK.BANK_IBAN}</IBAN></Id></Acct>
    <Ntry><Amt Ccy="EUR">75.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-28</Dt></BookgDt>
      <AcctSvcrRef>IN-UNMATCHED-1</AcctSvcrRef>
      <NtryDtls><TxDtls><Amt Ccy="EUR">75.00</Amt><RmtInf><Ustrd>${UNMATCHED_REMITTANCE}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
  </Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}

beforeAll(async () => {
  admin = await app.tokenFor(BOOTSTRAP_ADMIN);
  const sender = await app.senderExists(SENDER, '+33612345678');
  const { data } = await app.api<{ data: { id: string; reference: string; total: string } }>('POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'bank_france', amount: '200', currency: 'EUR',
    destination_details: { recipient_name: 'Paul Martin', account_holder: 'Paul Martin', iban: 'FR76 3000 6000 0112 3456 7890 189' },
  }, sender);
  transfer = data;
  await app.api('POST', `/api/transfer-requests/${data.id}/payment`, { amount: data.total, reference: `VIR-${data.reference}` }, admin);
  await app.api('PUT', '/api/rails/sepa_france', { enabled: true }, admin);
}, 120_000);

describe('the bank rail', () => {
  it('staff create a bank file, import the statement returning its payout, and see the transfer open again with the reason (1366 px)', async () => {
    const page = await app.signedInPage(BOOTSTRAP_ADMIN, { locale: 'en-US', width: 1366 });
    await page.goto(`${app.server.url}/admin?tab=bank`);
    await page.getByRole('heading', { name: ADMIN.bankFiles.title, level: 2 }).waitFor();
    await page.getByRole('button', { name: ADMIN.bankFiles.create }).click();
    await page.getByText('File created: 1 payout').waitFor();
    const file = page.getByTestId('bank-file').first();
    await file.getByText(ADMIN.bankFiles.live).waitFor();
    await page.screenshot({ path: `${SHOTS}/bank-file-created.png`, fullPage: true });

    const { data: payout } = await app.api<{ data: { payout_amount: string; status: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, admin);
    expect(payout.status).toBe('processing');
    const dir = mkdtempSync(path.join(tmpdir(), 'camt-'));
    const statement = path.join(dir, 'camt054-return.xml');
    writeFileSync(statement, returnNotice(transfer.reference, payout.payout_amount));
    await page.getByLabel(ADMIN.bankStatements.file).setInputFiles(statement);
    await page.getByRole('button', { name: ADMIN.bankStatements.submit }).click();
    const line = page.getByTestId('bank-line-returned');
    await line.getByText(transfer.reference).waitFor();
    await line.getByText('AC04 · the account is closed').waitFor();
    await page.getByTestId('bank-file').first().getByText('Settled 0 · returned 1 · waiting 0').waitFor();
    // Every payout of the file came back: it says so, no longer "Sent to the bank".
    await page.getByTestId('bank-file').first().getByText(ADMIN.bankFiles.returnedAll, { exact: true }).waitFor();
    expect(await page.getByTestId('bank-file').first().getByText(ADMIN.bankFiles.live, { exact: true }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/bank-statement-returned.png`, fullPage: true });

    // A credit naming no transfer: listed unmatched, then on the reconciliation board (below).
    const other = path.join(dir, 'camt054-unmatched.xml');
    writeFileSync(other, unmatchedNotice());
    await page.getByLabel(ADMIN.bankStatements.file).setInputFiles(other);
    await page.getByRole('button', { name: ADMIN.bankStatements.submit }).click();
    await page.getByText(UNMATCHED_REMITTANCE).first().waitFor();

    const { data: after } = await app.api<{ data: { status: string; payout_status: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, admin);
    expect(after).toMatchObject({ status: 'processing', payout_status: 'not_sent' });
  });

  for (const lng of ['en', 'fr'] as const) {
    it(`the sender reads why the payout came back and what happens next (${lng}, 390 px)`, async () => {
      const text = catalog(lng, 'transfer');
      const page = await app.signedInPage(SENDER, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: 390 });
      await page.goto(`${app.server.url}/history?details=${transfer.id}${lng === 'fr' ? '&lng=fr' : ''}`);
      const note = page.getByTestId('payout-returned');
      await note.waitFor();
      expect(await note.textContent()).toContain(text.history.payoutReturned.replace('{{reason}}', text.bankReturn.AC04));
      expect(await note.textContent()).toContain(text.history.payoutReturnedNext);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SHOTS}/bank-return-sender-${lng}.png`, fullPage: true });
    });

    it(`the reconciliation board lists the bank statement's unmatched line with its source (${lng}, 390 px)`, async () => {
      const text = catalog(lng, 'admin');
      const common = catalog(lng, 'common');
      const page = await app.signedInPage(BOOTSTRAP_ADMIN, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: 390 });
      await page.goto(`${app.server.url}/admin?tab=reconciliation${lng === 'fr' ? '&lng=fr' : ''}`);
      await page.getByRole('button', { name: text.reconciliation.showAccount.replace('{{account}}', common.channels.bank_france) }).click();
      const line = page.getByTestId('unmatched-statement').getByTestId('statement-line').filter({ hasText: UNMATCHED_REMITTANCE });
      await line.waitFor();
      expect(await line.getAttribute('data-source')).toBe('camt');
      await line.getByText(text.reconciliation.lists.sourceCamt, { exact: true }).waitFor();
      await line.scrollIntoViewIfNeeded();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      await line.screenshot({ path: `${SHOTS}/bank-unmatched-board-${lng}.png` });
      await page.screenshot({ path: `${SHOTS}/bank-unmatched-board-page-${lng}.png`, fullPage: true });
    });
  }
});
