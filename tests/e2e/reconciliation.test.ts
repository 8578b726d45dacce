import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatMoney, type Currency } from '@core/money';
import { parseSignedMinor } from '@core/reconciliation';
import { useE2eApp, valueOf } from './support/fixtures.js';
import { shot } from './support/screenshots.js';

// Reconciliation in Chromium (docs/rules/money-states.md#reconciliation): the admin reads a
// provider account's book balance on the Reconciliation tab of /admin; a transfer Airtel Money
// Gabon (XAF) → PayPal (USD) is paid by hand and paid out, both recorded by the admin in the
// details dialog; back on the tab, Airtel's book balance moved by exactly the payment and PayPal
// USD's by exactly minus the payout. A statement balance equal to the books shows no difference,
// and a statement line carrying the payment's reference and amount is matched.

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'recon-sender@example.test', password: 'Reconciled-To-The-Unit-3', full_name: 'Rose Reconcile' };
const STATEMENT_REFERENCE = 'AIRTEL-IN-RECON-0001';
const PAYOUT_REFERENCE = 'PAYPAL-OUT-RECON-0001';
const AIRTEL = 'Airtel Money Gabon';
const PAYPAL_USD = 'PayPal (USD)';
const PHONE = 360;
const DESKTOP = 1280;

/** Money as the screen writes it ("FCFA 61,250", "-$99.53"), read back as minor units of its currency. */
function minorOf(text: string, currency: Currency): number {
  const number = text.replace(/\u2212/g, '-').replace(/[^\d.-]/g, '');
  const minor = parseSignedMinor(number, currency);
  if (minor === null) throw new Error(`not money in ${currency}: ${JSON.stringify(text)}`);
  return minor;
}

const accountCard = (page: Page, name: string): Locator =>
  page.getByRole('list', { name: 'Provider accounts' }).getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) });

async function openReconciliation(page: Page) {
  await page.goto(`${app.server.url}/admin`);
  await page.getByRole('tab', { name: 'Reconciliation' }).click();
  await page.waitForURL((url) => url.searchParams.get('tab') === 'reconciliation');
  await accountCard(page, AIRTEL).getByRole('term').first().waitFor();
}

/** The book balance a provider account's card shows, once it shows one. */
async function bookBalance(page: Page, name: string): Promise<string> {
  const card = accountCard(page, name);
  await expect.poll(() => valueOf(card, 'Book balance')).toBeTruthy();
  return (await valueOf(card, 'Book balance'))!;
}

/** Each amount the account cards show sits on one line: never cut, as "FCFA 62," over "520". */
async function moneyOnOneLine(page: Page) {
  const cut = await page.getByRole('list', { name: 'Provider accounts' }).getByRole('definition').evaluateAll((values) => values
    .filter((dd) => /^-?(FCFA|RWF|\$|€)/.test(dd.textContent ?? ''))
    .filter((dd) => dd.getBoundingClientRect().height > 1.5 * Number(getComputedStyle(dd).lineHeight.replace('px', '')))
    .map((dd) => dd.textContent));
  expect(cut).toEqual([]);
}

/** Every control of the tab, and every line of text, within the viewport's width. */
async function fitsTheWidth(page: Page) {
  const width = page.viewportSize()!.width;
  const tab = page.getByRole('tabpanel');
  const controls = tab.getByRole('button').or(tab.getByRole('textbox')).or(tab.getByLabel('CSV file'));
  for (const control of await controls.all()) {
    const box = (await control.boundingBox())!;
    expect(box.x, await control.evaluate((el) => el.outerHTML.slice(0, 120))).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, await control.evaluate((el) => el.outerHTML.slice(0, 120))).toBeLessThanOrEqual(width);
  }
  // Nothing wider than the screen: no sideways scrolling, no element spilling out of its box.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const spilling = await tab.evaluate((root) => [...root.querySelectorAll('*')]
    .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible' && el.clientWidth > 0)
    .map((el) => `${el.tagName} "${el.textContent?.slice(0, 60)}"`));
  expect(spilling).toEqual([]);
}

describe('reconciliation in Chromium', () => {
  it('the reconciliation tab shows the book balance moved by exactly the amounts; a statement balance equal to the books shows no difference; a statement line with the payment\'s reference is matched', async () => {
    const senderToken = await app.senderExists(SENDER);
    const { data: transfer } = await app.api<{ data: { id: string; reference: string } }>('POST', '/api/payments/initiate', {
      source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '60000', currency: 'XAF',
      destination_details: { recipient_email: 'jean.paypal@example.test', recipient_name: 'Jean Mba' },
    }, senderToken);

    // The admin reads the book balances before.
    const page = await app.staffSignedIn('admin');
    await openReconciliation(page);
    const airtelBefore = await bookBalance(page, AIRTEL);
    const paypalBefore = await bookBalance(page, PAYPAL_USD);

    // The admin records the payment (the total due, prefilled) and the payout in the details dialog.
    await page.goto(`${app.server.url}/admin?q=${transfer.reference}`);
    await page.getByRole('list', { name: 'Transfer requests' }).getByRole('listitem').filter({ hasText: transfer.reference })
      .getByRole('button', { name: 'Details' }).click();
    const dialog = page.getByRole('dialog');
    const payment = dialog.getByRole('form', { name: 'Record payment' });
    await payment.getByLabel('Statement reference').fill(STATEMENT_REFERENCE);
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText('Payment recorded').first().waitFor();
    const paymentBox = dialog.getByRole('region', { name: 'Payment' });
    await expect.poll(() => valueOf(paymentBox, 'State')).toBe('Received');
    const received = (await valueOf(paymentBox, 'Received'))!;
    expect(received).toBe(await valueOf(paymentBox, 'Total due'));

    await dialog.getByRole('button', { name: 'Process' }).click();
    await page.getByText('Status updated to processing successfully!').waitFor();
    const payout = dialog.getByRole('form', { name: 'Record payout' });
    await payout.getByLabel('Payout reference').fill(PAYOUT_REFERENCE);
    await payout.getByRole('button', { name: 'Record payout' }).click();
    await page.getByText('Payout recorded').first().waitFor();
    const payoutBox = dialog.getByRole('region', { name: 'Payout' });
    await expect.poll(() => valueOf(payoutBox, 'State')).toBe('Sent');
    const paidOut = (await valueOf(payoutBox, 'Amount'))!;
    await page.keyboard.press('Escape');

    // Back on the tab, after a reload: each account moved by exactly the amount, to the unit.
    await openReconciliation(page);
    const airtelAfter = await bookBalance(page, AIRTEL);
    const paypalAfter = await bookBalance(page, PAYPAL_USD);
    expect(minorOf(airtelAfter, 'XAF') - minorOf(airtelBefore, 'XAF')).toBe(minorOf(received, 'XAF'));
    expect(minorOf(paypalAfter, 'USD') - minorOf(paypalBefore, 'USD')).toBe(-minorOf(paidOut, 'USD'));
    // Written as money is written everywhere else ("FCFA 61,250", "-$99.53").
    expect(airtelAfter).toBe(formatMoney(minorOf(airtelBefore, 'XAF') + minorOf(received, 'XAF'), 'XAF', 'en'));
    expect(paypalAfter).toBe(formatMoney(minorOf(paypalBefore, 'USD') - minorOf(paidOut, 'USD'), 'USD', 'en'));
    const airtel = accountCard(page, AIRTEL);
    expect(await valueOf(airtel, 'Difference')).toBe('—');

    // A statement balance equal to the books: no difference, and the card says they agree.
    await airtel.getByRole('button', { name: `Reconcile ${AIRTEL}` }).click();
    // The account's details below the cards: one account at a time.
    const detail = page.getByRole('region', { name: AIRTEL, exact: true });
    const balanceForm = page.getByRole('form', { name: 'Enter the statement balance' });
    await balanceForm.getByLabel('Balance (XAF)').fill(String(minorOf(airtelAfter, 'XAF')));
    await balanceForm.getByRole('button', { name: 'Save balance' }).click();
    await page.getByText('Statement balance saved.').first().waitFor();
    await expect.poll(() => valueOf(airtel, 'Statement balance')).toMatch(new RegExp(`^${airtelAfter.replace(/[$.]/g, '\\$&')}\\nas of `));
    await expect.poll(() => valueOf(airtel, 'Difference')).toBe(`${formatMoney(0, 'XAF', 'en')}\nThe books and the statement agree.`);
    // The payment is in the books and on no statement yet: it explains the whole balance.
    const unmatchedBook = detail.getByRole('region', { name: 'In the books, not on a statement (1)' });
    await unmatchedBook.getByText(`Transfer ${transfer.reference} · Payment received`).waitFor();
    await expect.poll(() => valueOf(detail, 'Left unexplained')).toBe(`${formatMoney(-minorOf(received, 'XAF'), 'XAF', 'en')}\nThe difference the unmatched lines do not account for: lines missing from the imported statements, or a balance typed wrong.`);
    await page.setViewportSize({ width: DESKTOP, height: 900 });
    await moneyOnOneLine(page);
    await shot(page, 'reconciliation-1280');

    // A statement line with the payment's reference and amount: matched to the payment.
    const today = new Date().toISOString().slice(0, 10);
    const csv = `date,reference,description,amount\n${today},${STATEMENT_REFERENCE},Airtel Money in,${minorOf(received, 'XAF')}\n`;
    const importForm = page.getByRole('form', { name: 'Import statement lines (CSV)' });
    await importForm.getByLabel('CSV file').setInputFiles({ name: 'airtel-statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await importForm.getByRole('button', { name: 'Import' }).click();
    await page.getByText('1 line imported, 1 matched.').first().waitFor();
    const matched = detail.getByRole('region', { name: 'Matched (1)' });
    await matched.getByText(`Transfer ${transfer.reference} · Payment received`).waitFor();
    expect(await matched.getByText(received, { exact: true }).count()).toBe(1);
    await detail.getByRole('region', { name: 'In the books, not on a statement (0)' }).getByText('Every book line is on a statement.').waitFor();
    await detail.getByRole('region', { name: 'On a statement, not in the books (0)' }).getByText('Every statement line is in the books.').waitFor();
    await expect.poll(() => valueOf(detail, 'Left unexplained')).toMatch(new RegExp(`^${formatMoney(0, 'XAF', 'en')}\\n`));
    await expect.poll(() => valueOf(airtel, 'Difference')).toBe(`${formatMoney(0, 'XAF', 'en')}\nThe books and the statement agree.`);
    await expect.poll(async () => (await airtel.getByText(/matched ·/).textContent())?.trim())
      .toBe('1 matched · 0 in the books only · 0 on statements only');
    await shot(page, 'reconciliation-matched-1280');

    // On a phone: the same tab, every control and figure within the screen.
    await page.setViewportSize({ width: PHONE, height: 800 });
    await accountCard(page, AIRTEL).scrollIntoViewIfNeeded();
    await fitsTheWidth(page);
    await moneyOnOneLine(page);
    await shot(page, 'reconciliation-360');

    // Five cards stand between a card's button and the details it shows: the details come into view.
    await accountCard(page, PAYPAL_USD).getByRole('button', { name: `Reconcile ${PAYPAL_USD}` }).click();
    const paypal = page.getByRole('region', { name: PAYPAL_USD, exact: true });
    await paypal.getByRole('heading', { name: PAYPAL_USD, exact: true }).waitFor();
    await expect.poll(async () => {
      const box = (await paypal.getByRole('heading', { name: PAYPAL_USD, exact: true }).boundingBox())!;
      return box.y >= 64 && box.y + box.height <= page.viewportSize()!.height;
    }).toBe(true);
    await paypal.getByRole('region', { name: 'In the books, not on a statement (1)' }).getByText(`Transfer ${transfer.reference} · Payout sent`).waitFor();
  });
});
