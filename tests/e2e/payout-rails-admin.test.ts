import { beforeAll, describe, expect, it } from 'vitest';
import { useAirtelE2eApp } from './support/airtel-app.js';
import { inBothLanguages } from './support/catalogs.js';
import { BOOTSTRAP_ADMIN } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// The admin's payout rails (docs/rules/payout-rails.md) in Chromium on a 390 px phone, in English
// and French: Airtel Money Gabon is configured, MTN MoMo is not (its missing variables named); the
// admin switches Airtel on, sees its float balance read from the Airtel peer, sets a warning
// level above it and sees the warning, and sees the payout waiting for float with the shortfall.

const { airtel, app } = useAirtelE2eApp();

const PHONE = 390;
const SENDER = { email: 'float-sender@example.test', password: 'Float-Waits-In-Order-43', full_name: 'Awa Sender' };
const TEXT = inBothLanguages('admin');

let admin: string;
let sender: string;

/** Waits until `read` gives `want` (the rails' balance and queue change through durable jobs). */
async function until<T>(read: () => Promise<T>, want: T, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while ((await read()) !== want) {
    if (Date.now() > end) throw new Error(`still not ${String(want)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  admin = await app.tokenFor(BOOTSTRAP_ADMIN);
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
  // 5,000 FCFA of float: a paid payout of about 60,000 FCFA waits for float.
  airtel.setFloat('XAF', '5000');
  sender = await app.senderExists(SENDER, '+33612345678');
}, 120_000);

const gabonRail = async () => (await app.api<{ data: { id: string; balance: { amount: string } | null; waiting: number }[] }>('GET', '/api/rails', undefined, admin))
  .data.find((r) => r.id === 'airtel_gabon')!;

/** A transfer to Marie Nguema's Airtel number, its payment recorded: every control cleared, it waits for float. */
async function waitingPayout(): Promise<{ id: string; reference: string }> {
  const transfer = await app.transferExists(sender, { amount: '100', recipient: 'Marie Nguema', phone: '+24177123456' });
  const { data } = await app.api<{ data: { total: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, admin);
  const before = (await gabonRail()).waiting;
  await app.api('POST', `/api/transfer-requests/${transfer.id}/payment`, { amount: data.total, reference: `PAYPAL-${transfer.reference}` }, admin);
  await until(async () => (await gabonRail()).waiting, before + 1);
  return transfer;
}

describe('the payout rails tab', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`switches Airtel Money Gabon on and shows its float, warning and queue (${lng}, ${PHONE} px)`, async () => {
      const t = TEXT[lng].rails;
      await app.api('PUT', '/api/rails/airtel_gabon', { enabled: false }, admin);
      await app.api('PUT', '/api/rails/airtel_gabon/balance-warning', { amount: null }, admin);
      const page = await app.signedInPage(BOOTSTRAP_ADMIN, { locale: lng === 'en' ? 'en-US' : 'fr-FR', width: PHONE });
      await page.goto(`${app.server.url}/admin?tab=rails`);
      await page.getByRole('heading', { name: t.title, level: 2 }).waitFor();

      // MTN MoMo is not configured: its variables are named, and it cannot be switched on.
      const mtn = page.getByTestId('rail-mtn_rwanda');
      await mtn.getByText(t.notConfigured).waitFor();
      await mtn.getByText('MTN_MOMO_API_USER').waitFor();
      expect(await mtn.getByRole('button', { name: t.switchOn.replace('{{rail}}', t.names.mtn_rwanda) }).isDisabled()).toBe(true);

      const gabon = page.getByTestId('rail-airtel_gabon');
      await gabon.getByRole('button', { name: t.switchOn.replace('{{rail}}', t.names.airtel_gabon) }).click();
      await gabon.getByRole('button', { name: t.switchOff.replace('{{rail}}', t.names.airtel_gabon) }).waitFor();
      await expect.poll(() => gabon.getByTestId('rail-enabled-airtel_gabon').textContent()).toBe(t.on);
      // The balance as Airtel gave it, and the payout waiting for float with what the float lacks.
      await expect.poll(() => gabon.getByTestId('balance-airtel_gabon').textContent(), { timeout: 15_000 }).toMatch(/5[\s\u202f\u00a0.,]?000/);
      await until(async () => (await gabonRail()).balance !== null && (await gabonRail()).waiting === 0, true);
      const waiting = await waitingPayout();
      await page.reload();
      const queue = gabon.getByTestId('float-queue-airtel_gabon');
      await queue.getByText(waiting.reference).waitFor();
      const { shortfall } = await app.api<{ data: { id: string; shortfall: string }[] }>('GET', '/api/rails', undefined, admin)
        .then((r) => r.data.find((x) => x.id === 'airtel_gabon')!);
      expect(((await queue.getByRole('status').textContent()) ?? '').replace(/\D/g, '')).toContain(shortfall);

      // A warning level above the balance: the rail warns.
      await gabon.getByLabel(t.warningLevel.replace('{{currency}}', 'XAF')).fill('10000');
      await gabon.getByRole('button', { name: t.warningSave }).click();
      await gabon.getByTestId('below-warning-airtel_gabon').waitFor();
      expect(await gabon.getByTestId('below-warning-airtel_gabon').textContent()).toBe(t.belowWarning);

      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
      await gabon.scrollIntoViewIfNeeded();
      await shot(page, `rails-admin-${lng}`);
      await queue.scrollIntoViewIfNeeded();
      await shot(page, `rails-admin-queue-${lng}`);
      await page.context().close();
    });
  }

  it("imports an Airtel export on the reconciliation board and lists what differs (en, 390 px)", async () => {
    const t = TEXT.en.operatorStatements;
    const page = await app.signedInPage(BOOTSTRAP_ADMIN, { locale: 'en-US', width: PHONE });
    await page.goto(`${app.server.url}/admin?tab=reconciliation`);
    const section = page.getByRole('region', { name: t.title });
    await section.waitFor();
    const csv = 'Transaction ID,External Reference,Transaction Date,Amount,Currency,Status\nAT-NOT-OURS-1,,28/11/2026 10:00,-2500,XAF,TS\n';
    await section.getByLabel(t.file).setInputFiles({ name: 'airtel-export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await section.getByRole('button', { name: t.submit }).click();
    await section.getByTestId('difference-not_ours').waitFor();
    await section.getByText('AT-NOT-OURS-1').first().waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'operator-statement-en');
    await page.context().close();
  });
});
