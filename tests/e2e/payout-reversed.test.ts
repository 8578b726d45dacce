import { beforeAll, describe, expect, it } from 'vitest';
import { useAirtelE2eApp } from './support/airtel-app.js';
import { inBothLanguages } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// A payout Airtel paid and took back (docs/rules/payout-rails.md#needs-attention) in Chromium on a
// 390 px phone, in English and French: the back office's Payouts tab lists it as sent back by the
// operator, with the operator's code, and staff pay it again through the rail with a reason
// (docs/rules/payout-rails.md#paying-again): Airtel pays once more and the transfer completes.

const { airtel, app } = useAirtelE2eApp();

const PHONE = 390;
const SENDER = { email: 'reversed-sender@example.test', password: 'Sent-Back-By-Airtel-43', full_name: 'Awa Mbina' };
const NUMBER = '+24177123456';
const TEXT = inBothLanguages('admin');

let senderToken: string;
let adminToken: string;

beforeAll(async () => {
  airtel.register(NUMBER, { first: 'Marie', last: 'Nguema' });
  adminToken = await app.tokenFor(BOOTSTRAP_ADMIN);
  await app.api('PUT', '/api/rails/airtel_gabon', { enabled: true }, adminToken);
  senderToken = await app.senderExists(SENDER);
}, 120_000);

/** 100 USD to Marie Nguema's Airtel number: paid in, paid out by Airtel, then taken back by Airtel. */
async function takenBack(): Promise<{ id: string; reference: string }> {
  const { data } = await app.api<{ data: { id: string; reference: string; total: string } }>('POST', '/api/payments/initiate', {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
    destination_details: { recipient_name: 'Marie Nguema', recipient_phone: NUMBER },
  }, senderToken);
  await app.api('POST', `/api/transfer-requests/${data.id}/payment`, { amount: data.total, reference: `STMT-${data.reference}` }, adminToken);
  const attempts = async () => (await app.api<{ data: { reference: string; state: string }[] }>('GET', `/api/transfer-requests/${data.id}/payouts`, undefined, adminToken)).data;
  await expect.poll(async () => (await attempts())[0]?.state, { timeout: 20_000 }).toBe('succeeded');
  airtel.reverse((await attempts())[0]!.reference);
  await expect.poll(async () => (await attempts())[0]?.state, { timeout: 30_000 }).toBe('reversed');
  return data;
}

describe('a payout Airtel took back, in the Payouts tab', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`is shown as sent back by the operator with its code, and paid again through the rail (${lng}, ${PHONE} px)`, async () => {
      const a = TEXT[lng];
      const transfer = await takenBack();
      const page = await app.signedInPage(BOOTSTRAP_ADMIN, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: PHONE });
      await page.goto(`${app.server.url}/admin?tab=payouts`);
      const card = page.getByTestId(`payout-exception-${transfer.reference}`);
      await card.getByText(`${a.payouts.kind.reversed} · ${transfer.reference}`).waitFor();
      expect(await card.getByTestId('attempt-state').textContent()).toBe(a.payouts.attempts.state.reversed);
      expect(await card.getByTestId('attempt-why').textContent()).toBe(a.payouts.reversedWhy.replace('{{code}}', 'DP00900001005'));
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
      await card.scrollIntoViewIfNeeded();
      await shot(page, `payout-reversed-${lng}`);

      // Staff pay it again through Airtel, with a reason: a new attempt is paid, the transfer completes and leaves the list.
      const disbursements = airtel.calls('POST', '/standard/v2/disbursements').length;
      await card.getByLabel(a.payouts.payAgainReason).fill('The recipient confirmed her wallet is active again');
      await card.getByRole('button', { name: a.payouts.payAgainRail }).click();
      await card.waitFor({ state: 'detached', timeout: 30_000 });
      const attempts = async () => (await app.api<{ data: { state: string; resolution: string | null }[] }>('GET', `/api/transfer-requests/${transfer.id}/payouts`, undefined, adminToken)).data
        .map((x) => [x.state, x.resolution]);
      await expect.poll(attempts, { timeout: 20_000 }).toEqual([['succeeded', null], ['reversed', 'retried']]);
      expect(airtel.calls('POST', '/standard/v2/disbursements')).toHaveLength(disbursements + 1);
      const seen = await app.api<{ data: { status: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, senderToken);
      expect(seen.data.status).toBe('completed');
      await page.context().close();
    }, 90_000);
  }
});
