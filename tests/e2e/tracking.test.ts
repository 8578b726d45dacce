import { formatMoney, parseAmount } from '@core/money.js';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations, withAxe } from './support/axe.js';
import { inBothLanguages } from './support/catalogs.js';
import { useE2eApp, type TransferRef } from './support/fixtures.js';
import { scrollWidth } from './support/layout.js';
import { shot } from './support/screenshots.js';

// The recipient's tracking link (docs/rules/transfers.md#tracking-link) in Chromium: opened signed out on a 360 px phone, in English
// and French (and switched with the EN/FR switcher), it shows the status, the first name and the
// amount to receive, and neither the page nor its API answer carries the sender's e-mail or the
// full phone number. The sender turns it off from the history's details (the app's dialog asks
// first): the page then says the link is not found; a new link works again. axe on every screen.

const app = useE2eApp({ smtp: true });

const SENDER = { email: 'tracking-sender@example.test', password: 'Follow-The-Money-15', full_name: 'Awa Tracking' };
const SENDER_PHONE = '+24174555666';
const RECIPIENT_PHONE = '+24177123456';
const PHONE = 360;
const TEXT = inBothLanguages('transfer');

let token: string;
let trackingPath: string;
let payoutAmount: string;

beforeAll(async () => {
  token = await app.senderExists(SENDER, SENDER_PHONE);
  const transfer = await app.transferExists(token, { amount: '100', recipient: 'Marie Nguema', phone: RECIPIENT_PHONE });
  ({ path: trackingPath, payout: payoutAmount } = await trackingOf(transfer));
});

/** The path of the transfer's tracking link, as the owner's transfer JSON gives it, and the amount to receive. */
async function trackingOf(transfer: TransferRef): Promise<{ path: string; payout: string }> {
  const { data } = await app.api<{ data: { tracking_url: string | null; payout_amount: string } }>('GET', `/api/transfer-requests/${transfer.id}`, undefined, token);
  expect(data.tracking_url).toMatch(/\/t\/[A-Za-z0-9_-]{24}$/);
  return { path: new URL(data.tracking_url!).pathname, payout: data.payout_amount };
}

/** A signed-out phone page with axe-core in every document. */
async function visitor(locale: string): Promise<Page> {
  const page = await app.page({ locale, width: PHONE });
  await withAxe(page);
  return page;
}

/** What the sender's details must never leak: e-mail, name, phone, and the recipient's full number however written. */
const SECRETS = [SENDER.email, SENDER.full_name, SENDER_PHONE, '74555666', RECIPIENT_PHONE, '77123456', '77 12 34 56'];

describe('the tracking page, signed out', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`shows the status, the first name and the amount to receive, and nothing of the sender (${lng}, ${PHONE} px, axe)`, async () => {
      const page = await visitor(lng === 'en' ? 'en-US' : 'fr-FR');
      await page.goto(`${app.server.url}${trackingPath}`);
      const t = TEXT[lng].tracking;
      await page.getByRole('heading', { level: 1, name: t.heading.replace('{{name}}', 'Marie') }).waitFor();
      expect(await page.getByTestId('tracking-status').textContent()).toBe(TEXT[lng].status.pending);
      await page.getByText(t.statusText.pending).waitFor();
      const payout = parseAmount(payoutAmount, 'XAF')!;
      expect(await page.getByTestId('tracking-amount').textContent()).toBe(formatMoney(payout, 'XAF', lng));
      // The number masked but its last 3 digits, read out as "ending in 456".
      await page.getByLabel(t.phoneEnding.replace('{{digits}}', '456')).waitFor();
      // Unpaid: no arrival time is promised, and the number is one "to be paid", not "paid".
      await page.getByText(t.phoneToBePaid, { exact: true }).waitFor();
      expect(await page.getByText(TEXT[lng].delivery.label).count()).toBe(0);

      const html = await page.content();
      const answer = await page.evaluate(async (p) => (await fetch(`/api/track/${p.split('/').pop()}`)).text(), trackingPath);
      expect(answer).toContain('"recipient_first_name":"Marie"');
      for (const secret of SECRETS) {
        expect(html, secret).not.toContain(secret);
        expect(answer, secret).not.toContain(secret);
      }
      expect(html).not.toContain('Nguema');
      await shot(page, `tracking-${lng}`);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });
  }

  it('switches to French with the EN/FR switcher', async () => {
    const page = await visitor('en-US');
    await page.goto(`${app.server.url}${trackingPath}`);
    await page.getByText(TEXT.en.tracking.amount).waitFor();
    await page.getByRole('banner').getByRole('button', { name: /^(EN|FR) – / }).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await page.getByText(TEXT.fr.tracking.amount).waitFor();
    await page.getByText(TEXT.fr.tracking.statusText.pending).waitFor();
    await page.context().close();
  });
});

describe('the sender turns the link off from the history, then makes a new one', () => {
  for (const lng of ['en', 'fr'] as const) {
    it(`in ${lng === 'en' ? 'English' : 'French'}: the old link says "not found", the new one works`, async () => {
      const t = TEXT[lng].tracking;
      const mine = await app.transferExists(token, { amount: '50', recipient: 'Paul Obame', phone: RECIPIENT_PHONE });
      const { path: oldPath } = await trackingOf(mine);
      const page = await app.signedInPage(SENDER, { width: PHONE, locale: lng === 'en' ? 'en-US' : 'fr-FR' });
      await withAxe(page);
      page.on('dialog', (dialog) => { throw new Error(`native ${dialog.type()} dialog: ${dialog.message()}`); });
      await page.goto(`${app.server.url}/history`);
      await page.getByRole('button', { name: TEXT[lng].history.detailsOf.replace('{{reference}}', mine.reference) }).click();

      const details = page.getByRole('dialog');
      const share = details.getByRole('region', { name: t.share.title });
      expect(await share.getByRole('textbox', { name: t.share.linkLabel }).inputValue()).toBe(`${app.server.url}${oldPath}`);
      await share.getByRole('button', { name: t.share.copy }).waitFor();
      await shot(page, `tracking-share-${lng}`);
      const whatsapp = share.getByRole('link', { name: t.share.whatsappLabel });
      expect(decodeURIComponent((await whatsapp.getAttribute('href'))!)).toContain(`${app.server.url}${oldPath}`);
      expect(await seriousViolations(page)).toEqual([]);

      await share.getByRole('button', { name: t.share.revoke }).click();
      const confirm = page.getByRole('dialog', { name: t.share.revokeConfirm });
      await confirm.getByText(t.share.revokeText).waitFor();
      await confirm.getByRole('button', { name: t.share.revoke }).click();
      await share.getByText(t.share.off).waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(PHONE);

      const recipient = await visitor(lng === 'en' ? 'en-US' : 'fr-FR');
      await recipient.goto(`${app.server.url}${oldPath}`);
      await recipient.getByRole('heading', { level: 1, name: t.notFoundTitle }).waitFor();
      await recipient.getByText(t.notFoundText).waitFor();
      await shot(recipient, `tracking-not-found-${lng}`);
      expect(await scrollWidth(recipient)).toBeLessThanOrEqual(PHONE);
      expect(await seriousViolations(recipient)).toEqual([]);

      await share.getByRole('button', { name: t.share.renew }).click();
      const link = share.getByRole('textbox', { name: t.share.linkLabel });
      await link.waitFor();
      const newUrl = await link.inputValue();
      expect(newUrl).not.toBe(`${app.server.url}${oldPath}`);
      await recipient.goto(newUrl);
      await recipient.getByRole('heading', { level: 1, name: t.heading.replace('{{name}}', 'Paul') }).waitFor();
      await recipient.goto(`${app.server.url}${oldPath}`);
      await recipient.getByRole('heading', { level: 1, name: t.notFoundTitle }).waitFor();
      await recipient.context().close();
      await page.context().close();
    });
  }
});
