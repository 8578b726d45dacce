import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PNG, useE2eApp, valueOf } from './support/fixtures.js';
import { shot } from './support/screenshots.js';
import { pdfText } from '../support/pdf-text.js';

const app = useE2eApp({ smtp: true });
let page: Page;

const SENDER = { email: 'awa@example.test', password: 'Sunny-Libreville-42', full_name: 'Awa Sender' };

beforeAll(async () => {
  await app.senderExists(SENDER);
  page = await app.page();
});

describe('sending money in Chromium', () => {
  let reference = '';

  it('a signed-in sender gets a quote on the home page and takes it to the transfer screen', async () => {
    await app.signIn(page, SENDER);

    await page.goto(app.server.url);
    const calculator = page.getByRole('region', { name: 'How much are you sending?' });
    await calculator.getByLabel('You send (USD)').fill('150');
    await expect.poll(() => valueOf(calculator, 'Fee')).toBe('$5.85');
    expect(await valueOf(calculator, 'Total to pay')).toBe('$155.85');
    await calculator.getByRole('link', { name: 'Send money' }).click();
    await page.waitForURL(/\/transfer\?direction=USD_XAF&amount=150\.00$/);
    // The calculator's own "You send" box may still be on the screen for a moment: the form's is filled with the amount.
    await expect.poll(() => page.getByRole('textbox', { name: 'You send (USD)', exact: true }).inputValue()).toBe('150.00');
    await expect.poll(() => valueOf(page, 'Fee')).toBe('$5.85');
    expect(await valueOf(page, 'Total to pay')).toBe('$155.85');
    expect(await valueOf(page, 'Recipient gets')).toMatch(/91,500/);
  });

  it('checks the recipient one rule at a time (present, then valid), then creates the transfer and opens its payment page', async () => {
    const notOffered = page.getByLabel('To', { exact: true }).getByRole('option', { name: 'PayPal (EUR) (not available)' });
    expect(await notOffered.isDisabled()).toBe(true);
    const review = page.getByRole('button', { name: 'Review transfer' });
    await review.click();
    await page.getByText('Please enter recipient phone number.').first().waitFor();
    await page.getByLabel('Recipient phone number').fill('06 12 34 56');
    await review.click();
    await page.getByText('Enter a number from Airtel Gabon (+241 74… or 77…).').first().waitFor();
    await page.getByLabel('Recipient phone number').fill('077 12 34 56');
    await page.getByLabel('Recipient name (optional)').fill('Marie Nguema');
    await page.getByLabel('Notes (optional)').fill('School fees');
    await shot(page, 'transfer-form');
    await review.click();
    await page.getByRole('heading', { name: 'Review and confirm' }).waitFor();
    expect(await valueOf(page, 'Recipient')).toBe('Marie Nguema · +241 77 12 34 56 (Airtel Gabon)');
    await shot(page, 'transfer-review');
    await page.getByRole('button', { name: 'Confirm and pay $155.85' }).click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    await expect.poll(() => valueOf(page, 'Amount to pay')).toBe('$155.85');
    reference = (await valueOf(page, 'Reference')) ?? '';
    expect(reference).toMatch(/^MT-/);
    // "Where to pay": the instructions, then the reminder to quote the reference.
    const [instructions, reminder] = ((await valueOf(page, 'Where to pay')) ?? '').split('\n');
    expect(instructions).toMatch(/PayPal/);
    expect(reminder).toBe(`Quote the reference ${reference} with your payment.`);
    await app.smtp.waitFor(SENDER.email, new RegExp(`Transfer ${reference} created`));
  });

  it('says under the file field what is wrong with a proof, before and after sending it', async () => {
    const file = page.getByLabel('Screenshot or receipt');
    const upload = page.getByRole('button', { name: 'Upload proof' });
    const fieldError = (text: string) => page.getByRole('alert').filter({ hasText: text });
    const wrongType = 'The file must be a PNG, JPEG or WebP image or a PDF document.';
    await upload.click();
    await fieldError('Choose a file to upload.').waitFor();
    expect(await file.getAttribute('aria-invalid')).toBe('true');
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a receipt') });
    expect(await file.getAttribute('aria-invalid')).toBeNull();
    await upload.click();
    await fieldError(wrongType).waitFor();
    // A file that only says it is a PNG: the server reads its bytes, and its refusal shows in the same place.
    await file.setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: Buffer.from('not really a PNG') });
    expect(await fieldError(wrongType).count()).toBe(0);
    await upload.click();
    await fieldError(wrongType).waitFor();
    expect(await file.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('We have your proof of payment.').count()).toBe(0);
  });

  it('uploads a proof of payment with a clear result', async () => {
    await page.getByLabel('Screenshot or receipt').setInputFiles({ name: 'paypal-receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Upload proof' }).click();
    await page.getByRole('status').filter({ hasText: 'Proof uploaded' }).waitFor();
    await page.getByText('We have your proof of payment.').waitFor();
    await shot(page, 'payment');
  });

  it('sees the transfer on the dashboard and in the history with its timeline', async () => {
    await page.goto(`${app.server.url}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome, Awa Sender' }).waitFor();
    await page.getByRole('list', { name: 'Recent transactions' }).getByText(reference, { exact: false }).waitFor();
    await page.getByRole('list', { name: 'Open requests' }).getByText('PayPal (USD) → Airtel Money Gabon').waitFor();
    await shot(page, 'dashboard');

    await page.goto(`${app.server.url}/history`);
    const row = page.getByRole('row').filter({ hasText: 'Marie Nguema' });
    await row.waitFor();
    await page.getByText('1 transaction shown', { exact: true }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('99.99');
    await page.getByText('0 transactions shown', { exact: true }).waitFor();
    await search.fill('150');
    await page.getByText('1 transaction shown', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Details of ${reference}` }).click();
    await page.getByRole('dialog').getByRole('region', { name: 'Timeline' }).getByText('Pending').waitFor();
    await shot(page, 'history-details');
    await page.keyboard.press('Escape');
  });

  it('downloads a PDF receipt named after its reference, with the transaction id, amounts as shown and the recipient', async () => {
    const row = page.getByRole('row').filter({ hasText: 'Marie Nguema' });
    // Not completed yet: a statement (only a completed transfer has a receipt).
    const receipt = row.getByRole('button', { name: `Download the statement of ${reference} (not a receipt: the transfer is not completed)` });
    const [download] = await Promise.all([page.waitForEvent('download'), receipt.click()]);
    expect(download.suggestedFilename()).toBe(`${reference}.pdf`);
    const text = await pdfText(await readFile((await download.path())!));
    expect(text).toMatch(/Transaction ID: [0-9a-f-]{36}/);
    expect(text).toContain(reference);
    expect(text).toContain('$150.00');
    expect(text).toContain('$5.85');
    expect(text).toContain('$155.85');
    expect(text).toContain('FCFA 91,500');
    expect(text).toContain('Marie Nguema');
    expect(text).toContain('+241 77 12 34 56');
  });
});
