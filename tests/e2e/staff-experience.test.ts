import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, PNG, useE2eApp, type TransferRef } from './support/fixtures.js';
import { seriousViolations } from './support/axe.js';
import { shot } from './support/screenshots.js';

// The staff screens as a staff member uses them: the queue at 1366 px
// (nothing cut, columns lined up, a proof or a reply shown, closed rows without greyed buttons,
// an open row's greyed button with its reason beside it)
// and at 390 px (filters folded behind one control); a note's audience back to internal after
// each note, the two kinds told apart; a role change confirmed; the audit log naming people and
// transfers as people name them, and the sender's region in the staff member's language.

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'sylvie.sender@example.test', password: 'Sylvie-Sends-Money-1', full_name: 'Sylvie Okoumba' };
const NEWCOMER = { email: 'nadia.new@example.test', password: 'Nadia-Joins-Staff-2', full_name: 'Nadia Mabika' };

let senderToken = '';
let bank: TransferRef;
let proofed: TransferRef;
let replied: TransferRef;
let cancelled: TransferRef;

const queue = (page: Page) => page.getByRole('list', { name: 'Transfer requests' }).getByRole('listitem');
const row = (page: Page, reference: string) => queue(page).filter({ hasText: reference });

/** Text cut by its box (an ellipsis or a hidden overflow) in any paragraph of the row. */
const cutTexts = (scope: Locator) => scope.locator('p').evaluateAll((els) => els
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis')
  .map((el) => el.textContent));

async function uploadProof(token: string, id: string) {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'receipt.png');
  const res = await fetch(`${app.server.url}/api/transfer-requests/${id}/proof`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status).toBe(201);
}

async function adminPage(width: number, height: number, path = '/admin'): Promise<Page> {
  const page = await app.staffSignedIn('admin');
  await page.setViewportSize({ width, height });
  await page.goto(`${app.server.url}${path}`);
  return page;
}

describe('the staff screens in Chromium', () => {
  it('a sender has four transfers: to a French bank account, with a proof, answered, cancelled', async () => {
    senderToken = await app.senderExists(SENDER);
    // The region as a profile keeps it: the address data's own (English) name.
    await app.api('PATCH', '/api/profiles/me', { state: 'Estuaire Province' }, senderToken);
    ({ data: bank } = await app.api<{ data: TransferRef }>('POST', '/api/payments/initiate', {
      source_provider: 'paypal_eur', destination_provider: 'bank_france', amount: '250', currency: 'EUR',
      destination_details: { account_holder: 'Paul-Henri Martin de la Fontaine', iban: 'FR76 3000 6000 0112 3456 7890 189' },
    }, senderToken));
    proofed = await app.transferExists(senderToken, { recipient: 'Jean Ndong' });
    await uploadProof(senderToken, proofed.id);
    replied = await app.transferExists(senderToken, { recipient: 'Marie Nguema' });
    const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
    await app.api('POST', `/api/transfer-requests/${replied.id}/notes`, { body: 'Please send the receipt again.', visibility: 'sender', action_needed: true }, admin);
    await app.api('POST', `/api/transfer-requests/${replied.id}/messages`, { body: 'Here it is, sorry.' }, senderToken);
    cancelled = await app.transferExists(senderToken, { recipient: 'Paul Obame' });
    await app.api('POST', `/api/transfer-requests/${cancelled.id}/cancel`, {}, senderToken);
  });

  it('at 1366 px the queue cuts nothing, lines its columns up, shows a proof or a reply, and closed rows have no greyed buttons', async () => {
    const page = await adminPage(1366, 768);
    for (const ref of [bank, proofed, replied, cancelled]) await row(page, ref.reference).waitFor();
    // The corridor and the date are whole: no paragraph of any row is cut.
    await row(page, bank.reference).getByText('PayPal (EUR) → Bank account France', { exact: false }).waitFor();
    for (const ref of [bank, proofed, replied, cancelled]) expect(await cutTexts(row(page, ref.reference)), ref.reference).toEqual([]);
    // Columns line up: each column starts at the same x on every row.
    const starts = await queue(page).evaluateAll((items) => items.map((li) => {
      const grid = li.querySelector('div > div')!;
      return [...grid.children].map((c) => Math.round(c.getBoundingClientRect().left));
    }));
    expect(starts.length).toBeGreaterThanOrEqual(4);
    for (const s of starts) expect(s).toEqual(starts[0]);
    // What arrived from the sender is shown on the row.
    await row(page, proofed.reference).getByTestId('proof-arrived').filter({ hasText: 'Proof to check' }).waitFor();
    await row(page, replied.reference).getByTestId('sender-replied').filter({ hasText: 'Sender replied' }).waitFor();
    expect(await row(page, bank.reference).getByTestId('sender-replied').count()).toBe(0);
    // A closed transfer: its reason, no status buttons at all (greyed or not).
    const closed = row(page, cancelled.reference);
    await closed.getByTestId('closed-reason').filter({ hasText: 'Cancelled: closed, its status no longer changes.' }).waitFor();
    for (const name of ['Process', 'Completed', 'Reject']) expect(await closed.getByRole('button', { name }).count(), name).toBe(0);
    expect(await closed.getByRole('button', { disabled: true }).count()).toBe(0);
    await closed.getByRole('button', { name: 'Details' }).waitFor();
    // An open row: no greyed button without its reason written beside it (not a tooltip).
    const open = row(page, bank.reference);
    const complete = open.getByRole('button', { name: 'Completed' });
    expect(await complete.isDisabled()).toBe(true);
    await open.getByTestId('complete-reason').filter({ hasText: 'The transfer cannot be completed: the payment is not received and the payout is not sent.' }).waitFor();
    expect(await complete.getAttribute('aria-describedby')).toBe(await open.getByTestId('complete-reason').getAttribute('id'));
    expect(await open.getByRole('button', { name: 'Process' }).isDisabled()).toBe(false);
    const unexplained = await queue(page).locator('button:disabled').evaluateAll((buttons) => buttons
      .filter((b) => !(b.getAttribute('aria-describedby') ?? '').split(' ').some((id) => {
        const reason = id && document.getElementById(id);
        return reason && reason.checkVisibility() && reason.textContent!.trim() !== '';
      }))
      .map((b) => `${b.closest('li')?.getAttribute('data-id')}: ${b.textContent}`));
    expect(unexplained).toEqual([]);
    await shot(page, 'staff-queue-1366');
    await page.context().close();
  });

  it('at 390 px the filters fold behind one control that says how many are on, and the first transfer shows without scrolling', async () => {
    const page = await adminPage(390, 844);
    await queue(page).first().waitFor();
    const filters = page.getByRole('button', { name: 'Filters', exact: true });
    await filters.waitFor();
    expect(await filters.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('combobox', { name: 'Status' }).isVisible()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'staff-queue-390');
    const first = await queue(page).first().boundingBox();
    expect(first!.y).toBeLessThan(844);

    await filters.click();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Cancelled' });
    await page.getByRole('combobox', { name: 'Corridor' }).selectOption({ label: 'PayPal (USD) → Airtel Money Gabon' });
    await page.waitForURL((url) => url.searchParams.get('status') === 'cancelled' && url.searchParams.get('direction') === 'USD_XAF');
    await page.getByRole('button', { name: 'Filters · 2 on' }).click();
    expect(await page.getByRole('combobox', { name: 'Status' }).isVisible()).toBe(false);
    await expect.poll(() => queue(page).count()).toBe(1);
    await row(page, cancelled.reference).waitFor();
    await shot(page, 'staff-queue-390-filtered');
    await page.context().close();
  });

  it('a note starts internal every time, back to internal after a message to the sender, and the two look different', async () => {
    const page = await adminPage(1366, 900);
    await row(page, proofed.reference).getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog');
    const internal = dialog.getByRole('radio', { name: 'Staff only (internal note)' });
    const toSender = dialog.getByRole('radio', { name: 'The sender too (sent by e-mail)' });
    await internal.waitFor();
    expect(await internal.isChecked()).toBe(true);
    await dialog.getByTestId('note-audience').filter({ hasText: 'Only staff will see this note.' }).waitFor();

    await toSender.check();
    await dialog.getByTestId('note-audience').filter({ hasText: `${SENDER.full_name} will receive this by e-mail.` }).waitFor();
    await dialog.getByLabel('Text').fill('Your proof is being checked.');
    await dialog.getByRole('button', { name: 'Send to the sender' }).click();
    await dialog.locator('[data-audience="sender"]').filter({ hasText: 'Your proof is being checked.' }).waitFor();
    // After sending, the next note is internal again: nothing reaches the sender by mistake.
    await expect.poll(() => internal.isChecked()).toBe(true);
    expect(await toSender.isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Add internal note' }).waitFor();

    await dialog.getByLabel('Text').fill('Bank line matches.');
    await dialog.getByRole('button', { name: 'Add internal note' }).click();
    const internalNote = dialog.locator('[data-audience="internal"]').filter({ hasText: 'Bank line matches.' });
    await internalNote.waitFor();
    const look = (l: Locator) => l.evaluate((el) => { const s = getComputedStyle(el); return `${s.backgroundColor} ${s.borderStyle} ${s.borderLeftWidth}`; });
    const messageNote = dialog.locator('[data-audience="sender"]').first();
    expect(await look(internalNote)).not.toBe(await look(messageNote));
    await internalNote.getByText('Internal').waitFor();
    await messageNote.getByText('To the sender').waitFor();
    await shot(page, 'staff-notes');
    await page.context().close();
  });

  it('a role change asks first, naming the person and both roles; the audit log names people and transfers as people do', async () => {
    await app.senderExists(NEWCOMER);
    const page = await adminPage(1366, 900, '/admin?tab=users');
    const select = page.getByRole('combobox', { name: `Role of ${NEWCOMER.full_name}` });
    await select.selectOption({ label: 'Manager' });
    const dialog = page.getByRole('dialog');
    await dialog.getByText(`${NEWCOMER.full_name} (${NEWCOMER.email}) goes from User to Manager. Their access changes at once.`).waitFor();
    await shot(page, 'staff-role-confirm');
    await dialog.getByRole('button', { name: 'Keep the current role' }).click();
    await expect.poll(() => select.inputValue()).toBe('user');
    const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
    const roleOf = async () => (await app.api<{ data: { role: string }[] }>('GET', `/api/profiles?q=${encodeURIComponent(NEWCOMER.email)}`, undefined, admin)).data[0]!.role;
    expect(await roleOf()).toBe('user');

    await select.selectOption({ label: 'Manager' });
    await page.getByRole('dialog').getByRole('button', { name: 'Make Manager' }).click();
    await expect.poll(roleOf).toBe('manager');
    await expect.poll(() => select.inputValue()).toBe('manager');

    await page.goto(`${app.server.url}/admin?tab=audit`);
    // Read wherever the log is (its list's name changes with the language below).
    const log = page.locator('main');
    const roleRow = log.getByTestId('audit-row').filter({ hasText: 'Role changed' }).first();
    await roleRow.getByText(`${NEWCOMER.full_name} (${NEWCOMER.email})`).waitFor();
    await roleRow.getByText('Role: User → Manager').waitFor();
    expect(await roleRow.textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    // The newest note was written on the transfer with a proof: named by its reference, not its id.
    const noteRow = log.getByTestId('audit-row').filter({ hasText: 'Note written' }).first();
    await noteRow.getByText(proofed.reference).waitFor();
    expect(await noteRow.textContent()).not.toContain(proofed.id);
    await shot(page, 'staff-audit');

    // In French: the words and the colon as French writes them.
    await page.getByRole('banner').getByRole('button', { name: /^(EN|FR) – / }).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await log.getByTestId('audit-row').filter({ hasText: 'Rôle modifié' }).first().getByText('Rôle\u00a0: Utilisateur → Gestionnaire').waitFor();

    // The sender's region as the sender's own screens name it in French: « Estuaire », not the kept "Estuaire Province".
    await page.goto(`${app.server.url}/admin`);
    await page.getByRole('list', { name: 'Demandes de transfert' }).getByRole('listitem').filter({ hasText: bank.reference })
      .getByRole('button', { name: 'Détails' }).click();
    const travel = page.getByRole('dialog').getByTestId('travel-rule');
    await travel.getByRole('button', { name: 'Afficher' }).click();
    await travel.getByText('12 rue des Palmiers, Libreville, Estuaire, GA', { exact: true }).waitFor();
    expect(await travel.textContent()).not.toContain('Province');
    await page.context().close();
  });
});
