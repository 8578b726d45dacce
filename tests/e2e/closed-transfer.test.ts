import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { BOOTSTRAP_ADMIN, useE2eApp, valueOf, type TransferRef } from './support/fixtures.js';
import { seriousViolations, withAxe } from './support/axe.js';
import { expectWithinWidth, scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// A closed transfer never asks to be paid (docs/rules/transfers.md#cancel-and-reject): the payment
// page of a rejected or cancelled transfer says what happened and what becomes of the money
// (refunded within 5-7 business days, or nothing owed), never the amount to pay, where to pay it
// or an upload; on a phone (390 px) as on a desktop.

const INSTRUCTIONS = 'PayPal: closed-transfer-test@example.test';
const app = useE2eApp({ smtp: true, env: () => ({ PAYMENT_INSTRUCTIONS_PAYPAL: INSTRUCTIONS }) });

const SENDER = { email: 'closed-sender@example.test', password: 'Closed-Transfers-Pay-0', full_name: 'Clarisse Closed' };
const REASON = 'The recipient number is not registered with Airtel.';

let senderToken: string;
let rejected: TransferRef;
let cancelled: TransferRef;
let open: TransferRef;

beforeAll(async () => {
  senderToken = await app.senderExists(SENDER);
  const admin = await app.tokenFor(BOOTSTRAP_ADMIN);
  open = await app.transferExists(senderToken, { amount: '100' });
  // Paid by hand, then rejected: the money is owed back.
  rejected = await app.transferExists(senderToken, { amount: '100' });
  await app.api('POST', `/api/transfer-requests/${rejected.id}/payment`, { amount: '104.50', reference: 'STMT-CLOSED-1' }, admin);
  await app.api('PATCH', `/api/transfer-requests/${rejected.id}`, { status: 'rejected', note: REASON }, admin);
  // Cancelled by the sender before paying: nothing owed.
  cancelled = await app.transferExists(senderToken, { amount: '50' });
  await app.api('POST', `/api/transfer-requests/${cancelled.id}/cancel`, undefined, senderToken);
});

async function paymentPage(id: string, width: number): Promise<Page> {
  const page = await app.signedInPage(SENDER, { width });
  await withAxe(page);
  await page.goto(`${app.server.url}/pay/${id}`);
  return page;
}

/** Nothing on the page asks for money: no amount to pay, no place to pay, no upload, no PayPal button. */
async function expectNoPaymentAsked(page: Page): Promise<void> {
  const text = await page.evaluate(() => document.body.innerText);
  expect(text).not.toContain('Pay the amount below');
  expect(text).not.toContain('Amount to pay');
  expect(text).not.toContain('Where to pay');
  expect(text).not.toContain(INSTRUCTIONS);
  expect(text).not.toMatch(/Quote the reference/);
  // Nor a state that reads as if it were still to come.
  expect(text).not.toMatch(/Awaiting payment|Not paid out yet/);
  expect(await page.getByTestId('pay-upload').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Pay with PayPal' }).count()).toBe(0);
}

describe('the payment page of a closed transfer', () => {
  it('while open, it asks for the payment (what a closed one must not do)', async () => {
    const page = await paymentPage(open.id, 1280);
    await page.getByRole('heading', { name: 'Pay for your transfer' }).waitFor();
    expect(await valueOf(page, 'Where to pay')).toContain(INSTRUCTIONS);
    await page.context().close();
  });

  for (const width of [390, 1280]) {
    it(`rejected after payment, at ${width} px: says it was stopped, why, and that the payment comes back within 5-7 business days`, async () => {
      const page = await paymentPage(rejected.id, width);
      await page.getByRole('heading', { name: 'Transfer rejected' }).waitFor();
      const notice = page.getByTestId('pay-closed');
      await notice.getByText('We stopped this transfer: it will not be sent. Do not pay for it.').waitFor();
      await notice.getByText(`Reason: ${REASON}`).waitFor();
      await notice.getByText('We received your payment of $104.50: it will be refunded to you within 5-7 business days.').waitFor();
      await expectNoPaymentAsked(page);
      expect(await valueOf(page, 'Total')).toBe('$104.50');
      expect(await valueOf(page, 'Reference')).toBe(rejected.reference);
      await expectWithinWidth(page, notice, 'closed notice');
      expect(await scrollWidth(page)).toBeLessThanOrEqual(width);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `closed-rejected-${width}`);
      await page.context().close();
    });
  }

  it('cancelled before payment, on a phone: says it was cancelled and that nothing is owed or charged', async () => {
    const page = await paymentPage(cancelled.id, 390);
    await page.getByRole('heading', { name: 'Transfer cancelled' }).waitFor();
    const notice = page.getByTestId('pay-closed');
    await notice.getByText('You cancelled this transfer: it will not be sent. Do not pay for it.').waitFor();
    await notice.getByText('No payment was received: nothing is owed, and nothing will be charged.').waitFor();
    await expectNoPaymentAsked(page);
    await expectWithinWidth(page, notice, 'closed notice');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'closed-cancelled-390');
    await page.context().close();
  });

  it('in French', async () => {
    const page = await app.signedInPage(SENDER, { width: 390, locale: 'fr-FR' });
    await page.goto(`${app.server.url}/pay/${rejected.id}`);
    await page.getByRole('heading', { name: 'Transfert rejeté' }).waitFor();
    await page.getByTestId('pay-closed').getByText(/il vous sera remboursé sous 5 à 7 jours ouvrés/).waitFor();
    expect(await page.evaluate(() => document.body.innerText)).not.toMatch(/Montant à payer|Où payer/);
    await page.context().close();
  });
});
