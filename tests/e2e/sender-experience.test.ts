import { Secret, TOTP } from 'otpauth';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, PNG, submitSignIn, toasts, useE2eApp, type TransferRef } from './support/fixtures.js';
import { shot } from './support/screenshots.js';

// Issue 29, the sender's items, as a person sees them on a phone (390 px): one sentence of state
// instead of three badges that contradict each other (and the proof in the timeline); "Reply"
// lands on the question and the reply box; a recipient saved on a PayPal EUR transfer opens as
// PayPal EUR; the calculator above the fold and the dashboard after sign-in; a statement (not a
// receipt) for a transfer not completed; no delivery promise before the payment; copy buttons on
// the pay page; sign-in of an unconfirmed e-mail says one thing once; no dead Google/Facebook
// buttons; two-step setup never says "Off" above the codes nor talks of recovery codes too early;
// a German IBAN refused for "Bank account France", an IBAN grouped as typed, the BIC on the review;
// the phone country follows the browser and the country picked, no emoji flags, France's regions.

const INSTRUCTIONS = 'PayPal: sender-experience@example.test';
const app = useE2eApp({ smtp: true, env: () => ({ PAYMENT_INSTRUCTIONS_PAYPAL: INSTRUCTIONS }) });

const PHONE = 390;
const SENDER = { email: 'one-sentence@example.test', password: 'Marigold-Harbour-Lantern-29', full_name: 'Awa Sentence' };
const ASK = 'Please tell us what the money is for.';
const STEP_MS = 30_000;
const codeAt = (secret: string, step: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * STEP_MS });

let token: string;
let admin: string;
const t: Record<'open' | 'proofed' | 'paid' | 'cancelled' | 'rejected' | 'completed', TransferRef & { total?: string }> = {} as never;

const totalOf = async (id: string) => (await app.api<{ data: { total: string } }>('GET', `/api/transfer-requests/${id}`, undefined, token)).data.total;

beforeAll(async () => {
  token = await app.senderExists(SENDER);
  admin = await app.tokenFor(BOOTSTRAP_ADMIN);
  t.open = await app.transferExists(token, { amount: '100', recipient: 'Open Nguema' });
  t.proofed = await app.transferExists(token, { amount: '60', recipient: 'Proof Nguema' });
  t.paid = await app.transferExists(token, { amount: '70', recipient: 'Paid Nguema' });
  await app.api('POST', `/api/transfer-requests/${t.paid.id}/payment`, { amount: await totalOf(t.paid.id), reference: 'STMT-PAID' }, admin);
  t.cancelled = await app.transferExists(token, { amount: '50', recipient: 'Cancelled Nguema' });
  await app.api('POST', `/api/transfer-requests/${t.cancelled.id}/cancel`, undefined, token);
  t.rejected = await app.transferExists(token, { amount: '60', recipient: 'Rejected Nguema' });
  t.rejected.total = await totalOf(t.rejected.id);
  await app.api('POST', `/api/transfer-requests/${t.rejected.id}/payment`, { amount: t.rejected.total, reference: 'STMT-REJ' }, admin);
  await app.api('PATCH', `/api/transfer-requests/${t.rejected.id}`, { status: 'rejected', note: 'Recipient unknown to Airtel.' }, admin);
  t.completed = await app.transferExists(token, { amount: '80', recipient: 'Done Nguema' });
  await app.api('POST', `/api/transfer-requests/${t.completed.id}/payment`, { amount: await totalOf(t.completed.id), reference: 'STMT-DONE' }, admin);
  await app.api('POST', `/api/transfer-requests/${t.completed.id}/payout`, { reference: 'AIRTEL-DONE' }, admin);
  await app.api('PATCH', `/api/transfer-requests/${t.completed.id}`, { status: 'completed' }, admin);
});

async function senderPage(locale = 'en-US', width = PHONE): Promise<Page> {
  const page = await app.signedInPage(SENDER, { width, locale });
  page.on('dialog', (dialog) => { throw new Error(`native ${dialog.type()} dialog: ${dialog.message()}`); });
  return page;
}

/** The history card of a transfer, found by its reference. */
const row = (page: Page, reference: string) => page.getByTestId('history-row').and(page.locator(`[data-reference="${reference}"]`));
const sentence = (scope: Locator) => scope.getByTestId('sender-state').innerText();

/** The element is wholly inside the window (what a person sees without scrolling). */
async function inView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const { height } = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

describe('one sentence of state for the sender (defect 1) and what each transfer offers (defect 5)', () => {
  it('the pay page at 390 px: copy buttons for the reference, the amount and the account; a proof uploaded', async () => {
    const page = await senderPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.server.url });
    await page.goto(`${app.server.url}/pay/${t.proofed.id}`);
    await page.getByTestId('pay-reference').waitFor();
    expect(await sentence(page.getByRole('main'))).toBe('Waiting for your payment');
    for (const [what, text] of [['reference', 'Reference copied'], ['amount', 'Amount copied'], ['account details', 'Account details copied']] as const) {
      await page.getByRole('button', { name: `Copy the ${what}` }).click();
      await toasts(page).getByText(text, { exact: true }).waitFor();
    }
    // The last copy holds the account, exactly as shown.
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(INSTRUCTIONS);
    await page.getByRole('button', { name: 'Copy the reference' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(t.proofed.reference);
    await shot(page, 'sender-pay-390-en');
    await page.getByLabel('Screenshot or receipt').setInputFiles({ name: 'airtel-receipt.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Upload proof' }).click();
    await page.getByText('We have your proof of payment.').waitFor();
    // Never "awaiting payment" once a proof is in.
    await expect.poll(() => sentence(page.getByRole('main'))).toBe("Proof received — we're checking your payment");
    await page.context().close();
  });

  it('the history at 390 px: one sentence per transfer, never contradicting badges; a receipt only when completed', async () => {
    const page = await senderPage();
    await page.goto(`${app.server.url}/history`);
    await row(page, t.completed.reference).waitFor();
    const expected: [keyof typeof t, string][] = [
      ['open', 'Waiting for your payment'],
      ['proofed', "Proof received — we're checking your payment"],
      ['paid', "Payment received — we're preparing your transfer"],
      ['cancelled', 'Cancelled — nothing was charged'],
      ['rejected', `Rejected — your refund of $${Number(t.rejected.total).toFixed(2)} is on its way`],
      ['completed', 'Delivered'],
    ];
    for (const [key, text] of expected) expect(await sentence(row(page, t[key].reference)), key).toBe(text);
    const all = await page.getByTestId('history-table').innerText();
    expect(all).not.toMatch(/Awaiting payment|Not paid out yet|Refund due \(5-7/);
    // A receipt for the completed one; the others a statement that says it is not one.
    await row(page, t.completed.reference).getByRole('button', { name: `Download the receipt of ${t.completed.reference}` }).waitFor();
    for (const key of ['open', 'cancelled', 'rejected'] as const) {
      const button = row(page, t[key].reference).getByRole('button', { name: `Download the statement of ${t[key].reference} (not a receipt: the transfer is not completed)` });
      expect(await button.innerText()).toBe('Statement');
      expect(await row(page, t[key].reference).getByRole('button', { name: /receipt of/ }).count()).toBe(0);
    }
    // A delivery time is promised from the payment only.
    await row(page, t.paid.reference).getByText(/^Expected by /).waitFor();
    expect(await row(page, t.open.reference).getByText(/^Expected by /).count()).toBe(0);
    await shot(page, 'sender-history-390-en');
    await page.context().close();
  });

  it('the details show the sentence and the proof in the timeline', async () => {
    const page = await senderPage();
    await page.goto(`${app.server.url}/history?details=${t.proofed.id}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('timeline-proof').waitFor();
    expect(await sentence(dialog)).toBe("Proof received — we're checking your payment");
    expect(await dialog.getByTestId('timeline-proof').innerText()).toContain('Proof of payment received');
    expect(await dialog.getByTestId('timeline-proof').innerText()).toContain('airtel-receipt.png');
    expect(await dialog.innerText()).not.toMatch(/Awaiting payment|Not paid out yet/);
    await shot(page, 'sender-details-390-en');
    await page.context().close();
  });

  it('in French: the same sentences, French typography', async () => {
    const page = await senderPage('fr-FR');
    await page.goto(`${app.server.url}/history`);
    await row(page, t.completed.reference).waitFor();
    expect(await sentence(row(page, t.cancelled.reference))).toBe('Annulé — rien ne vous a été débité');
    expect(await sentence(row(page, t.completed.reference))).toBe('Versé au destinataire');
    expect(await sentence(row(page, t.proofed.reference))).toBe('Justificatif reçu — nous vérifions votre paiement');
    expect(await row(page, t.open.reference).getByRole('button', { name: /^Télécharger le récapitulatif/ }).innerText()).toBe('Récapitulatif');
    await shot(page, 'sender-history-390-fr');
    await page.goto(`${app.server.url}/dashboard`);
    await page.getByTestId('sender-state').first().waitFor();
    await shot(page, 'sender-dashboard-390-fr');
    await page.goto(`${app.server.url}/pay/${t.paid.id}`);
    expect(await sentence(page.getByRole('main'))).toBe('Paiement reçu — nous préparons votre transfert');
    // The money is in: no proof is asked for any more.
    expect(await page.getByRole('button', { name: 'Envoyer la preuve' }).count()).toBe(0);
    await shot(page, 'sender-pay-390-fr');
    await page.goto(`${app.server.url}/history?details=${t.proofed.id}`);
    expect(await page.getByRole('dialog').getByTestId('timeline-proof').innerText()).toContain('Justificatif de paiement reçu');
    await shot(page, 'sender-details-390-fr');
    await page.context().close();
  });

  it('the tracking page: no delivery time and "to be paid" while unpaid', async () => {
    const { data } = await app.api<{ data: { tracking_url: string } }>('GET', `/api/transfer-requests/${t.open.id}`, undefined, token);
    const page = await app.page({ width: PHONE });
    await page.goto(data.tracking_url.replace(/^https?:\/\/[^/]+/, app.server.url));
    await page.getByTestId('tracking-amount').waitFor();
    const text = await page.getByRole('main').innerText();
    expect(text).toContain('To be paid to the number');
    expect(text).not.toMatch(/Paid to the number|Expected between/);
    await shot(page, 'sender-tracking-390-en');
    await page.context().close();
  });
});

describe('Reply on an "action needed" banner (defect 3)', () => {
  it('lands on the question and the reply box, focused, at 390 px', async () => {
    await app.api('POST', `/api/transfer-requests/${t.open.id}/notes`, { body: ASK, visibility: 'sender', action_needed: true }, admin);
    const page = await senderPage();
    await page.goto(`${app.server.url}/dashboard`);
    await page.getByTestId('action-needed-card').getByRole('link', { name: `Reply about ${t.open.reference}` }).click();
    const box = page.getByRole('dialog').getByTestId('thread-reply');
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    const question = page.getByRole('dialog').getByTestId('action-needed');
    expect(await question.innerText()).toContain(ASK);
    await expect.poll(() => inView(page, question)).toBe(true);
    expect(await inView(page, box)).toBe(true);
    await shot(page, 'sender-reply-390-en');
    await page.keyboard.type('School fees for my sister.');
    await page.getByRole('dialog').getByRole('button', { name: 'Send message' }).click();
    await toasts(page).getByText('Message sent', { exact: false }).waitFor();
    await page.context().close();
  });
});

describe('a recipient saved on a PayPal EUR transfer (defect 4)', () => {
  it('"Send money" opens the form as PayPal (EUR)', async () => {
    await app.api('POST', '/api/payments/initiate', {
      source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '40', currency: 'EUR', save_recipient: true,
      destination_details: { recipient_name: 'Euro Saved', recipient_phone: '+24177654321' },
    }, token);
    const page = await senderPage();
    await page.goto(`${app.server.url}/profile`);
    await page.getByRole('link', { name: 'Send money to Euro Saved' }).click();
    await page.waitForURL((url) => url.pathname === '/transfer');
    const from = page.getByRole('combobox', { name: 'From', exact: true });
    await expect.poll(async () => from.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent)).toBe('PayPal (EUR)');
    await page.context().close();
  });
});

describe('the right step at the right time (defect 5)', () => {
  it('on a phone the home calculator is above the fold, in English and French', async () => {
    for (const locale of ['en-US', 'fr-FR']) {
      const page = await app.page({ width: PHONE, locale });
      await page.goto(`${app.server.url}/`);
      const amount = page.getByTestId('calculator-amount');
      await amount.waitFor();
      expect(await inView(page, amount), locale).toBe(true);
      expect(await inView(page, page.getByTestId('calculator-send')), `${locale} send button`).toBe(true);
      await shot(page, `sender-home-390-${locale.slice(0, 2)}`);
      await page.context().close();
    }
  });

  it('after signing in, a sender lands on the dashboard', async () => {
    const page = await app.page({ width: PHONE });
    await submitSignIn(page, app.server.url, SENDER);
    await page.waitForURL((url) => url.pathname === '/dashboard');
    await page.getByTestId('sender-state').first().waitFor();
    await shot(page, 'sender-dashboard-390-en');
    await page.context().close();
  });
});

describe('signing in (defect 6)', () => {
  it('an unconfirmed e-mail: no empty box, one message with the next step for a wrong code; no Google or Facebook button unconfigured', async () => {
    const pending = { email: 'not-confirmed@example.test', password: 'Quiet-Meadow-Copper-29', full_name: 'Nina Pending' };
    await app.api('POST', '/api/auth/register', { ...pending, phone: '+24177000001', city: 'Libreville', country: 'GA' });
    const page = await app.page({ width: PHONE });
    await submitSignIn(page, app.server.url, pending);
    await page.getByRole('heading', { name: 'Verify your email' }).waitFor();
    expect(await page.getByRole('link', { name: /Continue with (Google|Facebook)/ }).count()).toBe(0);
    for (const box of await page.getByRole('main').locator('[role="alert"], [role="status"]').all()) {
      expect((await box.innerText()).trim(), 'an empty message box').not.toBe('');
    }
    await page.getByRole('textbox', { name: 'Verification code' }).fill('000000');
    await page.getByRole('button', { name: 'Verify email' }).click();
    const wrong = `That code is wrong or has expired. Check the latest e-mail we sent to ${pending.email}, or send a new code.`;
    await page.getByText(wrong, { exact: true }).first().waitFor();
    await page.waitForTimeout(500);
    const text = await page.locator('body').innerText();
    expect(text.split(wrong).length - 1).toBe(1);
    expect(text).not.toContain('Invalid or expired OTP code');
    await shot(page, 'sender-unconfirmed-390-en');
    await page.context().close();
  });

  it('two-step setup: a wrong code asks for the app\'s code (no recovery codes yet); once on, never "Off" above the codes', async () => {
    // An account of its own: once enrolled, signing in asks for a code.
    const owner = { email: 'two-step-setup@example.test', password: 'Violet-Compass-Orchard-29', full_name: 'Tobi Twostep' };
    await app.senderExists(owner);
    const page = await app.signedInPage(owner, { width: PHONE });
    await page.goto(`${app.server.url}/two-step`);
    const proof = page.getByRole('form', { name: 'Confirm it is you' });
    await proof.getByLabel('Current password').fill(owner.password);
    await proof.getByRole('button', { name: 'Continue' }).click();
    const secret = await page.getByRole('textbox', { name: 'Setup key' }).inputValue();
    const code = page.getByRole('textbox', { name: 'Code' });
    const step = Math.floor(Date.now() / STEP_MS);
    await code.fill(codeAt(secret, step + 5));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const message = page.getByText('This code is not correct. Enter the 6-digit code your authenticator app shows now (it changes every 30 seconds).');
    await message.waitFor();
    expect(await page.getByRole('main').innerText()).not.toMatch(/recovery code/i);
    await code.fill(codeAt(secret, step));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('list', { name: 'Recovery codes' }).waitFor();
    const header = await page.getByRole('main').innerText();
    expect(header).not.toMatch(/\bOff\b/);
    expect(header).toContain('Two-step sign-in is on.');
    await shot(page, 'sender-two-step-390-en');
    await page.context().close();
  });
});

describe('a bank account in France (defect 7)', () => {
  it('refuses a German IBAN, groups an IBAN typed without spaces, and shows the BIC on the review', async () => {
    const page = await senderPage();
    await page.goto(`${app.server.url}/transfer?direction=EUR_EUR&amount=100`);
    await page.getByRole('textbox', { name: 'Account holder' }).fill('Claire Martin');
    const iban = page.getByRole('textbox', { name: 'IBAN' });
    await iban.pressSequentially('de89370400440532013000');
    expect(await iban.inputValue()).toBe('DE89 3704 0044 0532 0130 00');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    // Under the field (a toast may say it too, for a field scrolled out of view).
    await page.getByRole('alert').getByText('This IBAN is not French: “Bank account France” pays only into accounts in France (FR…) or Monaco (MC…).').waitFor();
    expect(await iban.getAttribute('aria-invalid')).toBe('true');
    await iban.fill('');
    await iban.pressSequentially('fr7630006000011234567890189');
    expect(await iban.inputValue()).toBe('FR76 3000 6000 0112 3456 7890 189');
    await page.getByRole('textbox', { name: 'BIC (optional)' }).fill('bnpafrpp');
    await page.getByRole('button', { name: 'Review transfer' }).click();
    await page.getByTestId('review-bic').waitFor();
    expect(await page.getByTestId('review-bic').innerText()).toBe('BNPAFRPP');
    expect(await page.getByTestId('review-recipient').innerText()).toContain('FR76 3000 6000 0112 3456 7890 189');
    await shot(page, 'sender-review-bank-390-en');
    await page.context().close();
  });
});

describe('registering (defect 8)', () => {
  it('the phone country follows a French browser, then the country picked; no emoji flags; France lists regions, not departments', async () => {
    const page = await app.page({ width: PHONE, locale: 'fr-FR' });
    await page.goto(`${app.server.url}/register`);
    const phoneCountry = page.getByRole('combobox', { name: 'Pays du téléphone' });
    await expect.poll(() => phoneCountry.inputValue()).toBe('FR');
    await page.getByRole('combobox', { name: 'Pays', exact: true }).fill('gab');
    await page.getByRole('listbox').getByRole('option', { name: 'Gabon', exact: true }).click();
    await expect.poll(() => phoneCountry.inputValue()).toBe('GA');
    // No regional-indicator letters (emoji flags) anywhere: drawn as empty boxes without an emoji font.
    expect(await page.locator('body').innerText()).not.toMatch(/[\u{1F1E6}-\u{1F1FF}]/u);
    await page.getByRole('combobox', { name: 'Pays', exact: true }).fill('Fran');
    await page.getByRole('listbox').getByRole('option', { name: 'France', exact: true }).click();
    const state = page.getByRole('combobox', { name: 'État ou région' });
    await expect.poll(() => state.isEnabled()).toBe(true);
    const regions = await state.locator('option').allTextContents();
    expect(regions).toContain('Île-de-France');
    expect(regions).not.toContain('Essonne');
    expect(regions).toHaveLength(18 + 1);
    await shot(page, 'sender-register-390-fr');
    await page.context().close();
  });
});

describe('the signed-in pages as they load (the web budget)', () => {
  it('the dashboard, the transfer form and the history settle without moving what is on screen, at 390 px', async () => {
    for (const path of ['/dashboard', '/transfer', '/history']) {
      const page = await senderPage();
      // Answers slower than a frame, as on a phone: the page paints its loading state first.
      await page.route('**/api/**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        await route.continue();
      });
      await page.addInitScript(() => {
        const w = window as unknown as { shifts: number };
        w.shifts = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.shifts += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(`${app.server.url}${path}`, { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForTimeout(500);
      expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts), path).toBeLessThan(0.05);
      await page.context().close();
    }
  });
});
