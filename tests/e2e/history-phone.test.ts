import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, useE2eApp, type TransferRef } from './support/fixtures.js';
import { seriousViolations, withAxe } from './support/axe.js';
import { expectWithinWidth, scrollWidth } from './support/layout.js';

// Issue 13 for the sender (defects 1, 5 and 9, send again, delivery estimate, action needed): the
// history and the dashboard on a phone (360 and 390 px) show each transfer as a card whose
// amount, recipient, status and actions are on screen without scrolling sideways; the search
// finds what the screen shows; cancel asks in the app's dialog; numbers are grouped; "Send again"
// opens a new transfer with the same recipient, corridor and amount; a transfer our team needs
// something for comes first on the dashboard and is answered in its details. English and French,
// axe on every screen.

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'phone-history@example.test', password: 'Cards-On-A-Phone-13', full_name: 'Awa Phone' };
const ASK = 'Please send a clearer photo of your Airtel receipt.';
const ANSWER = 'Here it is: the receipt number is 778899.';
const PHONES = [360, 390] as const;

const FR = {
  transfer: JSON.parse(readFileSync(path.resolve(__dirname, '../../src/locales/fr/transfer.json'), 'utf8')),
};

let token: string;
let usd: TransferRef;
let xaf: TransferRef;

beforeAll(async () => {
  token = await app.senderExists(SENDER);
  usd = await app.transferExists(token, { amount: '100', recipient: 'Marie Nguema', phone: '+24177123456' });
  ({ data: xaf } = await app.api<{ data: TransferRef }>('POST', '/api/payments/initiate', {
    source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '65000', currency: 'XAF',
    destination_details: { recipient_name: 'Jean Mboumba', recipient_email: 'jean@example.test' },
  }, token));
  await app.api('POST', '/api/recipients', { channel: 'airtel_gabon', recipient_name: 'Paul Saved', recipient_phone: '+24174000111' }, token);
});

/** A signed-in page of the sender with axe-core in every document, refusing the browser's own dialogs. */
async function senderPage(width: number, locale = 'en-US'): Promise<Page> {
  const page = await app.signedInPage(SENDER, { width, locale });
  await withAxe(page);
  page.on('dialog', (dialog) => { throw new Error(`native ${dialog.type()} dialog: ${dialog.message()}`); });
  return page;
}

/**
 * The history card (a table row) of a transfer: the one whose Details button names its reference.
 * `behindDialog`: found while a dialog is open, which hides the page from assistive technology.
 */
const historyCard = (page: Page, reference: string, details = `Details of ${reference}`, behindDialog = false) =>
  page.getByRole('row', { includeHidden: behindDialog }).filter({ has: page.getByRole('button', { name: details, includeHidden: behindDialog }) });

describe('history and dashboard on a phone', () => {
  for (const width of PHONES) {
    it(`${width} px: each history card shows amount, recipient, status and every action on screen; no sideways scroll; axe clean`, async () => {
      const page = await senderPage(width);
      await page.goto(`${app.server.url}/history`);
      await page.getByText('2 transactions shown', { exact: true }).waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      const cards = [
        { ref: usd.reference, amount: '$100.00', recipient: 'Marie Nguema' },
        { ref: xaf.reference, amount: 'FCFA 65,000', recipient: 'Jean Mboumba' },
      ];
      for (const { ref, amount, recipient } of cards) {
        const card = historyCard(page, ref);
        await expectWithinWidth(page, card.getByText(amount, { exact: true }), `${ref} amount`);
        await expectWithinWidth(page, card.getByText(recipient, { exact: true }), `${ref} recipient`);
        // One sentence of state (docs/rules/money-states.md#the-senders-sentence).
        await expectWithinWidth(page, card.getByText('Waiting for your payment', { exact: true }), `${ref} status`);
        await expectWithinWidth(page, card.getByText(ref, { exact: true }), `${ref} reference`);
        for (const name of [`Details of ${ref}`, `Cancel ${ref}`, `Download the statement of ${ref} (not a receipt: the transfer is not completed)`]) {
          await expectWithinWidth(page, card.getByRole('button', { name }), name);
        }
        await expectWithinWidth(page, card.getByRole('link', { name: `Send again: same recipient and amount as ${ref}` }), `${ref} send again`);
        // No delivery time is promised before the payment is in.
        expect(await card.getByText(/^Expected by /).count()).toBe(0);
      }
      // The recipient's number as people write it.
      await historyCard(page, usd.reference).getByText('+241 77 12 34 56', { exact: true }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`${app.server.url}/dashboard`);
      const recent = page.getByRole('list', { name: 'Recent transactions' });
      const item = recent.getByRole('listitem').filter({ hasText: usd.reference });
      await item.waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      await expectWithinWidth(page, item.getByText('$100.00', { exact: true }), 'dashboard amount');
      await expectWithinWidth(page, item.getByText('Marie Nguema', { exact: true }), 'dashboard recipient');
      await expectWithinWidth(page, item.getByText('Waiting for your payment', { exact: true }), 'dashboard status');
      await expectWithinWidth(page, item.getByRole('link', { name: `Details of ${usd.reference}` }), 'dashboard details');
      await expectWithinWidth(page, item.getByRole('button', { name: `Cancel ${usd.reference}` }), 'dashboard cancel');
      const open = page.getByRole('list', { name: 'Open requests' }).getByRole('listitem').filter({ hasText: xaf.reference });
      await expectWithinWidth(page, open.getByRole('link', { name: 'Pay now' }), 'dashboard pay now');
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  }

  it('French at 360 px: the cards in French, numbers grouped, the search reads "65 000"; axe clean', async () => {
    const page = await senderPage(360, 'fr-FR');
    await page.goto(`${app.server.url}/history?lng=fr`);
    await page.getByRole('heading', { name: FR.transfer.history.title }).waitFor();
    await page.getByText('2 transactions affichées', { exact: true }).waitFor();
    const card = historyCard(page, usd.reference, `Détails de ${usd.reference}`);
    await card.getByText('+241 77 12 34 56', { exact: true }).waitFor();
    await expectWithinWidth(page, card.getByText('100,00 $US', { exact: true }), 'French amount');
    await expectWithinWidth(page, card.getByRole('link', { name: `Envoyer à nouveau\u00a0: même bénéficiaire et même montant que ${usd.reference}` }), 'Envoyer à nouveau');
    await card.getByText('En attente de votre paiement', { exact: true }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('searchbox', { name: 'Rechercher' }).fill('65 000');
    await page.getByText('1 transaction affichée', { exact: true }).waitFor();
    await historyCard(page, xaf.reference, `Détails de ${xaf.reference}`).waitFor();

    await page.goto(`${app.server.url}/dashboard?lng=fr`);
    await page.getByRole('list', { name: 'Transactions récentes' }).getByText(usd.reference).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe('history search (defect 5)', () => {
  it('finds the recipient, the amount as shown and the MT- reference; each card shows its reference', async () => {
    const page = await senderPage(1280);
    await page.goto(`${app.server.url}/history`);
    await page.getByText('2 transactions shown', { exact: true }).waitFor();
    const search = page.getByRole('searchbox', { name: 'Search' });
    for (const [q, ref] of [['Mboumba', xaf.reference], ['65,000', xaf.reference], ['FCFA 65,000', xaf.reference], [usd.reference, usd.reference], ['+241 77 12 34 56', usd.reference]] as const) {
      await search.fill(q);
      await page.getByText('1 transaction shown', { exact: true }).waitFor();
      await historyCard(page, ref).getByText(ref, { exact: true }).waitFor();
    }
    await search.fill('Nobody Here');
    await page.getByText('No transaction matches your search.').waitFor();
    await page.context().close();
  });
});

describe('send again', () => {
  it('from the history: a new transfer with the same recipient, corridor and amount, priced now', async () => {
    const page = await senderPage(390);
    await page.goto(`${app.server.url}/history`);
    await historyCard(page, usd.reference).getByRole('link', { name: `Send again: same recipient and amount as ${usd.reference}` }).click();
    await page.waitForURL((url) => url.pathname === '/transfer');
    expect(await page.getByTestId('transfer-source').inputValue()).toBe('paypal_usd');
    expect(await page.getByTestId('transfer-destination').inputValue()).toBe('airtel_gabon');
    await expect.poll(() => page.getByTestId('transfer-amount').inputValue()).toMatch(/^100(\.00)?$/);
    expect(await page.getByRole('textbox', { name: 'Recipient phone number' }).inputValue()).toBe('+24177123456');
    expect(await page.getByRole('textbox', { name: 'Recipient name (optional)' }).inputValue()).toBe('Marie Nguema');
    // Priced afresh by today's tiers (unchanged since, so the same total as the first time).
    const { data: first } = await app.api<{ data: { total: string } }>('GET', `/api/transfer-requests/${usd.id}`, undefined, token);
    await page.getByText(`$${first.total}`).first().waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('from a saved recipient on the profile', async () => {
    const page = await senderPage(360);
    await page.goto(`${app.server.url}/profile`);
    const link = page.getByRole('link', { name: 'Send money to Paul Saved' });
    await expectWithinWidth(page, link, 'send to saved');
    await page.getByText('+241 74 00 01 11').waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);
    await link.click();
    await page.waitForURL((url) => url.pathname === '/transfer');
    expect(await page.getByTestId('transfer-destination').inputValue()).toBe('airtel_gabon');
    expect(await page.getByRole('textbox', { name: 'Recipient phone number' }).inputValue()).toBe('+24174000111');
    expect(await page.getByRole('textbox', { name: 'Recipient name (optional)' }).inputValue()).toBe('Paul Saved');
    await page.context().close();
  });
});

describe('action needed (the sender\'s side)', () => {
  it('comes first on the dashboard with the message; the history marks it; the sender answers in the details', async () => {
    const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
    await app.api('POST', `/api/transfer-requests/${xaf.id}/notes`, { body: ASK, visibility: 'sender', action_needed: true }, admin);

    const page = await senderPage(360);
    await page.goto(`${app.server.url}/dashboard`);
    const waiting = page.getByRole('list', { name: 'Action needed' });
    const item = waiting.getByRole('listitem').filter({ hasText: xaf.reference });
    await item.getByText(ASK).waitFor();
    // Before the counts and the lists.
    const [askedAt, statsAt] = await Promise.all([waiting.boundingBox(), page.getByRole('region', { name: 'Your transfers' }).boundingBox()]);
    expect(askedAt!.y).toBeLessThan(statsAt!.y);
    await expectWithinWidth(page, item.getByRole('link', { name: `Reply about ${xaf.reference}` }), 'reply');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
    expect(await seriousViolations(page)).toEqual([]);

    await item.getByRole('link', { name: `Reply about ${xaf.reference}` }).click();
    await page.waitForURL((url) => url.pathname === '/history' && url.searchParams.get('details') === xaf.id);
    const dialog = page.getByRole('dialog', { name: `Transfer ${xaf.reference}` });
    const thread = dialog.getByRole('region', { name: 'Messages with our team' });
    await thread.getByRole('status').filter({ hasText: ASK }).waitFor();
    await historyCard(page, xaf.reference, undefined, true).getByText('Action needed', { exact: true }).waitFor({ state: 'attached' });
    expect(await seriousViolations(page)).toEqual([]);

    await thread.getByRole('textbox', { name: 'Your message' }).fill(ANSWER);
    await thread.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('status').filter({ hasText: 'Message sent' }).first().waitFor();
    await thread.getByRole('listitem').filter({ hasText: ANSWER }).getByText('You', { exact: true }).waitFor();
    await expect.poll(() => thread.getByRole('status').filter({ hasText: ASK }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => historyCard(page, xaf.reference).getByText('Action needed', { exact: true }).count()).toBe(0);

    await page.goto(`${app.server.url}/dashboard`);
    await page.getByRole('list', { name: 'Recent transactions' }).getByText(xaf.reference).waitFor();
    expect(await page.getByRole('list', { name: 'Action needed' }).count()).toBe(0);
    await page.context().close();
  });
});

describe('cancel in the app\'s dialog (defect 9)', () => {
  it('asks in a dialog (never the browser\'s confirm); "Keep it" changes nothing; confirming cancels', async () => {
    const page = await senderPage(390);
    await page.goto(`${app.server.url}/history`);
    const card = historyCard(page, usd.reference);
    await card.getByRole('button', { name: `Cancel ${usd.reference}` }).click();
    const dialog = page.getByRole('dialog', { name: `Cancel transfer ${usd.reference}?` });
    await dialog.getByText('It will not be sent.', { exact: false }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Waiting for your payment', { exact: true }).waitFor();

    await card.getByRole('button', { name: `Cancel ${usd.reference}` }).click();
    await dialog.getByRole('button', { name: 'Cancel transfer' }).click();
    await page.getByRole('status').filter({ hasText: 'Transfer cancelled' }).first().waitFor();
    await card.getByText('Cancelled — nothing was charged', { exact: true }).waitFor();
    expect(await card.getByRole('button', { name: `Cancel ${usd.reference}` }).count()).toBe(0);
    await page.context().close();
  });
});
