import { describe, expect, it } from 'vitest';
import { PAGE_READS } from '@core/routes.js';
import type { E2eApp } from '../support/fixtures.js';

export function describeShell(app: E2eApp): void {
  describe('the app shell in Chromium', () => {
    it('opens the home page', async () => {
      const page = await app.page();
      const res = await page.goto(app.server.url);
      expect(res?.status()).toBe(200);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).first().textContent()).toBeTruthy();
      await expect.poll(() => page.getByRole('banner').getByRole('link', { name: 'Fees', exact: true }).first().isVisible()).toBe(true);
    });

    it('sends a signed-out reload of /history to /login', async () => {
      const page = await app.page();
      await page.goto(`${app.server.url}/history`);
      await page.reload();
      await page.waitForURL(/\/login$/);
      expect(new URL(page.url()).pathname).toBe('/login');
    });

    it('shows the 404 page for an unknown route, with a link home', async () => {
      const page = await app.page();
      const res = await page.goto(`${app.server.url}/no/such/page`);
      expect(res?.status()).toBe(404);
      await page.getByText('Oops! Page not found').waitFor();
      await page.getByRole('link', { name: /home/i }).last().click();
      await page.waitForURL(`${app.server.url}/`);
    });

    it('a signed-in page opening asks each read it lists in PAGE_READS once, early, and takes every early answer (none wasted, none asked twice)', async () => {
      const sender = { email: 'early-reads@example.test', password: 'Boot-Script-Answers-7', full_name: 'Ada Early' };
      // With a transfer: the dashboard and the history read the fees for each transfer's delivery time.
      await app.transferExists(await app.senderExists(sender));
      for (const [path, reads] of Object.entries(PAGE_READS)) {
        const page = await app.signedInPage(sender);
        const asked: string[] = [];
        page.on('request', (request) => {
          const url = new URL(request.url());
          if (request.method() === 'GET' && url.pathname.startsWith('/api/')) asked.push(url.pathname + url.search);
        });
        await page.goto(`${app.server.url}${path}`);
        await page.waitForLoadState('networkidle');
        for (const read of ['/api/profiles/me', ...reads]) expect(asked.filter((a) => a === read), `${path} asks ${read}`).toHaveLength(1);
        const untaken = await page.evaluate(() => Object.entries((window as { __earlyReads?: { answers: Record<string, unknown> } }).__earlyReads?.answers ?? {})
          .filter(([, answer]) => answer !== undefined).map(([read]) => read));
        expect(untaken, `${path}: early answers the page never took`).toEqual([]);
        await page.close();
      }
    });
  });
}
