import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpListener } from '../support/smtp-listener.js';
import { launchBrowser, newPage } from './support/browser.js';
import { startBuiltServer, type E2eServer } from './support/server.js';

let server: E2eServer;
let browser: Browser;
let smtp: SmtpListener;
let page: Page;

const SENDER = { email: 'awa@example.test', password: 'Sunny-Libreville-42', full_name: 'Awa Sender' };
// 1x1 PNG, sent by its real bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3e3a1f90000000049454e44ae426082', 'hex');

/** Optional screenshots for reviewers: SCREENSHOT_DIR=/tmp/shots. */
async function shot(name: string) {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

async function call<T>(method: string, urlPath: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${server.url}${urlPath}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json() as T;
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function pdfText(file: Buffer): Promise<string> {
  // pdf-parse ships no types; its library entry avoids the package's debug self-test.
  const modulePath = 'pdf-parse/lib/pdf-parse.js';
  const { default: parse } = await import(modulePath) as { default: (b: Buffer) => Promise<{ text: string }> };
  return (await parse(file)).text;
}

beforeAll(async () => {
  smtp = await new SmtpListener().start();
  [server, browser] = await Promise.all([startBuiltServer({ SMTP_URL: smtp.url }), launchBrowser()]);
  await call('POST', '/api/auth/register', { ...SENDER, phone: '+24177000000', city: 'Libreville', country: 'GA' });
  await call('POST', '/api/auth/verify-otp', { email: SENDER.email, otp: await smtp.codeFor(SENDER.email) });
  page = await newPage(browser);
});
afterAll(async () => { await browser?.close(); await server?.stop(); await smtp?.stop(); });

describe('sending money in Chromium', () => {
  let reference = '';

  it('a signed-in sender gets a quote on the home page and takes it to the transfer screen', async () => {
    await page.goto(`${server.url}/login`);
    await page.locator('input[type="email"]').fill(SENDER.email);
    await page.locator('input[type="password"]').fill(SENDER.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname !== '/login');

    await page.goto(server.url);
    await page.getByTestId('calculator-amount').fill('150');
    await expect.poll(() => page.getByTestId('calc-fee').textContent()).toBe('$5.85');
    expect(await page.getByTestId('calc-total').textContent()).toBe('$155.85');
    await page.getByTestId('calculator-send').click();
    await page.waitForURL(/\/transfer\?direction=USD_XAF&amount=150\.00$/);
    expect(await page.getByTestId('transfer-amount').inputValue()).toBe('150.00');
    await expect.poll(() => page.getByTestId('summary-fee').textContent()).toBe('$5.85');
    expect(await page.getByTestId('summary-total').textContent()).toBe('$155.85');
    expect(await page.getByTestId('summary-payout').textContent()).toMatch(/91,500/);
  });

  it('checks the recipient in the spec’s order, then creates the transfer and opens its payment page', async () => {
    const destination = page.getByTestId('transfer-destination');
    expect(await destination.locator('option[value="paypal_eur"]').isDisabled()).toBe(true);
    expect(await destination.locator('option[value="paypal_eur"]').textContent()).toMatch(/not available/);
    await page.getByTestId('transfer-review').click();
    await page.getByText('Please enter recipient phone number.').first().waitFor();
    await page.getByLabel('Recipient phone number').fill('06 12 34 5');
    await page.getByTestId('transfer-review').click();
    await page.getByText('Enter a valid Airtel Money Gabon phone number.').first().waitFor();
    await page.getByLabel('Recipient phone number').fill('06 12 34 56');
    await page.getByLabel('Recipient name (optional)').fill('Marie Nguema');
    await page.getByLabel('Notes (optional)').fill('School fees');
    await shot('transfer-form');
    await page.getByTestId('transfer-review').click();
    expect(await page.getByTestId('review-recipient').textContent()).toBe('Marie Nguema · 06 12 34 56');
    await shot('transfer-review');
    await page.getByTestId('transfer-confirm').click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId('pay-total').textContent()).toBe('$155.85');
    reference = (await page.getByTestId('pay-reference').textContent()) ?? '';
    expect(reference).toMatch(/^MT-/);
    expect(await page.getByTestId('pay-instructions').textContent()).toMatch(/PayPal/);
    await smtp.waitFor(SENDER.email, new RegExp(`Transfer ${reference} created`));
  });

  it('uploads a proof of payment with a clear result', async () => {
    await page.getByTestId('pay-file').setInputFiles({ name: 'paypal-receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('pay-upload').click();
    await expect.poll(() => page.getByTestId('pay-result').textContent()).toMatch(/Proof uploaded/);
    await page.getByTestId('pay-has-proof').waitFor();
    await shot('payment');
  });

  it('sees the transfer on the dashboard and in the history with its timeline', async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('heading', { name: 'Welcome, Awa Sender' }).waitFor();
    await page.getByTestId('dashboard-recent').getByText(reference, { exact: false }).waitFor();
    await page.getByTestId('dashboard-open').getByText('PayPal (USD) → Airtel Money Gabon').waitFor();
    await shot('dashboard');

    await page.goto(`${server.url}/history`);
    const row = page.getByTestId('history-row').filter({ hasText: 'Marie Nguema' });
    await row.waitFor();
    expect(await page.getByTestId('history-count').textContent()).toBe('1 transaction shown');
    await page.getByTestId('history-search').fill('155.85');
    await expect.poll(() => page.getByTestId('history-count').textContent()).toBe('0 transactions shown');
    await page.getByTestId('history-search').fill('150');
    await expect.poll(() => page.getByTestId('history-count').textContent()).toBe('1 transaction shown');
    await row.getByRole('button', { name: `Details of ${reference}` }).click();
    await page.getByTestId('timeline').getByText('Pending').waitFor();
    await shot('history-details');
    await page.keyboard.press('Escape');
  });

  it('downloads a PDF receipt named after the transaction, with its id, amounts and recipient', async () => {
    const row = page.getByTestId('history-row').filter({ hasText: 'Marie Nguema' });
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('history-receipt').click()]);
    const transactionId = download.suggestedFilename().replace(/\.pdf$/, '');
    expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);
    const text = await pdfText(await readFile((await download.path())!));
    expect(text).toContain(transactionId);
    expect(text).toContain(reference);
    expect(text).toContain('150.00 USD');
    expect(text).toContain('5.85 USD');
    expect(text).toContain('155.85 USD');
    expect(text).toContain('91500 XAF');
    expect(text).toContain('Marie Nguema');
    expect(text).toContain('+24106123456');
  });
});
