import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PNG, useE2eApp, valueOf } from './support/fixtures.js';
import { shot } from './support/screenshots.js';
import { pdfText } from '../support/pdf-text.js';

// The books in Chromium (docs/rules/money-states.md): a sender pays by hand and uploads a
// proof; staff record the payment, process, record the payout and complete; the sender sees the
// payment received, the payout and its reference, on screen and on the receipt.

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'books-sender@example.test', password: 'Paid-By-Hand-2026', full_name: 'Brigitte Books' };
const MANAGER = { email: 'books-manager@example.test', password: 'Keeps-The-Books-7', full_name: 'Moussa Manager' };
const STATEMENT_REFERENCE = 'AIRTEL-IN-20260042';
const PAYOUT_REFERENCE = 'PAYPAL-OUT-7788';
const PHONE = 390;

/** The sender's receipt (completed) or statement (any other) of one history row, as text. */
async function receiptText(page: Page, line: Locator, reference: string, kind: 'receipt' | 'statement' = 'receipt'): Promise<string> {
  const button = line.getByRole('button', { name: kind === 'receipt' ? `Download the receipt of ${reference}` : `Download the statement of ${reference} (not a receipt: the transfer is not completed)` });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return pdfText(await readFile((await download.path())!));
}

/** A control is on screen, inside the viewport's width, and enabled: usable on a phone. */
async function usable(page: Page, control: Locator) {
  await control.scrollIntoViewIfNeeded();
  const box = (await control.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  expect(await control.isEnabled()).toBe(true);
}

const queue = (page: Page) => page.getByRole('list', { name: 'Transfer requests' }).getByRole('listitem');
const row = (page: Page, reference: string) => queue(page).filter({ hasText: reference });

describe('the books in Chromium', () => {
  let reference = '';
  let total = '';

  it('a sender pays an Airtel Money transfer by hand: the payment page shows it awaited, the receipt says "Total to pay"', async () => {
    await app.senderExists(SENDER);
    const page = await app.signedInPage(SENDER);
    await page.goto(`${app.server.url}/transfer?direction=XAF_USD&amount=60000`);
    await page.getByLabel("Recipient's PayPal email").fill('jean.paypal@example.test');
    await page.getByLabel('Recipient account name').fill('Jean Mba');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    await page.getByRole('button', { name: /^Confirm and pay / }).click();
    await page.waitForURL(/\/pay\/[0-9a-f-]{36}$/);
    await expect.poll(() => valueOf(page, 'Reference')).toMatch(/^MT-/);
    reference = (await valueOf(page, 'Reference'))!;
    total = (await valueOf(page, 'Amount to pay'))!;
    expect(total).toMatch(/XAF|FCFA/);
    expect(await valueOf(page, 'Status')).toBe('Waiting for your payment');
    await page.getByLabel('Screenshot or receipt').setInputFiles({ name: 'airtel-receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Upload proof' }).click();
    await page.getByText('We have your proof of payment.').waitFor();

    await page.goto(`${app.server.url}/history`);
    const line = page.getByRole('row').filter({ has: page.getByRole('button', { name: `Details of ${reference}` }) });
    // A proof is in: never "awaiting payment" on screen again.
    await line.getByText("Proof received — we're checking your payment").waitFor();
    const text = await receiptText(page, line, reference, 'statement');
    expect(text).toContain('This is not a receipt');
    expect(text).toContain('Total to pay');
    expect(text).not.toContain('Total paid');
    expect(text).toContain('Awaiting payment');
    expect(text).toContain('Not paid out yet');
  });

  it('a manager on a phone records the payment with the total, processes, records the payout and completes', async () => {
    await (await app.staffSignedIn('manager', MANAGER)).context().close();
    const page = await app.page({ width: PHONE });
    await app.signIn(page, MANAGER);
    await page.goto(`${app.server.url}/admin`);
    // The queue filters on the payment state (folded behind one control on a phone); the row shows its payment and payout.
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('combobox', { name: 'Payment' }).selectOption({ label: 'Awaiting payment' });
    await page.waitForURL((url) => url.searchParams.get('payment') === 'awaiting');
    const money = row(page, reference).getByRole('definition');
    await expect.poll(() => money.allTextContents()).toEqual(['Awaiting payment', 'Not sent']);
    // The row offers the money step the transfer waits for; it opens the details at its form.
    await row(page, reference).getByRole('button', { name: 'Record payment' }).click();

    const dialog = page.getByRole('dialog');
    const complete = dialog.getByRole('button', { name: 'Mark completed' });
    await dialog.getByText('The transfer cannot be completed: the payment is not received and the payout is not sent.').waitFor();
    expect(await complete.isDisabled()).toBe(true);
    // Only what the state allows: the payment can be recorded, the payout and refund not yet.
    expect(await dialog.getByRole('form', { name: 'Record payout' }).count()).toBe(0);
    expect(await dialog.getByRole('form', { name: 'Record refund' }).count()).toBe(0);

    const payment = dialog.getByRole('form', { name: 'Record payment' });
    const amount = payment.getByLabel('Amount received');
    // Prefilled with the total due, the same number the sender was asked to pay.
    expect((await amount.inputValue()).replace(/\D/g, '')).toBe(total.replace(/\D/g, ''));
    const record = payment.getByRole('button', { name: 'Record payment' });
    await usable(page, amount);
    await usable(page, record);
    await record.click();
    await payment.getByText('Enter the reference of the payment on your statement.').waitFor();
    await payment.getByLabel('Statement reference').fill(STATEMENT_REFERENCE);
    await shot(page, 'books-staff-dialog-phone');
    await record.click();
    await page.getByText('Payment recorded').first().waitFor();

    const paymentBox = dialog.getByRole('region', { name: 'Payment' });
    await expect.poll(() => valueOf(paymentBox, 'State')).toBe('Received');
    expect(await valueOf(paymentBox, 'Statement reference')).toBe(STATEMENT_REFERENCE);
    expect(await valueOf(paymentBox, 'Received')).toBe(await valueOf(paymentBox, 'Total due'));
    expect(await dialog.getByRole('form', { name: 'Record payment' }).count()).toBe(0);
    await dialog.getByText('The transfer cannot be completed: the payout is not sent.').waitFor();

    const process = dialog.getByRole('button', { name: 'Process' });
    await usable(page, process);
    await process.click();
    await page.getByText('Status updated to processing successfully!').waitFor();

    const payout = dialog.getByRole('form', { name: 'Record payout' });
    await usable(page, payout.getByLabel('Payout reference'));
    await payout.getByLabel('Payout reference').fill(PAYOUT_REFERENCE);
    await shot(page, 'books-staff-dialog-payout-phone');
    await payout.getByRole('button', { name: 'Record payout' }).click();
    await page.getByText('Payout recorded').first().waitFor();
    const payoutBox = dialog.getByRole('region', { name: 'Payout' });
    await expect.poll(() => valueOf(payoutBox, 'State')).toBe('Sent');
    expect(await valueOf(payoutBox, 'Reference')).toBe(PAYOUT_REFERENCE);
    // Once paid out it can no longer be rejected; it can be completed.
    await dialog.getByText('The payout of this transfer was sent: it can no longer be rejected.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);

    await usable(page, complete);
    await complete.click();
    await page.getByText('Status updated to completed successfully!').waitFor();
    const history = dialog.getByRole('region', { name: 'Status history' });
    for (const step of ['Pending → Processing', 'Processing → Completed', 'Payment received', 'Payout sent']) await history.getByText(step).waitFor();
    await shot(page, 'books-staff-dialog-done-phone');
    await page.keyboard.press('Escape');
  });

  it('staff see the refusal beside the action when someone else recorded the money first', async () => {
    const senderToken = await app.tokenFor(SENDER);
    const other = await app.transferExists(senderToken, { amount: '20' });
    const page = await app.page();
    await app.signIn(page, MANAGER);
    // The colleague's session: this one's (a second sign-in would wait for another two-step code).
    const managerToken = (await page.evaluate(() => localStorage.getItem('auth_token')))!;
    await page.goto(`${app.server.url}/admin?q=${other.reference}`);
    await row(page, other.reference).getByRole('button', { name: 'Details' }).click();
    const payment = page.getByRole('dialog').getByRole('form', { name: 'Record payment' });
    await payment.getByLabel('Statement reference').fill('STMT-LATE');
    // A colleague records it meanwhile.
    await app.api('POST', `/api/transfer-requests/${other.id}/payment`, { amount: '20.00', reference: 'STMT-FIRST' }, managerToken);
    await payment.getByRole('button', { name: 'Record payment' }).click();
    // The refusal stays beside the action, while the dialog reloads without the form.
    const paymentBox = page.getByRole('dialog').getByRole('region', { name: 'Payment' });
    await paymentBox.getByRole('alert').filter({ hasText: 'The payment of this transfer is already recorded.' }).waitFor();
    // The dialog reloads: what the colleague recorded, flagged (20.00 is less than the total due).
    await expect.poll(() => valueOf(paymentBox, 'Statement reference')).toBe('STMT-FIRST');
    expect(await paymentBox.getByText('Amount differs').count()).toBe(1);
  });

  it('the sender sees "Payment received", "Paid out" and the payout reference, and a receipt that says so', async () => {
    const page = await app.signedInPage(SENDER, { width: PHONE });
    await page.goto(`${app.server.url}/history`);
    const details = page.getByRole('button', { name: `Details of ${reference}` });
    const line = page.getByRole('row').filter({ has: details });
    await line.getByText('Delivered', { exact: true }).waitFor();
    await shot(page, 'books-sender-history-phone');

    await details.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('sender-state').getByText('Delivered', { exact: true }).waitFor();
    expect(await valueOf(dialog, 'Payout reference')).toBe(PAYOUT_REFERENCE);
    expect(await valueOf(dialog, 'Payment reference')).toBe(STATEMENT_REFERENCE);
    const timeline = dialog.getByRole('region', { name: 'Timeline' });
    for (const step of ['Payment received', 'Processing', 'Paid out', 'Completed']) await timeline.getByText(step, { exact: true }).first().waitFor();
    await shot(page, 'books-sender-details-phone');
    await page.keyboard.press('Escape');

    const text = await receiptText(page, line, reference);
    expect(text).toContain('Total paid');
    expect(text).not.toContain('Total to pay');
    expect(text).toContain('Payment received');
    expect(text).toContain(STATEMENT_REFERENCE);
    expect(text).toContain('Paid out');
    expect(text).toContain(PAYOUT_REFERENCE);

    await page.goto(`${app.server.url}/dashboard`);
    const recent = page.getByRole('list', { name: 'Recent transactions' }).getByRole('listitem').filter({ hasText: reference });
    await recent.getByText('Delivered', { exact: true }).waitFor();
  });
});
