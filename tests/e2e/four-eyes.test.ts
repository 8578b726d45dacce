import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, toasts, useE2eApp, valueOf, type TransferRef } from './support/fixtures.js';
import { seriousViolations, withAxe } from './support/axe.js';
import { expectWithinWidth, scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// Four-eyes, the thread and the audit log in the back office (docs/rules/back-office.md,
// four-eyes, notes and audit, the queue on a phone): a manager records the payment of a transfer at the XAF threshold and processes it;
// its payout waits for the approval, which the manager cannot give (the button disabled, and why);
// the admin approves it, the manager pays it out and completes it; staff
// ask the sender for something, the sender sees "Action needed" and answers, the flag clears;
// reject asks its reason in the app's dialog; the admin edits a threshold and reads the audit
// log, filtered and as CSV. Axe on every new screen; the queue at 360 and 390 px.

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'four-eyes-sender@example.test', password: 'Sends-A-Lot-Of-Francs-12', full_name: 'Sylvie Sender' };
const MANAGER = { email: 'four-eyes-manager@example.test', password: 'Processes-But-Not-Alone-4', full_name: 'Moïse Manager' };
const ASK = 'Please upload the Airtel receipt again: the amount is not readable.';
const ANSWER = 'Sent again, the receipt number is AIR-445566.';
/** The bootstrap admin's name, as the server creates the account. */
const ADMIN_NAME = 'Administrator';
const INTERNAL = 'Statement checked by phone with Airtel.';
const REJECT_REASON = 'The payment came from another account holder: send again from your own account.';

let senderToken: string;
let big: TransferRef;
let small: TransferRef;

beforeAll(async () => {
  senderToken = await app.senderExists(SENDER);
  // 650,000 XAF is above the default XAF threshold (600,000); paid by hand, so staff record the payment.
  const initiate = (amount: string) => app.api<{ data: TransferRef }>('POST', '/api/payments/initiate', {
    source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount, currency: 'XAF',
    destination_details: { recipient_name: 'Jean Mboumba', recipient_email: 'jean.mboumba@example.test' },
  }, senderToken);
  ({ data: big } = await initiate('650000'));
  ({ data: small } = await initiate('20000'));
});

/** A page with axe-core in every document, refusing the browser's own dialogs (defect 9). */
async function staffPage(account: { email: string; password: string }, width = 1280): Promise<Page> {
  const page = await app.signedInPage(account, { width });
  await withAxe(page);
  page.on('dialog', (dialog) => { throw new Error(`native ${dialog.type()} dialog: ${dialog.message()}`); });
  return page;
}

/** A toast is on screen and the control, scrolled into view, lies wholly outside it. */
async function expectNotUnderToast(page: Page, control: Locator): Promise<void> {
  const toast = toasts(page).getByTestId('toast').first();
  await toast.waitFor();
  await control.scrollIntoViewIfNeeded();
  const [a, b] = [(await control.boundingBox())!, (await toast.boundingBox())!];
  const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlap, `control ${JSON.stringify(a)} under toast ${JSON.stringify(b)}`).toBe(false);
}

/** A queue card on a phone (docs/rules/back-office.md#staff-queue): amount, sender, recipient, status and actions within the screen, no sideways scroll. */
async function expectCardOnScreen(page: Page, card: Locator, amount: RegExp, status: string, actions: string[]): Promise<void> {
  const parts: [string, Locator][] = [
    ['amount', card.getByText(amount).first()], ['sender', card.getByText(SENDER.full_name)], ['recipient', card.getByText('Jean Mboumba')],
    ['status', card.getByText(status, { exact: true })],
    ...actions.map((name): [string, Locator] => [name, card.getByRole('button', { name, exact: true })]),
  ];
  for (const [label, part] of parts) await expectWithinWidth(page, part, label);
  expect(await scrollWidth(page)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

const queue = (page: Page) => page.getByRole('list', { name: 'Transfer requests' }).getByRole('listitem');
const row = (page: Page, reference: string) => queue(page).filter({ hasText: reference });
const sessionToken = async (page: Page) => (await page.evaluate(() => localStorage.getItem('auth_token')))!;

describe('four-eyes, the thread and "action needed" in the back office', () => {
  it('a manager on a phone records the payment of a large transfer and processes it; the payout waits for an approval the manager cannot give, and says why', async () => {
    await (await app.staffSignedIn('manager', MANAGER)).context().close();
    const page = await staffPage(MANAGER, 390);
    await page.goto(`${app.server.url}/admin`);
    // On a phone the filters are folded behind one control.
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('checkbox', { name: 'Needs approval only' }).check();
    await page.waitForURL((url) => url.searchParams.get('needs_approval') === 'true');
    await expect.poll(() => queue(page).count()).toBe(1);
    const card = row(page, big.reference);
    await card.getByText('Needs approval', { exact: true }).waitFor();
    await expectCardOnScreen(page, card, /650[,\s\u202f]000/, 'Pending', ['Process', 'Reject', 'Approve', 'Record payment', 'Details']);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'four-eyes-queue-phone');

    await card.getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog');
    const payment = dialog.getByRole('form', { name: 'Record payment' });
    await payment.getByLabel('Statement reference').fill('AIRTEL-IN-650');
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment recorded').first().waitFor();
    await dialog.getByRole('button', { name: 'Process' }).click();
    await page.getByText('Status updated to processing successfully!').waitFor();

    // Paid in and processed: the payout waits for a second staff member, and so does completing.
    const waits = dialog.getByTestId('payout-waits');
    await waits.waitFor();
    expect(await waits.textContent()).toBe("The payout waits for a second staff member's approval: it can be recorded once the transfer is approved.");
    expect(await dialog.getByRole('form', { name: 'Record payout' }).count()).toBe(0);
    const complete = dialog.getByRole('button', { name: 'Mark completed' });
    expect(await complete.isDisabled()).toBe(true);
    await expectNotUnderToast(page, complete);
    await expectNotUnderToast(page, dialog.getByRole('button', { name: 'Close', exact: true }));
    const actors = dialog.getByRole('region', { name: 'Who did what' });
    await expect.poll(() => valueOf(actors, 'Processed by')).toBe(MANAGER.full_name);
    expect(await valueOf(actors, 'Payment recorded by')).toBe(MANAGER.full_name);
    expect(await valueOf(actors, 'Approved by')).toBeUndefined();

    // The one who processed it cannot approve it: the button is disabled, with why beside it.
    const approveButton = dialog.getByRole('button', { name: 'Approve' });
    await expect.poll(() => approveButton.isDisabled()).toBe(true);
    const reason = dialog.getByTestId('approve-reason');
    expect(await reason.textContent()).toBe('You processed this transfer: another staff member approves it.');
    expect(await approveButton.getAttribute('aria-describedby')).toBe(await reason.getAttribute('id'));
    await reason.scrollIntoViewIfNeeded();
    expect(await reason.isVisible()).toBe(true);
    // The server agrees: the same call answers 409, and so does recording the payout.
    const again = await app.request<{ error: string; code: string }>('POST', `/api/transfer-requests/${big.id}/approve`, {}, await sessionToken(page));
    expect([again.status, again.json.code]).toEqual([409, 'approval_same_staff']);
    const payout = await app.request<{ code: string }>('POST', `/api/transfer-requests/${big.id}/payout`, { reference: 'TOO-EARLY' }, await sessionToken(page));
    expect([payout.status, payout.json.code]).toEqual([409, 'payout_needs_approval']);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'four-eyes-approve-disabled-phone');
    await page.keyboard.press('Escape');

    // The queue's card says it too.
    await page.getByRole('checkbox', { name: 'Needs approval only' }).uncheck();
    const processed = row(page, big.reference);
    await processed.getByText('Processing', { exact: true }).waitFor();
    expect(await processed.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    expect(await processed.getByTestId('approve-reason').textContent()).toBe('You processed this transfer: another staff member approves it.');
    await expectWithinWidth(page, processed.getByTestId('approve-reason'), 'approve reason');
    expect(await processed.getByRole('button', { name: 'Record payout' }).count()).toBe(0);
    await shot(page, 'four-eyes-queue-approve-disabled-phone');
    await page.context().close();
  });

  it('staff write an internal note and ask the sender for an action; the queue shows it', async () => {
    const page = await staffPage(BOOTSTRAP_ADMIN);
    await page.goto(`${app.server.url}/admin?q=${big.reference}`);
    await row(page, big.reference).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog');
    const thread = dialog.getByRole('region', { name: 'Notes and messages' });
    const form = thread.getByRole('form', { name: 'Write a note' });

    await form.getByRole('textbox', { name: 'Text' }).fill(INTERNAL);
    // Internal by default: nothing asks the sender for an action.
    expect(await form.getByRole('radio', { name: 'Staff only (internal note)' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: /Ask the sender for an action/ }).count()).toBe(0);
    await form.getByRole('button', { name: 'Add internal note' }).click();
    await page.getByText('Note added').first().waitFor();
    const internal = thread.getByTestId('note').filter({ hasText: INTERNAL });
    await internal.getByText('Internal', { exact: true }).waitFor();
    await internal.getByText(ADMIN_NAME, { exact: true }).waitFor();

    await form.getByRole('textbox', { name: 'Text' }).fill(ASK);
    await form.getByRole('radio', { name: 'The sender too (sent by e-mail)' }).check();
    await form.getByRole('checkbox', { name: /Ask the sender for an action/ }).check();
    await form.getByRole('button', { name: 'Send to the sender' }).click();
    await page.getByText('Message sent to the sender').first().waitFor();
    const asked = thread.getByTestId('note').filter({ hasText: ASK });
    await asked.getByText('To the sender', { exact: true }).waitFor();
    await asked.getByText('Action asked', { exact: true }).waitFor();
    await thread.getByText("Action needed: waiting for the sender's answer.").waitFor();
    expect(await form.getByRole('textbox', { name: 'Text' }).inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'four-eyes-dialog-thread');
    await page.keyboard.press('Escape');

    await page.goto(`${app.server.url}/admin?action_needed=true`);
    await row(page, big.reference).getByText('Action needed', { exact: true }).waitFor();
    expect(await queue(page).count()).toBe(1);
    await app.transferMail(SENDER.email, /the amount is not readable/);
    await page.context().close();
  });

  it('the sender sees "Action needed" with the message on the dashboard and history, never the internal note, and answers it', async () => {
    const page = await app.signedInPage(SENDER, { width: 360 });
    await withAxe(page);
    await page.goto(`${app.server.url}/dashboard`);
    const item = page.getByRole('list', { name: 'Action needed' }).getByRole('listitem').filter({ hasText: big.reference });
    await item.getByText(ASK).waitFor();
    await item.getByRole('link', { name: `Reply about ${big.reference}` }).click();
    await page.waitForURL((url) => url.pathname === '/history' && url.searchParams.get('details') === big.id);
    // The details open over the history, which a dialog hides from assistive technology.
    const card = page.getByRole('row', { includeHidden: true }).filter({ has: page.getByRole('button', { name: `Details of ${big.reference}`, includeHidden: true }) });
    await card.getByText('Action needed', { exact: true }).waitFor({ state: 'attached' });
    const thread = page.getByRole('dialog').getByRole('region', { name: 'Messages with our team' });
    await thread.getByText(ASK).first().waitFor();
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(INTERNAL);
    await thread.getByRole('textbox', { name: 'Your message' }).fill(ANSWER);
    await thread.getByRole('button', { name: 'Send message' }).click();
    await thread.getByRole('listitem').filter({ hasText: ANSWER }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => card.getByText('Action needed', { exact: true }).count()).toBe(0);
    await page.context().close();
  });

  it('staff see the answer in the thread and the flag cleared', async () => {
    const page = await staffPage(BOOTSTRAP_ADMIN);
    await page.goto(`${app.server.url}/admin?action_needed=true`);
    await page.getByText('No transfer request matches these filters.').waitFor();
    expect(await queue(page).count()).toBe(0);
    await page.goto(`${app.server.url}/admin?q=${big.reference}`);
    expect(await row(page, big.reference).getByText('Action needed', { exact: true }).count()).toBe(0);
    await row(page, big.reference).getByRole('button', { name: 'Details' }).click();
    const thread = page.getByRole('dialog').getByRole('region', { name: 'Notes and messages' });
    const answer = thread.getByTestId('note').filter({ hasText: ANSWER });
    await answer.getByText('From the sender', { exact: true }).waitFor();
    await answer.getByText(SENDER.full_name, { exact: true }).waitFor();
    expect(await thread.getByText("Action needed: waiting for the sender's answer.").count()).toBe(0);
    await page.context().close();
  });

  it('the admin approves it from the queue; the manager then records the payout and completes it; the dialog names who did what', async () => {
    const adminPage = await staffPage(BOOTSTRAP_ADMIN);
    await adminPage.goto(`${app.server.url}/admin?needs_approval=true`);
    const card = row(adminPage, big.reference);
    expect(await card.getByTestId('approve-reason').count()).toBe(0);
    await card.getByRole('button', { name: 'Approve' }).click();
    await adminPage.getByText('Transfer approved').first().waitFor();
    // Approved, it leaves the "needs approval" list.
    await expect.poll(() => queue(adminPage).count()).toBe(0);
    await adminPage.getByRole('checkbox', { name: 'Needs approval only' }).uncheck();
    await row(adminPage, big.reference).getByText('Approved', { exact: true }).waitFor();
    await adminPage.context().close();

    const page = await staffPage(MANAGER);
    await page.goto(`${app.server.url}/admin?q=${big.reference}`);
    await row(page, big.reference).getByRole('button', { name: 'Record payout' }).click();
    const dialog = page.getByRole('dialog');
    const payout = dialog.getByRole('form', { name: 'Record payout' });
    await payout.getByLabel('Payout reference').fill('PAYPAL-OUT-650');
    await payout.getByRole('button', { name: 'Record payout' }).click();
    await page.getByText('Payout recorded').first().waitFor();
    const actors = dialog.getByRole('region', { name: 'Who did what' });
    await expect.poll(() => valueOf(actors, 'Approved by')).toBe(ADMIN_NAME);
    expect(await valueOf(actors, 'Processed by')).toBe(MANAGER.full_name);
    await expect.poll(() => valueOf(actors, 'Payout recorded by')).toBe(MANAGER.full_name);
    await actors.getByText(/^Approved .+\.$/).waitFor();
    const complete = dialog.getByRole('button', { name: 'Mark completed' });
    await complete.click();
    await page.getByText('Status updated to completed successfully!').waitFor();
    await dialog.getByRole('region', { name: 'Status history' }).getByText('Processing → Completed').waitFor();
    // The success toast leaves the dialog's actions free (defect 2, desktop).
    await expectNotUnderToast(page, complete);
    await expectNotUnderToast(page, dialog.getByRole('button', { name: 'Close', exact: true }));
    await page.keyboard.press('Escape');
    await page.context().close();
  });

  it('reject asks, in the app\'s dialog, for the reason the sender reads', async () => {
    const page = await staffPage(BOOTSTRAP_ADMIN, 360);
    await page.goto(`${app.server.url}/admin?q=${small.reference}`);
    const card = row(page, small.reference);
    await expectCardOnScreen(page, card, /20[,\s\u202f]000/, 'Pending', ['Process', 'Reject', 'Record payment', 'Details']);
    await card.getByRole('button', { name: 'Reject' }).click();
    const dialog = page.getByRole('dialog', { name: `Reject ${small.reference}` });
    await dialog.getByRole('button', { name: 'Reject the transfer' }).click();
    await dialog.getByText('Enter the reason the sender will read.').waitFor();
    expect(await dialog.getByRole('textbox', { name: 'Reason for the sender' }).getAttribute('aria-invalid')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'four-eyes-reject-phone');
    await dialog.getByRole('textbox', { name: 'Reason for the sender' }).fill(REJECT_REASON);
    await dialog.getByRole('button', { name: 'Reject the transfer' }).click();
    await page.getByText('Status updated to rejected successfully!').waitFor();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await card.getByText('Rejected', { exact: true }).waitFor();
    const { data } = await app.api<{ data: { status: string; history: { to_status: string; note: string | null }[] } }>(
      'GET', `/api/transfer-requests/${small.id}`, undefined, senderToken);
    expect(data.status).toBe('rejected');
    expect(data.history.find((h) => h.to_status === 'rejected')?.note).toBe(REJECT_REASON);
    await page.context().close();
  });
});

describe('the admin\'s controls', () => {
  it('edits a four-eyes threshold in the Fees tab: what cannot be read is refused on the field, the rest is saved exactly', async () => {
    const page = await staffPage(BOOTSTRAP_ADMIN, 390);
    await page.goto(`${app.server.url}/admin?tab=fees`);
    const rwf = page.getByRole('form', { name: 'RWF approval threshold' });
    const field = rwf.getByRole('textbox', { name: 'Threshold in RWF' });
    await expect.poll(() => field.inputValue()).toBe('1,300,000');
    await field.fill('1 500 000,50');
    await rwf.getByRole('button', { name: 'Save' }).click();
    await rwf.getByText(/RWF amounts have no decimals/).waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('1 500 000');
    await rwf.getByRole('button', { name: 'Save' }).click();
    await page.getByText('RWF threshold saved').first().waitFor();
    await rwf.getByText(/^Now RWF\s?1,500,000|^Now 1,500,000/).waitFor();
    const { data } = await app.api<{ data: { currency: string; amount: string }[] }>('GET', '/api/approval-thresholds', undefined, await sessionToken(page));
    expect(Number(data.find((t) => t.currency === 'RWF')!.amount)).toBe(1500000);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'four-eyes-thresholds-phone');
    await page.context().close();
  });

  it('reads the audit log filtered by action, and downloads the same rows as CSV', async () => {
    const page = await staffPage(BOOTSTRAP_ADMIN);
    await page.goto(`${app.server.url}/admin?tab=audit`);
    const log = page.getByRole('list', { name: 'Audit log' });
    await log.getByTestId('audit-row').first().waitFor();
    await page.getByRole('combobox', { name: 'Action' }).selectOption({ label: 'Transfer approved' });
    await expect.poll(() => log.getByTestId('audit-row').count()).toBe(1);
    const entry = log.getByTestId('audit-row').first();
    await entry.getByText('Transfer approved').waitFor();
    // The transfer named by its reference, not its id.
    await entry.getByText(big.reference).waitFor();
    await entry.getByRole('button', { name: `Show only the actions of ${ADMIN_NAME}` }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile((await download.path())!, 'utf8')).trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^id,created_at,actor_id/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toContain('transfer_request.approve');
    expect(lines[1]).toContain(big.id);

    // A person picked from a row: only their actions, every action again.
    await page.getByRole('combobox', { name: 'Action' }).selectOption({ label: 'All actions' });
    await entry.getByRole('button', { name: `Show only the actions of ${ADMIN_NAME}` }).click();
    await page.getByRole('button', { name: `By ${ADMIN_NAME} (remove this filter)` }).waitFor();
    // The previous rows stay until the filtered ones come: the manager's go, the admin's notes stay.
    // (The manager may still be named as the object of the admin's actions: their role change.)
    await expect.poll(() => log.getByRole('button', { name: `Show only the actions of ${MANAGER.full_name}` }).count()).toBe(0);
    expect(await log.getByText('Note written').count()).toBeGreaterThanOrEqual(2);

    await shot(page, 'four-eyes-audit');
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'four-eyes-audit-phone');
    await page.context().close();
  });

  it('pages the audit log: 50 entries, then "Load more" for the rest', async () => {
    const token = await app.tokenFor(BOOTSTRAP_ADMIN);
    for (let i = 0; i < 51; i += 1) await app.api('PATCH', '/api/rates/EUR_RWF', { value: String(1500 + i) }, token);
    const page = await staffPage(BOOTSTRAP_ADMIN);
    await page.goto(`${app.server.url}/admin?tab=audit`);
    await page.getByRole('combobox', { name: 'Action' }).selectOption({ label: 'Rate changed' });
    await page.getByText('50 entries shown', { exact: true }).waitFor();
    const log = page.getByRole('list', { name: 'Audit log' });
    // Newest first: the last change heads the first page, the first one waits for the next.
    await log.getByTestId('audit-row').first().getByText('value: 1549 → 1550').waitFor();
    expect(await log.getByText(/^value: [\d.]+ → 1500$/).count()).toBe(0);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('51 entries shown', { exact: true }).waitFor();
    await log.getByTestId('audit-row').last().getByText(/^value: [\d.]+ → 1500$/).waitFor();
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await page.context().close();
  });
});
