import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toasts, type E2eApp } from '../support/fixtures.js';
import { scrollWidth } from '../support/layout.js';
import { shot } from '../support/screenshots.js';

// A sender's own data on a phone (390 px): the download of everything held about them, and the
// closure of the account, refused while a transfer is unfinished, then done (docs/rules/your-data.md).

let page: Page;
let token: string;

const SENDER = { email: `awa-${randomBytes(4).toString('hex')}@example.test`, password: 'Ogooue-River-58', full_name: 'Awa Mbina' };

export function describeYourData(app: E2eApp): void {
  describe('your data on the profile page, at 390 px', () => {
    beforeAll(async () => {
      token = await app.senderExists(SENDER);
      page = await app.signedInPage(SENDER, { width: 390 });
      await page.goto(`${app.server.url}/profile`);
      await page.getByTestId('your-data').waitFor();
    });
    afterAll(() => page.context().close());

    it('downloads a file of what the sender entered', async () => {
      const transfer = await app.transferExists(token, { recipient: 'Jean Ndong' });
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
      expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
      expect(data.profile).toMatchObject({ email: SENDER.email, full_name: SENDER.full_name });
      expect(data.transfers.map((tr: { reference: string }) => tr.reference)).toEqual([transfer.reference]);
      expect(data.transfers[0].destination_details.recipient_name).toBe('Jean Ndong');
      await shot(page, 'your-data-card-390');
    });

    it('refuses to close while a transfer is unfinished, naming it; closes once it is cancelled', async () => {
      const [transfer] = await app.sql<{ id: string; reference: string }>('select id, reference from transfer_requests where profile_id = (select id from profiles where email = $1)', [SENDER.email]);
      await page.getByRole('button', { name: 'Close my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Close your account?' });
      await dialog.getByLabel('Current password').fill(SENDER.password);
      await dialog.getByTestId('close-account-confirm').click();
      await dialog.getByTestId('close-account-error').getByText(
        `Your account cannot be closed while a transfer is unfinished: ${transfer!.reference}. Cancel it or wait until it is finished, then try again.`,
      ).waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
      await shot(page, 'your-data-close-refused-390');

      await app.api('POST', `/api/transfer-requests/${transfer!.id}/cancel`, {}, token);
      await dialog.getByTestId('close-account-confirm').click();
      await toasts(page).getByText('Your account is closed. We keep only what the law requires, for 5 years.').waitFor();
      await page.waitForURL(`${app.server.url}/`);
      await shot(page, 'your-data-closed-390');
      expect((await app.request('POST', '/api/auth/login', { email: SENDER.email, password: SENDER.password })).status).toBe(401);
      expect((await app.request('GET', '/api/profiles/me', undefined, token)).status).toBe(401);
    });
  });
}
