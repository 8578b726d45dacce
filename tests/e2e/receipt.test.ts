import { readFile } from 'node:fs/promises';
import { formatMoney, parseAmount, type Currency } from '@core/money.js';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../support/pdf-text.js';
import { inBothLanguages } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN, useE2eApp } from './support/fixtures.js';

// The PDF receipt is a document a sender keeps (docs/rules/transfers.md#receipt), read as text in English and
// French: the MT- reference as its title and its file name, amounts as the receipt's language
// writes them (grouped, "80,50 €"), "Total to pay" until the payment is received and "Total paid"
// after (a closed transfer's never "to pay"), the payment's reference once recorded, the tracking
// link, no "->" for an arrow.

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'receipt-sender@example.test', password: 'Keep-This-Receipt-6', full_name: 'Aïcha Receipt' };
const TEXT = inBothLanguages('transfer');

interface Transfer {
  id: string;
  reference: string;
  amount: string;
  total: string;
  payout_amount: string;
  tracking_url: string;
}

let token: string;
let admin: string;

beforeAll(async () => {
  token = await app.senderExists(SENDER);
  admin = await app.tokenFor(BOOTSTRAP_ADMIN);
});

/**
 * The receipt of one transfer from the history (a statement, which says it is not a receipt, until
 * it is completed), as its file name and its text.
 */
async function receipt(page: Page, lng: 'en' | 'fr', reference: string, kind: 'receiptOf' | 'statementOf' = 'statementOf'): Promise<{ name: string; text: string }> {
  await page.goto(`${app.server.url}/history`);
  const button = page.getByRole('button', { name: TEXT[lng].history[kind].replace('{{reference}}', reference), exact: true });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: download.suggestedFilename(), text: await pdfText(await readFile((await download.path())!)) };
}

/** Money as the receipt prints it: the app's formatter, with plain spaces (the PDF font has no narrow ones). */
const printed = (value: string, currency: Currency, lng: string) =>
  formatMoney(parseAmount(value, currency)!, currency, lng).replace(/[\u202f\u00a0]/g, ' ');

describe('the PDF receipt', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`in ${lng === 'en' ? 'English' : 'French'}: titled and named by its reference, amounts grouped, "to pay" then "paid"`, async () => {
      const r = TEXT[lng].receipt;
      const { data: created } = await app.api<{ data: { id: string } }>('POST', '/api/payments/initiate', {
        source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '80.50', currency: 'EUR',
        destination_details: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' },
      }, token);
      const { data: transfer } = await app.api<{ data: Transfer }>('GET', `/api/transfer-requests/${created.id}`, undefined, token);
      const page = await app.signedInPage(SENDER, { locale: lng === 'en' ? 'en-US' : 'fr-FR' });

      const before = await receipt(page, lng, transfer.reference);
      expect(before.name).toBe(`${transfer.reference}.pdf`);
      expect(before.text).toContain(transfer.reference);
      // Not completed: a statement that says what it is, never titled a receipt.
      expect(before.text).toContain(r.statementTitle.pending);
      expect(before.text).not.toContain(r.title);
      expect(before.text).toContain(printed('80.50', 'EUR', lng));
      expect(before.text).toContain(printed(transfer.total, 'EUR', lng));
      // The payout in francs CFA has thousands: grouped as the language groups them.
      const payout = printed(transfer.payout_amount, 'XAF', lng);
      expect(payout).toMatch(lng === 'en' ? /^FCFA \d{2},\d{3}$/ : /^\d{2} \d{3} FCFA$/);
      expect(before.text).toContain(payout);
      expect(before.text).toContain(lng === 'en' ? '€80.50' : '80,50 €');
      expect(before.text).toContain(r.totalToPay);
      expect(before.text).not.toContain(r.total);
      expect(before.text).toContain(TEXT[lng].payment.awaiting);
      expect(before.text).toContain(r.route.replace('{{from}}', 'PayPal (EUR)').replace('{{to}}', 'Airtel Money Gabon'));
      expect(before.text).toContain('+241 77 12 34 56');
      expect(before.text).toContain(SENDER.full_name);
      expect(before.text).toContain(transfer.tracking_url);
      expect(before.text).not.toContain('->');

      await app.api('POST', `/api/transfer-requests/${transfer.id}/payment`, { amount: transfer.total, reference: `PAYPAL-EUR-${lng.toUpperCase()}-4411` }, admin);
      const after = await receipt(page, lng, transfer.reference);
      expect(after.name).toBe(`${transfer.reference}.pdf`);
      expect(after.text).toContain(r.total);
      expect(after.text).not.toContain(r.totalToPay);
      expect(after.text).toContain(TEXT[lng].payment.received);
      expect(after.text).toContain(`PAYPAL-EUR-${lng.toUpperCase()}-4411`);
      expect(after.text).not.toContain('->');
      await page.context().close();
    });
  }

  it('of a transfer cancelled before payment: never "to pay" nor "awaiting payment"', async () => {
    const r = TEXT.en.receipt;
    const { data: created } = await app.api<{ data: Transfer }>('POST', '/api/payments/initiate', {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '40', currency: 'USD',
      destination_details: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' },
    }, token);
    await app.api('POST', `/api/transfer-requests/${created.id}/cancel`, undefined, token);
    const page = await app.signedInPage(SENDER, { locale: 'en-US' });
    const { text } = await receipt(page, 'en', created.reference);
    expect(text).toContain(r.totalNotDue);
    expect(text).toContain(r.notDue);
    expect(text).toContain(printed(created.total, 'USD', 'en'));
    expect(text).not.toContain(r.totalToPay);
    expect(text).not.toContain(TEXT.en.payment.awaiting);
    await page.context().close();
  });
});
