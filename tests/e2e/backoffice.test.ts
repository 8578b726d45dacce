import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PNG, useE2eApp, valueOf } from './support/fixtures.js';
import { pdfText } from '../support/pdf-text.js';

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'sender@example.test', password: 'Sandra-Sends-Money-1', full_name: 'Sandra Sender' };
const MANAGER = { email: 'manager@example.test', password: 'Marc-Approves-Things-2', full_name: 'Marc Manager' };

/** The back-office queue, and one request in it. */
const queue = (page: Page) => page.getByRole('list', { name: 'Transfer requests' }).getByRole('listitem');
const row = (page: Page, reference: string) => queue(page).filter({ hasText: reference });

describe('the back office in Chromium', () => {
  let reference = '';
  let transferId = '';

  it('a sender creates a transfer on the transfer screen and uploads a proof of payment', async () => {
    await app.senderExists(SENDER);
    const page = await app.page();
    await app.signIn(page, SENDER);
    await page.goto(`${app.server.url}/transfer?direction=USD_XAF&amount=100`);
    await page.getByLabel('Recipient phone number').fill('077 12 34 56');
    await page.getByLabel('Recipient name (optional)').fill('Marie Nguema');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    await page.getByRole('button', { name: /^Confirm and pay / }).click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    transferId = new URL(page.url()).pathname.split('/').pop()!;
    await expect.poll(() => valueOf(page, 'Reference')).toMatch(/^MT-/);
    reference = (await valueOf(page, 'Reference'))!;
    await page.getByLabel('Screenshot or receipt').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Upload proof' }).click();
    await page.getByText('We have your proof of payment.').waitFor();
  });

  it('a manager marks it processing and sees no users, fees or rates tabs', async () => {
    const page = await app.staffSignedIn('manager', MANAGER);
    await page.goto(`${app.server.url}/admin`);
    await row(page, reference).waitFor();
    // A manager's tabs: the queue, identity reviews, compliance and the payouts that need a person; never the admin's.
    expect(await page.getByRole('tab').allInnerTexts()).toEqual(['Requests', 'Verification', 'Compliance', 'Payouts']);
    for (const name of ['Users', 'Fees', 'Rates', 'Volume']) expect(await page.getByRole('tab', { name }).count()).toBe(0);
    const stats = page.getByRole('region', { name: 'Transfer requests by status' });
    expect(await stats.getByText('Registered users').count()).toBe(0);
    expect(await stats.getByRole('listitem').filter({ hasText: 'Pending' }).textContent()).toContain('1');

    await row(page, reference).getByRole('button', { name: 'Process' }).click();
    await page.getByText('Status updated to processing successfully!').waitFor();
    // Processing, it is not offered again (no greyed button).
    await expect.poll(() => row(page, reference).getByRole('button', { name: 'Process' }).count()).toBe(0);
    expect(await row(page, reference).textContent()).toContain('Processing');
    // The server refuses the admin's calls to a manager even by hand.
    const token = await page.evaluate(() => localStorage.getItem('auth_token'));
    const res = await fetch(`${app.server.url}/api/fees`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
  });

  it('an admin records the payment and the payout with its reference, then completes it, through the details dialog', async () => {
    const page = await app.staffSignedIn('admin');
    await page.goto(`${app.server.url}/admin`);
    for (const name of ['Requests', 'Users', 'Fees', 'Rates', 'Volume']) await page.getByRole('tab', { name }).waitFor();
    // Queue work from the keyboard: search by reference, Enter; the filter stays through actions and refreshes.
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill(reference);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('q') === reference);
    await expect.poll(() => queue(page).count()).toBe(1);
    // Complete waits for the payment received and the payout sent, recorded in the details.
    expect(await row(page, reference).getByRole('button', { name: 'Completed' }).isDisabled()).toBe(true);
    await row(page, reference).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Marie Nguema').waitFor();
    const proof = dialog.getByRole('img', { name: 'Proof of payment uploaded by the sender' });
    await proof.waitFor();
    await expect.poll(() => proof.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await dialog.getByText(/^Uploaded .+ · /).waitFor();
    const statusHistory = dialog.getByRole('region', { name: 'Status history' });
    await statusHistory.getByText('Pending → Processing').waitFor();
    expect(await dialog.getByRole('button', { name: 'Mark completed' }).isDisabled()).toBe(true);
    const payment = dialog.getByRole('form', { name: 'Record payment' });
    await payment.getByLabel('Statement reference').fill('STMT-0001');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment recorded').first().waitFor();
    // A payout is recorded with its reference: without one, nothing is sent.
    const payout = dialog.getByRole('form', { name: 'Record payout' });
    await payout.getByRole('button', { name: 'Record payout' }).click();
    await payout.getByRole('alert').filter({ hasText: "Enter the operator's or bank's reference of the payout." }).waitFor();
    expect(await payout.getByLabel('Payout reference').getAttribute('aria-invalid')).toBe('true');
    await payout.getByLabel('Payout reference').fill('AIRTEL-778899');
    await payout.getByRole('button', { name: 'Record payout' }).click();
    await page.getByText('Payout recorded').first().waitFor();
    await dialog.getByRole('textbox', { name: 'Note', exact: true }).fill('Paid out by Airtel Money');
    await dialog.getByRole('button', { name: 'Mark completed' }).click();
    await page.getByText('Status updated to completed successfully!').waitFor();
    await statusHistory.getByText('Processing → Completed').waitFor();
    expect(await dialog.getByRole('button', { name: 'Mark completed' }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => row(page, reference).textContent()).toContain('Completed');
    expect(new URL(page.url()).searchParams.get('q')).toBe(reference);
    expect(await search.inputValue()).toBe(reference);
  });

  it('the sender sees "completed", the timeline and the payout reference on the receipt', async () => {
    await app.transferMail(SENDER.email, /completed/i);
    const page = await app.signedInPage(SENDER);
    await page.goto(`${app.server.url}/history`);
    // The history shows no reference column: its row is the one whose buttons name it.
    const details = page.getByRole('button', { name: `Details of ${reference}` });
    const line = page.getByRole('row').filter({ has: details });
    await line.getByText('Delivered', { exact: true }).waitFor();
    await details.click();
    const timeline = page.getByRole('dialog').getByRole('region', { name: 'Timeline' });
    for (const status of ['Pending', 'Processing', 'Completed']) await timeline.getByText(status, { exact: true }).first().waitFor();
    await timeline.getByText('Paid out by Airtel Money').waitFor();
    await page.getByRole('dialog').getByText('AIRTEL-778899').waitFor();
    await page.keyboard.press('Escape');

    const receipt = line.getByRole('button', { name: `Download the receipt of ${reference}` });
    const [download] = await Promise.all([page.waitForEvent('download'), receipt.click()]);
    const text = await pdfText(await readFile((await download.path())!));
    expect(text).toContain('AIRTEL-778899');
    expect(text).toMatch(/completed/i);
    expect(transferId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an admin edits a fee tier as a percent; the API holds the fraction', async () => {
    const page = await app.staffSignedIn('admin');
    await page.goto(`${app.server.url}/admin`);
    await page.getByRole('tab', { name: 'Fees' }).click();
    await page.getByRole('row').filter({ hasText: '4.5 %' }).getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByLabel('Fee (%)').inputValue()).toBe('4.5');
    await page.getByLabel('Fee (%)').fill('4.4');
    // The tier's form: the tab also holds the four-eyes thresholds' forms.
    await page.getByRole('form').filter({ has: page.getByLabel('Fee (%)') }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('row').filter({ hasText: '4.4 %' }).waitFor();
    const { data } = await app.api<{ data: { direction: string; percentage: string }[] }>('GET', '/api/fees');
    expect(data.filter((tier) => tier.direction === 'USD_XAF').map((tier) => tier.percentage)).toEqual(['0.044000', '0.039000', '0.032000']);
  });
});
