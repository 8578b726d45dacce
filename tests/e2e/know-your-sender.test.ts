import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, useE2eApp } from './support/fixtures.js';
import { seriousViolations, withAxe } from './support/axe.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// Know your sender (docs/rules/know-your-sender.md), on a phone (390 px): a level-1 sender near
// the 30-day limit sees what is left on the dashboard and is told before paying, in English and
// in French; once the admin raises the limit, the same transfer goes through.

const app = useE2eApp({ smtp: true });
const SENDER = { email: 'nadia@example.test', password: 'Quiet-Owendo-Bay-7', full_name: 'Nadia Obame' };
const FRENCH = { email: 'paul@example.test', password: 'Calme-Lambarene-81', full_name: 'Paul Mba' };
const PHONE = 390;

/** 900 EUR sent through the API today: 100 EUR left of level 1's 1,000 EUR over 30 days. */
async function nearTheLimit(token: string) {
  await app.api('POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '900', currency: 'EUR',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
  }, token);
}

/** The transfer screen with 200 EUR to Airtel Gabon and a recipient, then "Review transfer" (or its French twin). */
async function askToSend(page: Page, labels: { phone: string; name: string; review: string }) {
  await page.goto(`${app.server.url}/transfer?direction=EUR_XAF&amount=200`);
  await page.getByLabel(labels.phone).fill('077 12 34 56');
  await page.getByLabel(labels.name).fill('Marie Nguema');
  await page.getByRole('button', { name: labels.review }).click();
}

beforeAll(async () => {
  await nearTheLimit(await app.senderExists(SENDER, undefined, { level: 1 }));
  await nearTheLimit(await app.senderExists(FRENCH, '+24177000001', { level: 1 }));
});

describe('an account without a date of birth or street address, on a phone', () => {
  const NEW = { email: 'ines@example.test', password: 'Green-Akanda-Park-3', full_name: 'Ines Nzamba' };

  it('is told on the dashboard what to complete, completes it on the profile and reaches level 1', async () => {
    await app.senderExists(NEW, '+24177000002', { level: 0 });
    const page = await app.signedInPage(NEW, { width: PHONE });
    await page.goto(`${app.server.url}/dashboard`);
    const required = page.getByTestId('kyc-required');
    await required.getByText('Before your first transfer, add: date of birth, address.').waitFor();
    await shot(page, 'kyc-dashboard-level0-390');
    await required.getByRole('link', { name: 'Complete my profile' }).click();
    await page.waitForURL(/\/profile$/);
    const card = page.getByTestId('identity-card');
    await card.getByTestId('identity-dob').fill('1992-03-05');
    await card.getByTestId('identity-address').fill('8 rue Ange Mba');
    await card.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated successfully').first().waitFor();
    await shot(page, 'kyc-profile-390');
    await page.goto(`${app.server.url}/dashboard`);
    await page.getByRole('heading', { name: 'Your sending limits (level 1)' }).waitFor();
    await page.close();
  });
});

describe('limits told before paying, on a phone', () => {
  it('the dashboard shows what is left in each window and warns from 80 % used', async () => {
    const page = await app.signedInPage(SENDER, { width: PHONE });
    await page.goto(`${app.server.url}/dashboard`);
    const card = page.getByTestId('kyc-card');
    await card.getByRole('heading', { name: 'Your sending limits (level 1)' }).waitFor();
    expect(await card.getByTestId('kyc-window-30d').innerText()).toContain('€100.00 left');
    expect(await card.getByTestId('kyc-window-30d').innerText()).toContain('€900.00 used of €1,000.00');
    // One transfer: what the 30 days leave, not the 1,000 EUR a transfer may be at most.
    expect(await card.getByTestId('kyc-window-transfer').innerText()).toContain('€100.00 left');
    expect(await card.getByTestId('kyc-window-365d').innerText()).toContain('€2,100.00 left');
    expect(await card.getByTestId('kyc-near-limit').innerText()).toContain('You have used 80 % or more of your limit (Last 30 days).');
    await shot(page, 'kyc-dashboard-390');
    await page.close();
  });

  it('in English: the calculator and then the form say 200 EUR is over the 30-day limit, with what is left and how to raise it', async () => {
    const page = await app.signedInPage(SENDER, { width: PHONE });
    // Hydrated before the corridor is chosen: a choice made before it is lost (the label stays USD).
    await page.goto(app.server.url, { waitUntil: 'networkidle' });
    const calculator = page.getByRole('region', { name: 'How much are you sending?' });
    await calculator.getByLabel('From → to').selectOption('EUR_XAF');
    await calculator.getByLabel('You send (EUR)').fill('200');
    await calculator.getByText('This is over your limit (last 30 days): €100.00 left.').waitFor();
    await calculator.getByLabel('You send (EUR)').fill('100');
    await expect.poll(() => calculator.getByTestId('calc-own-limit').count()).toBe(0);
    await shot(page, 'kyc-calculator-390');
    await askToSend(page, { phone: 'Recipient phone number', name: 'Recipient name (optional)', review: 'Review transfer' });
    // The server's words, said once under the amount.
    await page.getByText('This transfer is over your limit for the last 30 days: €100.00 is left. Send less, or verify your identity to raise your limits.').first().waitFor();
    expect(await page.getByRole('heading', { name: 'Review and confirm' }).count()).toBe(0);
    await shot(page, 'kyc-transfer-refused-en-390');
    await page.close();
  });

  it('in French: the same refusal, in French', async () => {
    const page = await app.signedInPage(FRENCH, { width: PHONE, locale: 'fr-FR' });
    await askToSend(page, { phone: 'Numéro de téléphone du bénéficiaire', name: 'Nom du bénéficiaire (facultatif)', review: 'Vérifier le transfert' });
    await page.getByText(/Ce transfert dépasse votre plafond sur 30 jours\s:\sil vous reste 100,00\s€\. Envoyez moins, ou faites vérifier votre identité pour relever vos plafonds\./).first().waitFor();
    await shot(page, 'kyc-transfer-refused-fr-390');
    await page.close();
  });

  it('the admin raises level 1\'s 30 days in the Limits tab on a phone: a 30 days above the 365 days is refused on its field', async () => {
    const page = await withAxe(await app.signedInPage(BOOTSTRAP_ADMIN, { width: PHONE }));
    await page.goto(`${app.server.url}/admin?tab=limits`);
    const level1 = page.getByRole('form', { name: 'Level 1 limits' });
    const d30 = level1.getByRole('textbox', { name: '30 days (EUR)' });
    await expect.poll(() => d30.inputValue()).toBe('1,000.00');
    expect(await level1.getByRole('textbox', { name: 'One transfer (EUR)' }).inputValue()).toBe('1,000.00');
    expect(await level1.getByRole('textbox', { name: '365 days (EUR)' }).inputValue()).toBe('3,000.00');
    expect(await page.getByRole('form', { name: 'Level 2 limits' }).getByRole('textbox', { name: 'One transfer (EUR)' }).inputValue()).toBe('');

    await d30.fill('3,000.01');
    await level1.getByRole('button', { name: 'Save' }).click();
    await level1.getByText('The 30 days\' limit cannot be more than the 365 days\' limit (3000.00 EUR).').waitFor();
    expect(await d30.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'kyc-admin-limits-refused-390');

    await d30.fill('2000');
    await level1.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Level 1 limits saved').first().waitFor();
    await level1.getByTestId('kyc-limits-1').getByText(/30 days €2,000\.00/).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'kyc-admin-limits-390');
    await page.close();
  });

  it('once the admin raised the limit, the same transfer goes through to its payment page', async () => {
    const page = await app.signedInPage(SENDER, { width: PHONE });
    await askToSend(page, { phone: 'Recipient phone number', name: 'Recipient name (optional)', review: 'Review transfer' });
    await page.getByRole('heading', { name: 'Review and confirm' }).waitFor();
    await page.getByRole('button', { name: /^Confirm and pay/ }).click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    await page.goto(`${app.server.url}/dashboard`);
    await page.getByTestId('kyc-card').getByText('€900.00 left').first().waitFor();
    await shot(page, 'kyc-dashboard-after-390');
    await page.close();
  });

  it('staff see who sent it and who gets it, as they were, in the transfer\'s details', async () => {
    const page = await app.staffSignedIn('admin');
    await page.goto(`${app.server.url}/admin`);
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('Marie Nguema');
    await page.keyboard.press('Enter');
    const row = page.getByRole('list', { name: 'Transfer requests' }).getByRole('listitem').filter({ hasText: 'Nadia Obame' });
    await row.first().getByRole('button', { name: 'Details' }).click();
    const section = page.getByRole('dialog').getByTestId('travel-rule');
    await section.getByRole('button', { name: 'Show' }).click();
    const text = await section.innerText();
    for (const shown of ['Nadia Obame', '1990-04-12', '12 rue des Palmiers, Libreville, GA', 'Marie Nguema', '+24177123456']) expect(text).toContain(shown);
    await shot(page, 'kyc-travel-rule-admin');
    await page.close();
  });
});
