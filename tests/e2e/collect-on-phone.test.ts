import { beforeAll, describe, expect, it } from 'vitest';
import { useAirtelE2eApp } from './support/airtel-app.js';
import { inBothLanguages } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// "Approve on my phone" (docs/rules/payout-rails.md#collections) in Chromium on a 390 px phone,
// in English and French: a sender in Gabon paying from their Airtel Money wallet asks for the
// request on the pay page, sees it wait for their PIN, and, once the Airtel peer approves it
// (its callback reaching the app, which asks Airtel), reads that the payment is received. A
// refusal says why and lets them try again; the proof upload stays open beside it.

const { airtel, app } = useAirtelE2eApp();

const PHONE = 390;
const SENDER = { email: 'collect-sender@example.test', password: 'Approve-On-Phone-28', full_name: 'Marie Nguema' };
const SENDER_PHONE = '+24177123456';
const TEXT = inBothLanguages('transfer');

let token: string;

beforeAll(async () => {
  // The admin switches the Airtel Money Gabon rail on.
  airtel.register(SENDER_PHONE, { first: 'Marie', last: 'Nguema' });
  const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
  await app.api('PUT', '/api/rails/airtel_gabon', { enabled: true }, admin);
  token = await app.senderExists(SENDER, SENDER_PHONE);
}, 120_000);

/** A transfer paid from Airtel Money Gabon to a PayPal account, not paid yet. */
async function gabonTransfer(): Promise<string> {
  const { data } = await app.api<{ data: { id: string } }>('POST', '/api/payments/initiate', {
    source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '50000', currency: 'XAF',
    destination_details: { recipient_name: 'John Smith', recipient_email: 'john.smith@example.test' },
  }, token);
  return data.id;
}

/** The USSD push the app sent last, once Airtel has it. */
async function nextPush(before: number): Promise<string> {
  await expect.poll(() => airtel.pushes().length, { timeout: 15_000 }).toBeGreaterThan(before);
  return airtel.pushes().at(-1)!;
}

describe('approve on my phone, Airtel Money Gabon', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`asks the phone, waits, and shows the payment received; a refusal says why and may be tried again (${lng}, ${PHONE} px)`, async () => {
      const t = TEXT[lng];
      const id = await gabonTransfer();
      const page = await app.signedInPage(SENDER, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: PHONE });
      await page.goto(`${app.server.url}/pay/${id}`);
      const card = page.getByTestId('collect-card');
      await card.getByRole('heading', { name: t.collect.title }).waitFor();
      // The manual way stays open beside it.
      await page.getByText(t.pay.whereToPay).waitFor();
      await page.getByRole('heading', { name: t.pay.proofTitle }).waitFor();
      // The sender's own number to begin with.
      expect(await page.getByLabel(t.collect.numberLabel).inputValue()).toBe(SENDER_PHONE);
      await shot(page, `collect-offered-${lng}`);

      // First the sender declines on the phone: the page says so and offers to try again.
      let pushes = airtel.pushes().length;
      await card.getByRole('button', { name: t.collect.button }).click();
      await page.getByText(t.collect.waiting, { exact: true }).waitFor();
      await shot(page, `collect-waiting-${lng}`);
      airtel.refuse(await nextPush(pushes));
      await page.getByText(t.collect.reasons.refused).waitFor({ timeout: 15_000 });
      await page.getByText(t.collect.failed).waitFor();
      await shot(page, `collect-refused-${lng}`);

      // Then they approve it.
      pushes = airtel.pushes().length;
      await card.getByRole('button', { name: t.collect.tryAgain }).click();
      await page.getByText(t.collect.waiting, { exact: true }).waitFor();
      airtel.approve(await nextPush(pushes));
      await page.getByText(t.pay.received).waitFor({ timeout: 15_000 });
      // Paid: neither the request nor the proof is asked for any more.
      expect(await page.getByTestId('collect-card').count()).toBe(0);
      expect(await page.getByRole('heading', { name: t.pay.proofTitle }).count()).toBe(0);
      await shot(page, `collect-received-${lng}`);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);

      const { data } = await app.api<{ data: { payment_status: string; payment_amount: string; total: string } }>('GET', `/api/transfer-requests/${id}`, undefined, token);
      expect(data.payment_status).toBe('received');
      expect(data.payment_amount).toBe(data.total);
      await page.close();
    }, 120_000);
  }
});
