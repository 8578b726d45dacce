import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from './support/browser.js';
import { startBuiltServer, type E2eServer } from './support/server.js';

let server: E2eServer;
let browser: Browser;
beforeAll(async () => { [server, browser] = await Promise.all([startBuiltServer(), launchBrowser()]); });
afterAll(async () => { await browser?.close(); await server?.stop(); });

describe('the app shell in Chromium', () => {
  it('opens the home page', async () => {
    const page = await newPage(browser);
    const res = await page.goto(server.url);
    expect(res?.status()).toBe(200);
    await expect.poll(() => page.locator('h1').first().textContent()).toBeTruthy();
    await expect.poll(() => page.locator('header a[href="/fees"]').first().isVisible()).toBe(true);
  });

  it('sends a signed-out reload of /history to /login', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/history`);
    await page.reload();
    await page.waitForURL(/\/login$/);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('shows the 404 page for an unknown route, with a link home', async () => {
    const page = await newPage(browser);
    const res = await page.goto(`${server.url}/no/such/page`);
    expect(res?.status()).toBe(404);
    await page.getByText('Oops! Page not found').waitFor();
    await page.getByRole('link', { name: /home/i }).last().click();
    await page.waitForURL(`${server.url}/`);
  });
});
