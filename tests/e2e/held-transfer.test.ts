import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import enAdmin from '../../src/locales/en/admin.json';
import enErrors from '../../src/locales/en/errors.json';
import enTransfer from '../../src/locales/en/transfer.json';
import frAdmin from '../../src/locales/fr/admin.json';
import frErrors from '../../src/locales/fr/errors.json';
import frTransfer from '../../src/locales/fr/transfer.json';
import { BOOTSTRAP_ADMIN, useE2eApp, type TransferRef } from './support/fixtures.js';
import { shot } from './support/screenshots.js';
import { sdnCsv } from '../support/sanctions-files.js';

// A transfer held by sanctions screening, in Chromium at 390 and 1366 px, in English and French
// (docs/rules/screening.md#what-the-sender-sees, docs/rules/back-office.md#held-transfers,
// docs/rules/screening.md#closing-out-a-confirmed-match): the sender reads one held state, with
// what to do and no way to pay, on the dashboard, the history, the transfer's page and the tracking
// page; staff see the hold badge, filter the queue on it, and find its moves greyed with the hold as
// reason; after a confirmed match a manager proposes the close-out and the admin confirms it; the
// sender then reads that it cannot go ahead, never why.

const app = useE2eApp({ smtp: true });
const SENDER = { email: 'held-sender@example.test', password: 'Waits-For-The-Checks-31', full_name: 'Awa Nzé' };
const MANAGER = { email: 'held-manager@example.test', password: 'Holds-And-Closes-Out-7', full_name: 'Marc Manager' };
const WORDS = {
  en: { transfer: enTransfer, admin: enAdmin, errors: enErrors },
  fr: { transfer: frTransfer, admin: frAdmin, errors: frErrors },
} as const;
const SIZES = [390, 1366] as const;
const REASON = 'Confirmed OFAC match: funds frozen, report filed with the FIU.';

let senderToken: string;
let held: TransferRef & { tracking_url: string };

async function importList(): Promise<void> {
  const token = await app.tokenFor(BOOTSTRAP_ADMIN);
  const body = new FormData();
  body.append('source', 'ofac_sdn');
  body.append('files', new Blob([sdnCsv([{ ent_num: 9301, name: 'VOLKANOV, Radomir Stepanovich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 1960.' }])], { type: 'text/csv' }), 'sdn.csv');
  const res = await fetch(`${app.server.url}/api/screening/lists`, { method: 'POST', body, headers: { authorization: `Bearer ${token}` } });
  const { data } = await res.json() as { data: { id: string } };
  // Imported by a job: followed until it is done, as the Compliance tab does.
  for (let tries = 0; (await app.api<{ data: { state: string } }>('GET', `/api/screening/lists/imports/${data.id}`, undefined, token)).data.state !== 'done'; tries++) {
    if (tries > 200) throw new Error('the list import did not finish');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  await importList();
  senderToken = await app.senderExists(SENDER);
  ({ data: held } = await app.api<{ data: TransferRef & { tracking_url: string; on_hold?: boolean } }>('POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '120', currency: 'EUR',
    destination_details: { recipient_phone: '+241 77 61 62 73', recipient_name: 'Radomir Volkanov' },
  }, senderToken));
});

/** The one held state: the sentence and "don't pay yet", never why, and nothing that pays. */
async function expectHeld(page: Page, lng: 'en' | 'fr', advice: 'heldDontPay' | 'heldNothingToDo', scope: Page | Locator = page): Promise<void> {
  const state = scope.locator(`[data-testid="sender-state"][data-state="checkingTransfer"]`).first();
  await state.waitFor();
  expect(await state.innerText()).toContain(WORDS[lng].transfer.senderState.checkingTransfer);
  expect(await state.getAttribute('data-advice')).toBe(advice);
  expect(await state.getByTestId('sender-advice').innerText()).toBe(WORDS[lng].transfer.senderAdvice[advice]);
  expect(await page.locator('main').innerText()).not.toMatch(/VOLKANOV|OFAC|[Ss]anction|score/);
  expect(await page.locator('main').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
}

describe('a held transfer in Chromium', () => {
  for (const lng of ['en', 'fr'] as const) {
    for (const width of SIZES) {
      it(`the sender reads one held state and cannot pay: dashboard, history, its page, tracking (${lng}, ${width} px)`, async () => {
        const page = await app.signedInPage(SENDER, { locale: lng, width });
        await page.goto(`${app.server.url}/dashboard`);
        await expectHeld(page, lng, 'heldDontPay');
        expect(await page.locator(`a[href="/pay/${held.id}"]`).count()).toBe(0);
        await shot(page, `held-dashboard-${lng}-${width}`);

        await page.goto(`${app.server.url}/history?details=${held.id}`);
        const dialog = page.getByRole('dialog');
        await expectHeld(page, lng, 'heldDontPay', dialog);
        expect(await dialog.getByRole('link', { name: WORDS[lng].transfer.history.payNow }).count()).toBe(0);
        await shot(page, `held-history-${lng}-${width}`);

        await page.goto(`${app.server.url}/pay/${held.id}`);
        await expectHeld(page, lng, 'heldDontPay');
        expect(await page.getByTestId('pay-instructions').count()).toBe(0);
        expect(await page.getByRole('button', { name: WORDS[lng].transfer.pay.payWithPayPal }).count()).toBe(0);
        await shot(page, `held-pay-page-${lng}-${width}`);

        await page.goto(held.tracking_url.replace(/^https?:\/\/[^/]+/, app.server.url));
        await expectHeld(page, lng, 'heldNothingToDo');
        // One clock: the held line's own, no status icon beside it.
        expect(await page.locator('main svg.lucide-clock').count()).toBe(1);
        await shot(page, `held-tracking-${lng}-${width}`);
        await page.context().close();
      });
    }
  }

  for (const lng of ['en', 'fr'] as const) {
    for (const width of SIZES) {
      it(`staff see the hold badge, filter on it, and its moves greyed with the reason (${lng}, ${width} px)`, async () => {
        if (lng === 'en' && width === 390) await (await app.staffSignedIn('manager', MANAGER)).context().close();
        const page = await app.signedInPage(MANAGER, { locale: lng, width });
        await page.goto(`${app.server.url}/admin?held=true`);
        const row = page.getByTestId('request-row').filter({ hasText: held.reference });
        await row.waitFor();
        expect(await row.getByTestId('held-badge').innerText()).toBe(WORDS[lng].admin.requests.heldBadge);
        // Every row listed is held.
        expect(await page.getByTestId('request-row').count()).toBe(await page.locator('[data-testid="request-row"][data-held="true"]').count());
        const process = row.getByRole('button', { name: WORDS[lng].admin.actions.process, exact: true });
        expect(await process.isDisabled()).toBe(true);
        expect(await row.getByRole('button', { name: WORDS[lng].admin.actions.reject, exact: true }).isDisabled()).toBe(true);
        expect(await row.getByTestId('held-reason').innerText()).toBe(WORDS[lng].errors.screening.complianceHold);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await shot(page, `held-queue-${lng}-${width}`);
        await page.context().close();
      });
    }
  }

  it('a confirmed match is closed out by a manager and the admin; the sender reads only that it cannot go ahead (1366 px, then 390 px French)', async () => {
    const adminToken = await app.tokenFor(BOOTSTRAP_ADMIN);
    const managerToken = await app.tokenFor(MANAGER);
    const { data: alerts } = await app.api<{ data: { id: string; transfer: { id: string } | null }[] }>('GET', '/api/screening/alerts?status=open', undefined, managerToken);
    const alert = alerts.find((a) => a.transfer?.id === held.id)!;
    await app.api('POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Same man: date of birth and passport match.' }, adminToken);
    await app.api('POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Agreed.' }, managerToken);

    const manager = await app.signedInPage(MANAGER, { width: 1366 });
    await manager.goto(`${app.server.url}/admin?held=true`);
    const row = manager.getByTestId('request-row').filter({ hasText: held.reference });
    await row.getByRole('button', { name: 'Details', exact: true }).click();
    const closeOut = manager.getByTestId('close-out');
    await closeOut.getByLabel(enAdmin.closeOut.reason).fill(REASON);
    await closeOut.getByRole('button', { name: enAdmin.closeOut.propose }).click();
    await closeOut.getByTestId('close-out-own').waitFor();
    expect(await closeOut.getByRole('button', { name: enAdmin.closeOut.confirm }).isDisabled()).toBe(true);
    await shot(manager, 'held-close-out-proposed-1366');

    const admin = await app.staffSignedIn('admin');
    await admin.setViewportSize({ width: 1366, height: 900 });
    await admin.goto(`${app.server.url}/admin?held=true`);
    await admin.getByTestId('request-row').filter({ hasText: held.reference }).getByRole('button', { name: 'Details', exact: true }).click();
    const adminCloseOut = admin.getByTestId('close-out');
    expect(await adminCloseOut.innerText()).toContain(REASON);
    await adminCloseOut.getByRole('button', { name: enAdmin.closeOut.confirm }).click();
    await expect.poll(() => adminCloseOut.getByTestId('close-out-state').innerText()).toMatch(/^Closed out: proposed by Marc Manager, confirmed by/);
    await shot(admin, 'held-close-out-confirmed-1366');

    const sender = await app.signedInPage(SENDER, { locale: 'fr', width: 390 });
    await sender.goto(`${app.server.url}/pay/${held.id}`);
    await sender.getByText(frTransfer.senderState.rejectedNothingCharged).first().waitFor();
    const seen = await sender.locator('main').innerText();
    expect(seen).not.toMatch(/OFAC|FIU|gelé|frozen|VOLKANOV|correspondance/);
    await shot(sender, 'held-closed-out-sender-fr-390');
  });
});
