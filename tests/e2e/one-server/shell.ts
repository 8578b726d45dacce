import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_READS } from '@core/routes.js';
import type { E2eApp } from '../support/fixtures.js';

type Heading = { title: string; description: string };
const words = (lng: 'en' | 'fr') => JSON.parse(readFileSync(path.resolve(__dirname, `../../../src/locales/${lng}/transfer.json`), 'utf8')) as Record<string, Record<string, string>>;
/** The signed-in pages' heading and lead as the translations say them, the dashboard's greeting for `name`. */
function headings(lng: 'en' | 'fr', name: string): Record<string, Heading> {
  const w = words(lng);
  return {
    '/transfer': { title: w.form!.title!, description: w.form!.description! },
    '/history': { title: w.history!.title!, description: w.history!.description! },
    '/dashboard': { title: w.dashboard!.welcome!.replace('{{name}}', name), description: w.dashboard!.description! },
  };
}
/** What shows each page is drawn by the app, not its HTML: the transfer form, the history's search, the dashboard's link to the history. */
const DRAWN: Record<string, string> = { '/transfer': 'main form', '/history': 'main form', '/dashboard': 'main a[href="/history"]' };

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

    it('signed-in pages arrive with their heading in the visitor\'s language, kept on screen until the page is drawn; the dashboard greets the sender by name from the first frame once known (390 px, English and French)', async () => {
      for (const lng of ['en', 'fr'] as const) {
        // In the HTML, the dashboard's greeting has an empty place for the name.
        for (const [route, heading] of Object.entries(headings(lng, '<span data-sender-name=""></span>'))) {
          const res = await fetch(`${app.server.url}${route}`, { headers: { 'accept-language': lng === 'fr' ? 'fr-FR,fr;q=0.9' : 'en-US' } });
          const html = await res.text();
          expect(res.status, route).toBe(200);
          expect(/<html lang="([^"]+)"/.exec(html)?.[1], route).toBe(lng);
          expect(html, route).toMatch(new RegExp(`<main[^>]*>[\\s\\S]*<h1[^>]*>${heading.title}</h1><p[^>]*>${heading.description}</p>`));
          // Not hydrated: the rest of the page is the sender's own, which the browser draws.
          expect(html, route).not.toContain('data-lng');
        }
      }
      const sender = { email: 'heading-first@example.test', password: 'Title-Before-Script-4', full_name: 'Ada Heading' };
      await app.senderExists(sender);
      for (const locale of ['en-US', 'fr-FR']) {
        const page = await app.signedInPage(sender, { locale, width: 390 });
        // The heading as seen at each frame (its text, or "hidden"), from the page's HTML parsed
        // until the test reads it.
        await page.addInitScript(() => {
          const seen: (string | null)[] = [];
          (window as unknown as { headings: typeof seen }).headings = seen;
          const look = () => {
            const h1 = document.querySelector('main h1');
            seen.push(!h1 ? null : getComputedStyle(h1).visibility === 'hidden' ? 'hidden' : h1.textContent);
            requestAnimationFrame(look);
          };
          document.addEventListener('DOMContentLoaded', look);
        });
        const headingsSeen = async (route: string) => {
          await page.goto(`${app.server.url}${route}`);
          await page.locator(DRAWN[route]!).first().waitFor();
          const seen = await page.evaluate(() => (window as unknown as { headings: (string | null)[] }).headings);
          expect(seen.length, route).toBeGreaterThan(1);
          return new Set(seen);
        };
        const expected = headings(locale === 'fr-FR' ? 'fr' : 'en', sender.full_name);
        // The first visit on this browser: the greeting stays unseen until the name is known.
        expect(await headingsSeen('/dashboard'), `/dashboard (${locale}), first visit`).toEqual(new Set(['hidden', expected['/dashboard']!.title]));
        for (const [route, heading] of Object.entries(expected)) {
          expect(await headingsSeen(route), `${route} (${locale}): the heading at every frame`).toEqual(new Set([heading.title]));
        }
        // Signed out, the name is gone with the session.
        await page.getByRole('button', { name: locale === 'fr-FR' ? 'Ouvrir le menu' : 'Open menu' }).click();
        await page.getByTestId('mobile-logout-button').click();
        await page.waitForURL(`${app.server.url}/`);
        expect(await page.evaluate(() => [localStorage.getItem('auth_token'), localStorage.getItem('auth_name')])).toEqual([null, null]);
        await page.close();
      }
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
