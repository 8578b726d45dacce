import { beforeAll, describe, expect, it } from 'vitest';
import { catalog } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN, useE2eApp } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// A SEPA payout the bank sent back, paid again (docs/rules/payout-rails.md#paying-again) in
// Chromium: staff ask the sender to correct the account; on a 390 px phone, in English and in
// French, the sender corrects the account holder and IBAN on the transfer's page; staff pay it
// again and the next bank file takes it to the corrected account.

const BANK = { BANK_IBAN: 'FR7630004000031234567890143', BANK_BIC: 'BNPAFRPP', BANK_ACCOUNT_NAME: 'Money Transfer SAS' };
const app = useE2eApp({ smtp: true, env: () => BANK });
const SENDER = { email: 'bank-correction@example.test', password: 'Bank-Account-Corrected-44', full_name: 'Awa Diallo' };
const RETURNED_IBAN = 'FR7630006000011234567890189';
const CORRECTED_IBAN = 'FR7630006000019876543210076';

let admin: string;
let sender: string;

beforeAll(async () => {
  admin = await app.tokenFor(BOOTSTRAP_ADMIN);
  sender = await app.senderExists(SENDER, '+33612345678');
  await app.api('PUT', '/api/rails/sepa_france', { enabled: true }, admin);
}, 120_000);

/** A camt.054 of one booked line (a debit paying a payout, or a credit returning it with AC04). */
function notice(reference: string, amount: string, returned: boolean): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn>
  <GrpHdr><MsgId>NTF-${returned ? 'R' : 'S'}-${reference}</MsgId><CreDtTm>2026-11-28T09:00:00</CreDtTm></GrpHdr>
  <Ntfctn><Id>N-1</Id><Acct><Id><IBAN>${BANK.BANK_IBAN}</IBAN></Id></Acct>
    <Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${returned ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-28</Dt></BookgDt>
      <AcctSvcrRef>${returned ? 'RTN' : 'PAY'}-${reference}</AcctSvcrRef>
      <NtryDtls><TxDtls><Refs><EndToEndId>${reference}</EndToEndId></Refs><Amt Ccy="EUR">${amount}</Amt>
        ${returned ? '<RtrInf><Rsn><Cd>AC04</Cd></Rsn></RtrInf>' : ''}</TxDtls></NtryDtls></Ntry>
  </Ntfctn></BkToCstmrDbtCdtNtfctn></Document>`;
}

async function importNotice(xml: string): Promise<Record<string, number>> {
  const form = new FormData();
  form.append('file', new Blob([xml], { type: 'application/xml' }), 'notice.xml');
  const res = await fetch(`${app.server.url}/api/bank/statements`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: Record<string, number> }).data;
}

/** 200 EUR to Paul Martin's account, paid in, sent in a bank file, then returned by the bank (closed account). */
async function returnedPayout(): Promise<{ id: string; reference: string; payout_amount: string }> {
  const { data } = await app.api<{ data: { id: string; reference: string; total: string; payout_amount: string } }>('POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'bank_france', amount: '200', currency: 'EUR',
    destination_details: { recipient_name: 'Paul Martin', account_holder: 'Paul Martin', iban: RETURNED_IBAN },
  }, sender);
  await app.api('POST', `/api/transfer-requests/${data.id}/payment`, { amount: data.total, reference: `VIR-${data.reference}` }, admin);
  expect((await app.api<{ data: { count: number } }>('POST', '/api/bank/files', {}, admin)).data.count).toBe(1);
  expect(await importNotice(notice(data.reference, data.payout_amount, false))).toMatchObject({ settled: 1 });
  expect(await importNotice(notice(data.reference, data.payout_amount, true))).toMatchObject({ returned: 1 });
  return data;
}

describe('a bank payout sent back, the account corrected by its sender', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`is corrected on the transfer's page and paid again in the next file (${lng}, 390 px)`, async () => {
      const tr = catalog(lng, 'transfer');
      const transfer = await returnedPayout();
      await app.api('POST', `/api/transfer-requests/${transfer.id}/payouts/ask-sender`, {}, admin);

      const page = await app.signedInPage(SENDER, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: 390 });
      await page.goto(`${app.server.url}/pay/${transfer.id}${lng === 'fr' ? '?lng=fr' : ''}`);
      const form = page.getByTestId('recipient-correction');
      await form.getByRole('heading', { name: tr.correction.bankTitle }).waitFor();
      expect(await form.getByLabel(tr.correction.iban).inputValue()).toBe(RETURNED_IBAN);
      expect(await form.getByLabel(tr.correction.accountHolder).inputValue()).toBe('Paul Martin');
      await form.getByLabel(tr.correction.iban).fill('FR76 3000 6000 0198 7654 3210 076');
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      await shot(page, `bank-return-correction-${lng}`);
      await form.getByRole('button', { name: tr.correction.bankSubmit }).click();
      expect(await page.getByTestId('correction-saved').textContent()).toBe(tr.correction.bankSaved);
      await shot(page, `bank-return-corrected-${lng}`);
      await page.context().close();

      // Staff pay it again: the next bank file takes it, to the corrected account only.
      await app.api('POST', `/api/transfer-requests/${transfer.id}/payouts/pay-again`, { how: 'retried', reason: 'IBAN corrected by the sender' }, admin);
      expect((await app.api<{ data: { count: number } }>('POST', '/api/bank/files', {}, admin)).data.count).toBe(1);
      const attempts = (await app.api<{ data: { state: string; iban: string; reference: string }[] }>('GET', `/api/transfer-requests/${transfer.id}/payouts`, undefined, admin)).data;
      expect(attempts.map((a) => [a.state, a.iban])).toEqual([['pending', CORRECTED_IBAN], ['reversed', RETURNED_IBAN]]);
    }, 120_000);
  }
});
