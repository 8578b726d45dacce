import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpListener } from '../support/smtp-listener.js';
import { launchBrowser, newPage } from './support/browser.js';
import { startBuiltServer, type E2eServer } from './support/server.js';

let server: E2eServer;
let browser: Browser;
let smtp: SmtpListener;

/** A 1×1 PNG: the proof of payment the sender uploads. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3e3a1f90000000049454e44ae426082', 'hex');

const ADMIN = { email: 'admin@example.test', password: 'Bootstrap-Staff-Key-1' };
const SENDER = { email: 'sender@example.test', password: 'Sandra-Sends-Money-1', full_name: 'Sandra Sender' };
const MANAGER = { email: 'manager@example.test', password: 'Marc-Approves-Things-2', full_name: 'Marc Manager' };

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json() as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Registration as the API contract has it: the form, then the e-mailed code. */
async function register(account: typeof SENDER): Promise<string> {
  await call('POST', '/api/auth/register', { ...account, phone: '+24177000000', city: 'Libreville', country: 'GA' });
  const code = await smtp.codeFor(account.email);
  return (await call<{ token: string }>('POST', '/api/auth/verify-otp', { email: account.email, otp: code })).token;
}

/** Sign-in through the login page (e-mail, password, submit). */
async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto(`${server.url}/login`);
  await page.locator('input[type="email"]').fill(account.email);
  await page.locator('input[type="password"]').fill(account.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname !== '/login');
}

async function pdfText(file: Buffer): Promise<string> {
  // pdf-parse ships no types; its library entry avoids the package's debug self-test.
  const modulePath = 'pdf-parse/lib/pdf-parse.js';
  const { default: parse } = await import(modulePath) as { default: (b: Buffer) => Promise<{ text: string }> };
  return (await parse(file)).text;
}

const row = (page: Page, reference: string) => page.getByTestId('request-row').filter({ hasText: reference });

beforeAll(async () => {
  smtp = await new SmtpListener().start();
  [server, browser] = await Promise.all([startBuiltServer({ SMTP_URL: smtp.url }), launchBrowser()]);
});
afterAll(async () => { await browser?.close(); await server?.stop(); await smtp?.stop(); });

describe('the back office in Chromium', () => {
  let reference = '';
  let transferId = '';

  it('a sender creates a transfer on the transfer screen and uploads a proof of payment', async () => {
    await register(SENDER);
    const page = await newPage(browser);
    await signIn(page, SENDER);
    await page.goto(`${server.url}/transfer?direction=USD_XAF&amount=100`);
    await page.getByLabel('Recipient phone number').fill('06 12 34 56');
    await page.getByLabel('Recipient name (optional)').fill('Marie Nguema');
    await page.getByTestId('transfer-review').click();
    await page.getByTestId('transfer-confirm').click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    transferId = new URL(page.url()).pathname.split('/').pop()!;
    reference = (await page.getByTestId('pay-reference').textContent()) ?? '';
    expect(reference).toMatch(/^MT-/);
    await page.getByTestId('pay-file').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('pay-upload').click();
    await page.getByTestId('pay-has-proof').waitFor();
  });

  it('a manager marks it processing and sees no users, fees or rates tabs', async () => {
    await register(MANAGER);
    const admin = await call<{ token: string }>('POST', '/api/auth/login', ADMIN);
    const found = await call<{ data: { id: string }[] }>('GET', `/api/profiles?q=${encodeURIComponent(MANAGER.email)}`, undefined, admin.token);
    await call('PATCH', `/api/profiles/${found.data[0]!.id}`, { role: 'manager' }, admin.token);

    const page = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${server.url}/admin`);
    await row(page, reference).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    for (const name of ['Users', 'Fees', 'Rates', 'Volume']) expect(await page.getByRole('tab', { name }).count()).toBe(0);
    expect(await page.getByTestId('stat-users').count()).toBe(0);
    expect(await page.getByTestId('stat-pending').textContent()).toContain('1');

    await row(page, reference).getByRole('button', { name: 'Process' }).click();
    await page.getByText('Status updated to processing successfully!').waitFor();
    await expect.poll(() => row(page, reference).getByRole('button', { name: 'Process' }).isDisabled()).toBe(true);
    expect(await row(page, reference).textContent()).toContain('Processing');
    // The server refuses the admin's calls to a manager even by hand (D2).
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const res = await fetch(`${server.url}/api/fees`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
  });

  it('an admin completes it with the payout reference, through the details dialog', async () => {
    const page = await newPage(browser);
    await signIn(page, ADMIN);
    await page.goto(`${server.url}/admin`);
    for (const name of ['Requests', 'Users', 'Fees', 'Rates', 'Volume']) await page.getByRole('tab', { name }).waitFor();
    // Queue work from the keyboard: search by reference, Enter; the filter stays through actions and refreshes.
    await page.getByRole('searchbox').first().fill(reference);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === reference);
    await expect.poll(() => page.getByTestId('request-row').count()).toBe(1);
    await row(page, reference).getByRole('button', { name: 'Completed' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Marie Nguema').waitFor();
    const proof = dialog.getByRole('img', { name: 'Proof of payment uploaded by the sender' });
    await proof.waitFor();
    await expect.poll(() => proof.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await dialog.getByText(/^Uploaded .+ · /).waitFor();
    await dialog.getByTestId('status-history').getByText('Pending → Processing').waitFor();
    await dialog.getByLabel('Note').fill('Paid out by Airtel Money');
    await dialog.getByLabel('Payout reference').fill('AIRTEL-778899');
    await dialog.getByRole('button', { name: 'Mark completed' }).click();
    await page.getByText('Status updated to completed successfully!').waitFor();
    await dialog.getByTestId('status-history').getByText('Processing → Completed').waitFor();
    expect(await dialog.getByRole('button', { name: 'Mark completed' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => row(page, reference).textContent()).toContain('Completed');
    expect(new URL(page.url()).searchParams.get('q')).toBe(reference);
    expect(await page.getByRole('searchbox').first().inputValue()).toBe(reference);
  });

  it('the sender sees "completed", the timeline and the payout reference on the receipt', async () => {
    await smtp.waitFor(SENDER.email, /completed/i);
    const page = await newPage(browser);
    await signIn(page, SENDER);
    await page.goto(`${server.url}/history`);
    const line = page.locator(`[data-testid="history-row"][data-reference="${reference}"]`);
    await line.getByText('Completed').waitFor();
    await line.getByRole('button', { name: `Details of ${reference}` }).click();
    const timeline = page.getByTestId('timeline');
    for (const status of ['Pending', 'Processing', 'Completed']) await timeline.getByText(status, { exact: true }).first().waitFor();
    await timeline.getByText('Paid out by Airtel Money').waitFor();
    await page.getByRole('dialog').getByText('AIRTEL-778899').waitFor();
    await page.keyboard.press('Escape');

    const [download] = await Promise.all([page.waitForEvent('download'), line.getByTestId('history-receipt').click()]);
    const text = await pdfText(await readFile((await download.path())!));
    expect(text).toContain('AIRTEL-778899');
    expect(text).toMatch(/completed/i);
    expect(transferId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an admin edits a fee tier as a percent; the API holds the fraction', async () => {
    const page = await newPage(browser);
    await signIn(page, ADMIN);
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Fees' }).click();
    await page.getByRole('row').filter({ hasText: '4.5 %' }).getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('Fee (%)').inputValue()).toBe('4.5');
    await page.getByLabel('Fee (%)').fill('4.4');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row').filter({ hasText: '4.4 %' }).waitFor();
    const { data } = await call<{ data: { direction: string; percentage: string; min_amount: string }[] }>('GET', '/api/fees');
    expect(data.filter((tier) => tier.direction === 'USD_XAF').map((tier) => tier.percentage)).toEqual(['0.044000', '0.039000', '0.032000']);
  });
});
