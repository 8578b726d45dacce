import { beforeAll, describe, expect, it } from 'vitest';
import { useAirtelE2eApp } from './support/airtel-app.js';
import { inBothLanguages } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// Money received twice for one transfer (docs/rules/payout-rails.md#collections-that-need-a-person)
// in Chromium at 1366 px, in English and French: the sender approved Airtel's push after staff
// had recorded their payment by hand; the back office's Payouts tab lists it with both
// references and what to do, and staff record the refund they made, after which it leaves the list.

const { airtel, app } = useAirtelE2eApp();

const DESKTOP = 1366;
const PHONE = 390;
const SENDER = { email: 'twice-sender@example.test', password: 'Paid-Twice-By-Phone-43', full_name: 'Marie Nguema' };
const NUMBER = '+24177123456';
const TEXT = inBothLanguages('admin');

let senderToken: string;
let adminToken: string;

beforeAll(async () => {
  airtel.register(NUMBER, { first: 'Marie', last: 'Nguema' });
  adminToken = await app.tokenFor(BOOTSTRAP_ADMIN);
  await app.api('PUT', '/api/rails/airtel_gabon', { enabled: true }, adminToken);
  senderToken = await app.senderExists(SENDER, NUMBER);
}, 120_000);

type Exception = { kind: string; transfer: { id: string } };

/** 50,000 XAF from Marie's Airtel wallet: recorded by staff (STMT-…), then her approval of the push arrives too. */
async function paidTwice(): Promise<{ id: string; reference: string }> {
  const { data } = await app.api<{ data: { id: string; reference: string; total: string } }>('POST', '/api/payments/initiate', {
    source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '50000', currency: 'XAF',
    destination_details: { recipient_name: 'John Smith', recipient_email: 'john.smith@example.test' },
  }, senderToken);
  const before = airtel.pushes().length;
  await app.api('POST', `/api/transfer-requests/${data.id}/collect`, { msisdn: NUMBER }, senderToken);
  await expect.poll(() => airtel.pushes().length, { timeout: 15_000 }).toBeGreaterThan(before);
  await app.api('POST', `/api/transfer-requests/${data.id}/payment`, { amount: data.total, reference: `STMT-${data.reference}` }, adminToken);
  airtel.approve(airtel.pushes().at(-1)!);
  await expect.poll(async () => (await app.api<{ data: Exception[] }>('GET', '/api/payout-exceptions', undefined, adminToken)).data
    .filter((e) => e.transfer.id === data.id).map((e) => e.kind), { timeout: 20_000 }).toEqual(['collection_twice']);
  return data;
}

describe('money received twice, in the Payouts tab', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`is listed with both references and what to do; staff record the refund (${lng}, ${DESKTOP} px)`, async () => {
      const a = TEXT[lng];
      const transfer = await paidTwice();
      const page = await app.signedInPage(BOOTSTRAP_ADMIN, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: DESKTOP });
      await page.goto(`${app.server.url}/admin?tab=payouts`);
      const card = page.getByTestId(`payout-exception-${transfer.reference}`);
      await card.getByText(`${a.payouts.kind.collection_twice} · ${transfer.reference}`).waitFor();
      expect(await card.getByTestId('collection-state').textContent()).toBe(a.payouts.collection.states.succeeded);
      expect(await card.getByTestId('collection-why').textContent()).toBe(a.payouts.collection.twiceWhy.replace('{{reference}}', `STMT-${transfer.reference}`));
      await card.getByText(NUMBER, { exact: false }).first().waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(DESKTOP);
      await card.scrollIntoViewIfNeeded();
      await shot(page, `collection-twice-${lng}`);

      await card.getByLabel(a.payouts.collection.refundReference).fill(`MP-REFUND-${lng}`);
      await card.getByRole('button', { name: a.payouts.collection.recordRefund }).click();
      await card.waitFor({ state: 'detached', timeout: 20_000 });
      await page.context().close();

      // The books hold both movements of the second payment, named, on the Airtel account's board (phone width).
      const phone = await app.signedInPage(BOOTSTRAP_ADMIN, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: PHONE });
      await phone.goto(`${app.server.url}/admin?tab=reconciliation`);
      await phone.getByTestId('reconciliation-airtel_gabon').getByRole('button').click();
      const lines = phone.getByTestId('book-line').filter({ hasText: transfer.reference });
      const kinds = a.reconciliation.lists.kinds;
      await lines.filter({ hasText: kinds.duplicate_refund }).waitFor();
      expect(await lines.filter({ hasText: kinds.duplicate_payment }).count()).toBe(1);
      expect(await scrollWidth(phone)).toBeLessThanOrEqual(PHONE);
      await lines.first().scrollIntoViewIfNeeded();
      await shot(phone, `collection-twice-books-${lng}`);
      await phone.context().close();
    }, 120_000);
  }
});
