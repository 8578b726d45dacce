import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, useE2eApp } from './support/fixtures.js';
import { seriousViolations } from './support/axe.js';
import { scrollWidth } from './support/layout.js';

// Operators' numbers (docs/rules/corridors.md#phone-country-rules) in the browser: the transfer form names the operator of the payout number as it is typed,
// and refuses another operator's number with the message naming the accepted ones; the admin
// edits the ranges in the Operators tab (axe, 360 px), and the form follows the edit.

const app = useE2eApp({ smtp: true });
const SENDER = { email: 'operators@example.test', password: 'Airtel-Or-MTN-16', full_name: 'Awa Operators' };

beforeAll(async () => {
  await app.senderExists(SENDER);
});

const operatorHint = (page: Page) => page.getByTestId('phone-operator');

async function transferForm(direction: string, locale = 'en-US'): Promise<Page> {
  const page = await app.signedInPage(SENDER, { locale });
  await page.goto(`${app.server.url}/transfer?direction=${direction}&amount=100`);
  await page.getByLabel(locale.startsWith('fr') ? 'Numéro de téléphone du bénéficiaire' : 'Recipient phone number').waitFor();
  return page;
}

describe('the payout number on the transfer form', () => {
  it('names the operator as the number is typed, in Gabon and in Rwanda', async () => {
    const page = await transferForm('USD_XAF');
    const phone = page.getByLabel('Recipient phone number');
    await expect.poll(() => operatorHint(page).textContent()).toMatch(/^Airtel Money Gabon number, e\.g\./);
    await phone.fill('077');
    await expect.poll(() => operatorHint(page).textContent()).toBe('Operator: Airtel Gabon');
    await phone.fill('+241 74 12 34 56');
    await expect.poll(() => operatorHint(page).textContent()).toBe('Operator: Airtel Gabon');

    await page.getByLabel('To', { exact: true }).selectOption('mobile_rwanda');
    await phone.fill('0788 123');
    await expect.poll(() => operatorHint(page).textContent()).toBe('Operator: MTN Rwanda');
    await phone.fill('+250 72');
    await expect.poll(() => operatorHint(page).textContent()).toBe('Operator: Airtel Rwanda');
    await page.close();
  });

  it('refuses another operator\'s number with the operators it takes, as typed and on review, in English and French', async () => {
    const page = await transferForm('USD_XAF');
    const phone = page.getByLabel('Recipient phone number');
    const refusal = 'Enter a number from Airtel Gabon (+241 74… or 77…).';
    await phone.fill('+241 76');
    await expect.poll(() => operatorHint(page).textContent()).toBe(refusal);
    await phone.fill('+241 76 12 34 56');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    await page.getByRole('alert').filter({ hasText: refusal }).first().waitFor();
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    await phone.fill('077 12 34 56');
    await expect.poll(() => operatorHint(page).textContent()).toBe('Operator: Airtel Gabon');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    await page.getByRole('heading', { name: 'Review and confirm' }).waitFor();
    await page.close();

    const french = await transferForm('EUR_RWF', 'fr-FR');
    await french.getByLabel('Numéro de téléphone du bénéficiaire').fill('+250 71 123 4567');
    await expect.poll(() => operatorHint(french).textContent())
      .toBe('Saisissez un numéro Airtel Rwanda ou MTN Rwanda (+250 72…, 73…, 78… ou 79…).');
    await french.close();
  });
});

describe('the Operators tab of the back office', () => {
  it('lists the ranges on a 360 px phone without sideways scrolling, with no serious axe violation', async () => {
    const page = await app.signedInPage(BOOTSTRAP_ADMIN, { width: 360 });
    await page.goto(`${app.server.url}/admin?tab=operators`);
    await page.getByRole('heading', { name: "Mobile operators' numbers" }).waitFor();
    await page.getByTestId('ranges-airtel_gabon').getByText('+241 77…').waitFor();
    expect(await page.getByTestId('ranges-mobile_rwanda').getByTestId('range-row').count()).toBe(4);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('adds a range the transfer form then accepts, and deletes it after asking in the app\'s dialog', async () => {
    const admin = await app.signedInPage(BOOTSTRAP_ADMIN);
    admin.on('dialog', (dialog) => { throw new Error(`native ${dialog.type()} dialog: ${dialog.message()}`); });
    await admin.goto(`${app.server.url}/admin?tab=operators`);
    const form = admin.getByTestId('range-form');
    await form.getByLabel('Payout to').selectOption('airtel_gabon');
    await form.getByLabel('Operator').fill('Airtel Gabon');
    await form.getByLabel('Prefix').fill('77');
    await form.getByRole('button', { name: 'Add range' }).click();
    await form.getByRole('alert').filter({ hasText: '77 overlaps the range 77 (Airtel Gabon)' }).waitFor();
    await form.getByLabel('Prefix').fill('76');
    await form.getByRole('button', { name: 'Add range' }).click();
    await admin.getByTestId('ranges-airtel_gabon').getByText('+241 76…').waitFor();
    await expect.poll(() => admin.getByTestId('audit-row').first().textContent()).toContain('Operator range added');

    const page = await transferForm('USD_XAF');
    await page.getByLabel('Recipient phone number').fill('+241 76 12 34 56');
    await expect.poll(() => operatorHint(page).textContent()).toBe('Operator: Airtel Gabon');
    await page.close();

    await admin.getByRole('button', { name: 'Delete +241 76… (Airtel Gabon)' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Delete this range?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => admin.getByTestId('ranges-airtel_gabon').getByText('+241 76…').count()).toBe(0);
    await admin.close();
  });
});
