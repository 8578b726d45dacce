import { describe, expect, it } from 'vitest';
import { useE2eApp } from './support/fixtures.js';

const app = useE2eApp();

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
});
