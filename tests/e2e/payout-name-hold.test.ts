import { beforeAll, describe, expect, it } from 'vitest';
import { useAirtelE2eApp } from './support/airtel-app.js';
import { catalog } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// A name the operator does not recognise (docs/rules/payout-rails.md#name-check) in Chromium on a
// 390 px phone, in English and French: a transfer of 1,500 USD to Marie Nguema at a number Airtel
// registered to Paul Obame waits for staff with both names; a manager proposes to pay anyway with
// a reason, which alone pays nothing; the admin, a second staff member, confirms it; Airtel pays
// it once, and the recipient's tracking page says it is completed.

const { airtel, app } = useAirtelE2eApp();

const PHONE = 390;
const SENDER = { email: 'name-hold-sender@example.test', password: 'Pay-The-Right-Person-43', full_name: 'Awa Ondo' };
const MANAGER = { email: 'name-hold-manager@example.test', password: 'Proposes-Not-Alone-43', full_name: 'Moïse Manager' };
const NUMBER = '+24177654321';
const HER_NUMBER = '+24177123456';
const TEXT = { en: { admin: catalog('en', 'admin'), transfer: catalog('en', 'transfer') }, fr: { admin: catalog('fr', 'admin'), transfer: catalog('fr', 'transfer') } } as const;

let senderToken: string;
let adminToken: string;

beforeAll(async () => {
  airtel.register(NUMBER, { first: 'Paul', last: 'Obame' });
  airtel.register(HER_NUMBER, { first: 'Marie', last: 'Nguema' });
  adminToken = await app.tokenFor(BOOTSTRAP_ADMIN);
  await app.api('PUT', '/api/rails/airtel_gabon', { enabled: true }, adminToken);
  senderToken = await app.senderExists(SENDER);
  await (await app.staffSignedIn('manager', MANAGER)).context().close();
}, 120_000);

/** 1,500 USD (at or above the USD approval threshold) to Marie Nguema at Paul Obame's number: paid, approved, then stopped by its name. */
async function heldTransfer(): Promise<{ id: string; reference: string }> {
  const { data } = await app.api<{ data: { id: string; reference: string; total: string } }>('POST', '/api/payments/initiate', {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '1500', currency: 'USD',
    destination_details: { recipient_name: 'Marie Nguema', recipient_phone: NUMBER },
  }, senderToken);
  await app.api('POST', `/api/transfer-requests/${data.id}/payment`, { amount: data.total, reference: `STMT-${data.reference}` }, adminToken);
  await app.api('POST', `/api/transfer-requests/${data.id}/approve`, {}, await app.tokenFor(MANAGER));
  await expect.poll(async () => (await app.api<{ data: { transfer: { id: string } }[] }>('GET', '/api/payout-exceptions', undefined, adminToken))
    .data.some((e) => e.transfer.id === data.id), { timeout: 20_000 }).toBe(true);
  return data;
}

describe('a name Airtel does not recognise, paid anyway by two staff members', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`waits for staff with both names; a manager proposes, the admin confirms, and it is delivered (${lng}, ${PHONE} px)`, async () => {
      const a = TEXT[lng].admin;
      const locale = lng === 'en' ? 'en-US' : 'fr-FR';
      const transfer = await heldTransfer();
      const before = airtel.calls('POST', '/standard/v2/disbursements').length;

      const manager = await app.signedInPage(MANAGER, { locale, width: PHONE });
      await manager.goto(`${app.server.url}/admin?tab=payouts`);
      const card = manager.getByTestId(`payout-exception-${transfer.reference}`);
      await card.getByText(a.payouts.kind.name_hold, { exact: false }).first().waitFor();
      expect(await card.getByTestId('hold-recipient-name').textContent()).toBe('Marie Nguema');
      expect(await card.getByTestId('hold-registered-name').textContent()).toBe('Paul Obame');
      await card.getByText(a.payouts.outcome.mismatch, { exact: false }).waitFor();
      await card.getByText(a.payouts.fourEyes).waitFor();
      await shot(manager, `name-hold-queue-${lng}`);

      // No reason: nothing is sent.
      await card.getByRole('button', { name: a.payouts.proposePayAnyway }).click();
      await card.getByText(a.payouts.reasonRequired).waitFor();
      await card.getByLabel(a.payouts.reason).fill('Paul Obame is her husband: she confirmed by phone.');
      await card.getByRole('button', { name: a.payouts.proposePayAnyway }).click();
      await card.getByText(a.payouts.proposedByYou).waitFor();
      expect(await card.getByRole('button', { name: a.payouts.confirmPayAnyway }).count()).toBe(0);
      await shot(manager, `name-hold-proposed-${lng}`);
      expect(await scrollWidth(manager)).toBeLessThanOrEqual(PHONE);
      expect(airtel.calls('POST', '/standard/v2/disbursements').length).toBe(before);
      await manager.context().close();

      const admin = await app.signedInPage(BOOTSTRAP_ADMIN, { locale, width: PHONE });
      await admin.goto(`${app.server.url}/admin?tab=payouts`);
      const theirs = admin.getByTestId(`payout-exception-${transfer.reference}`);
      await theirs.getByTestId('hold-proposed').waitFor();
      await theirs.getByRole('button', { name: a.payouts.confirmPayAnyway }).click();
      await theirs.waitFor({ state: 'detached', timeout: 15_000 });
      await shot(admin, `name-hold-confirmed-${lng}`);
      await admin.context().close();

      await expect.poll(async () => (await app.api<{ data: { status: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, senderToken)).data.status,
        { timeout: 20_000 }).toBe('completed');
      expect(airtel.calls('POST', '/standard/v2/disbursements').length).toBe(before + 1);

      // The recipient's tracking page says so.
      const { data } = await app.api<{ data: { tracking_url: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, senderToken);
      const visitor = await app.page({ locale, width: PHONE });
      await visitor.goto(`${app.server.url}${new URL(data.tracking_url).pathname}`);
      await visitor.getByTestId('tracking-status').waitFor();
      expect(await visitor.getByTestId('tracking-status').textContent()).toBe(TEXT[lng].transfer.status.completed);
      await shot(visitor, `name-hold-tracking-${lng}`);
      expect(await scrollWidth(visitor)).toBeLessThanOrEqual(PHONE);
      await visitor.context().close();
    }, 180_000);
  }
});

describe('the sender asked to correct the recipient', () => {
  it('staff ask; the sender corrects the number on the transfer\'s page, and it is paid once (en, 390 px)', async () => {
    const a = TEXT.en.admin;
    const tr = TEXT.en.transfer;
    const transfer = await heldTransfer();
    const staff = await app.signedInPage(BOOTSTRAP_ADMIN, { width: PHONE });
    await staff.goto(`${app.server.url}/admin?tab=payouts`);
    const card = staff.getByTestId(`payout-exception-${transfer.reference}`);
    await card.getByRole('button', { name: a.payouts.askSender }).click();
    await card.waitFor({ state: 'detached', timeout: 15_000 });
    await staff.context().close();

    const sender = await app.signedInPage(SENDER, { width: PHONE });
    await sender.goto(`${app.server.url}/pay/${transfer.id}`);
    const form = sender.getByTestId('recipient-correction');
    await form.getByRole('heading', { name: tr.correction.title }).waitFor();
    expect(await form.getByLabel(tr.correction.phone).inputValue()).toBe(NUMBER);
    await shot(sender, 'name-hold-correction-en');
    const before = airtel.calls('POST', '/standard/v2/disbursements').length;
    await form.getByLabel(tr.correction.phone).fill('+241 77 12 34 56');
    await form.getByRole('button', { name: tr.correction.submit }).click();
    await sender.getByTestId('correction-saved').waitFor();
    await shot(sender, 'name-hold-corrected-en');
    expect(await scrollWidth(sender)).toBeLessThanOrEqual(PHONE);
    await sender.context().close();
    await expect.poll(async () => (await app.api<{ data: { status: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, senderToken)).data.status,
      { timeout: 20_000 }).toBe('completed');
    expect(airtel.calls('POST', '/standard/v2/disbursements').length).toBe(before + 1);
  }, 180_000);
});
