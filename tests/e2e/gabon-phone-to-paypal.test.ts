import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PayPalServer } from '../support/paypal-server.js';
import { useAirtelE2eApp } from './support/airtel-app.js';
import { inBothLanguages } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN, valueOf } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// Money that moves by itself, as a sender in Gabon lives it on a 390 px phone, in English then in
// French: they send XAF from their Airtel Money Gabon wallet to a PayPal account on the transfer
// form, pay with "approve on my phone" (the Airtel peer approves), read that the payment is
// received, and, with no one on staff doing anything, the PayPal Payouts rail pays the recipient:
// their history and the tracking link say the transfer is completed, the money paid out.

const paypal = new PayPalServer();
beforeAll(async () => { await paypal.start(); });
const { airtel, app } = useAirtelE2eApp(() => ({ PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url }));

const PHONE = 390;
const SENDER = { email: 'gabon-to-paypal@example.test', password: 'Libreville-To-PayPal-43', full_name: 'Marie Nguema' };
const SENDER_PHONE = '+24177654321';
const TEXT = inBothLanguages('transfer');
const RECIPIENT = { en: { name: 'John Smith', email: 'john.smith@example.test' }, fr: { name: 'Jean Dupont', email: 'jean.dupont@example.test' } } as const;

beforeAll(async () => {
  // An admin switches both rails on through the API.
  airtel.register(SENDER_PHONE, { first: 'Marie', last: 'Nguema' });
  const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
  await app.api('PUT', '/api/rails/airtel_gabon', { enabled: true }, admin);
  await app.api('PUT', '/api/rails/paypal_payouts', { enabled: true }, admin);
  await app.senderExists(SENDER, SENDER_PHONE);
}, 120_000);

/** The transfer form, filled as the sender does: Airtel Money Gabon to a PayPal account, 50,000 XAF. Returns the reference. */
async function sendOnTheForm(page: Page, lng: 'en' | 'fr'): Promise<string> {
  const t = TEXT[lng];
  await page.goto(`${app.server.url}/transfer`);
  await page.getByLabel(t.form.from, { exact: true }).selectOption('airtel_gabon');
  await page.getByLabel(t.form.to, { exact: true }).selectOption('paypal_usd');
  await page.getByLabel(t.form.amountIn.replace('{{currency}}', 'XAF')).fill('50000');
  await page.getByLabel(t.form.paypalEmail).fill(RECIPIENT[lng].email);
  await page.getByLabel(t.form.paypalName).fill(RECIPIENT[lng].name);
  await shot(page, `gabon-paypal-form-${lng}`);
  await page.getByRole('button', { name: t.form.review }).click();
  await page.getByRole('heading', { name: t.review.title }).waitFor();
  await page.getByRole('button', { name: new RegExp(`^${t.review.confirm.split(' {{')[0]}`) }).click();
  await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
  await expect.poll(() => valueOf(page, t.pay.reference)).toMatch(/^MT-/);
  return (await valueOf(page, t.pay.reference))!;
}

/** The USSD push the app sent last, once Airtel has it. */
async function nextPush(before: number): Promise<string> {
  await expect.poll(() => airtel.pushes().length, { timeout: 15_000 }).toBeGreaterThan(before);
  return airtel.pushes().at(-1)!;
}

describe('from Airtel Money Gabon to a PayPal account, approved on the phone and paid out by itself', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`the sender pays on their phone and, with no staff step, reads that the money is delivered (${lng}, ${PHONE} px)`, async () => {
      const t = TEXT[lng];
      const page = await app.signedInPage(SENDER, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: PHONE });
      const reference = await sendOnTheForm(page, lng);

      const pushes = airtel.pushes().length;
      await page.getByTestId('collect-card').getByRole('button', { name: t.collect.button }).click();
      await page.getByText(t.collect.waiting, { exact: true }).waitFor();
      airtel.approve(await nextPush(pushes));
      await page.getByText(t.pay.received).waitFor({ timeout: 15_000 });
      await shot(page, `gabon-paypal-received-${lng}`);

      // With no one on staff acting, the history says it is delivered (the page read again as a sender would).
      await page.goto(`${app.server.url}/history`);
      const details = page.getByRole('button', { name: t.history.detailsOf.replace('{{reference}}', reference) });
      const state = page.getByRole('row').filter({ has: details }).getByTestId('sender-state');
      await expect.poll(async () => {
        await page.reload();
        return state.getAttribute('data-state');
      }, { timeout: 60_000, interval: 2_000 }).toBe('delivered');
      expect(await state.textContent()).toBe(t.senderState.delivered);

      // Its details: completed by the system, paid out under PayPal's batch id.
      await details.click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('timeline').getByText(t.status.completed, { exact: true }).waitFor();
      const batch = [...paypal.payouts.batches.values()].find((b) => b.item.receiver === RECIPIENT[lng].email);
      expect(batch?.item.status).toBe('SUCCESS');
      expect(await valueOf(dialog, t.receipt.payoutReference)).toBe(batch!.id);
      expect(await dialog.getByText(t.history.byRole.replace('{{role}}', t.history.roles.system)).count()).toBeGreaterThan(0);
      expect(await dialog.getByText(t.history.byRole.replace('{{role}}', t.history.roles.manager)).count()).toBe(0);
      await shot(page, `gabon-paypal-details-${lng}`);
      const tracking = await dialog.getByLabel(t.tracking.share.linkLabel, { exact: true }).inputValue();

      // The tracking link says it in the sender's language.
      await page.goto(tracking);
      expect(await page.getByTestId('tracking-status').textContent()).toBe(t.status.completed);
      await page.getByText(t.tracking.statusText.completed).waitFor();
      await shot(page, `gabon-paypal-tracking-${lng}`);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
      // Paid once, to the e-mail the sender typed.
      expect(paypal.payouts.made.get(batch!.senderBatchId)).toBe(1);
      expect([...paypal.payouts.batches.values()].filter((b) => b.item.receiver === RECIPIENT[lng].email)).toHaveLength(1);
      await page.close();
    }, 180_000);
  }
});
