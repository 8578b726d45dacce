import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcProvider } from '../support/oidc-provider.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { launchBrowser, newPage } from './support/browser.js';
import { startBuiltServer, type E2eServer } from './support/server.js';

let server: E2eServer;
let browser: Browser;
let smtp: SmtpListener;
let oidc: OidcProvider;

const USER = { email: 'forgetful@example.test', password: 'Marble-Lantern-42', full_name: 'Forgetful Sender' };
const NEW_PASSWORD = 'Tumbleweed-Orbit-73';

async function post(urlPath: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${urlPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** Optional screenshots for reviewers: SCREENSHOT_DIR=/tmp/shots. */
async function shot(page: Page, name: string) {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: path.join(process.env.SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

async function signIn(page: Page, password: string) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill(USER.email);
  await page.getByLabel(/^Password\W*$/).fill(password);
  await page.getByTestId('login-submit').click();
}

beforeAll(async () => {
  [smtp, oidc] = await Promise.all([new SmtpListener().start(), new OidcProvider().start()]);
  const google = { GOOGLE_CLIENT_ID: 'app-client', GOOGLE_CLIENT_SECRET: 'app-secret', GOOGLE_ISSUER: oidc.issuer };
  [server, browser] = await Promise.all([startBuiltServer({ SMTP_URL: smtp.url, ...google }), launchBrowser()]);
  expect((await post('/api/auth/register', { ...USER, phone: '+24177000001', city: 'Libreville', country: 'GA' })).status).toBe(200);
  expect((await post('/api/auth/verify-otp', { email: USER.email, otp: await smtp.codeFor(USER.email) })).status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
  await oidc?.stop();
});

describe('links carrying ?token= in Chromium', () => {
  it('the e-mailed link sets a new password, signs in, and signs out every other session', async () => {
    // A session on another device, which the reset must end.
    const oldDevice = await newPage(browser);
    await signIn(oldDevice, USER.password);
    await expect.poll(() => oldDevice.getByTestId('user-name').first().textContent()).toBe(USER.full_name);
    const oldToken = await oldDevice.evaluate(() => localStorage.getItem('auth_token'));
    expect(oldToken).toBeTruthy();

    // Ask for a link on the reset page, on a phone-sized screen.
    const page = await newPage(browser, { width: 360 });
    await page.goto(`${server.url}/reset-password`);
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByLabel('Email').fill(USER.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If an account exists, a password reset email has been sent.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'reset-request-360');

    // Open the link exactly as the mail carries it.
    const mail = await smtp.waitFor(USER.email, /\/reset-password\?token=/);
    const link = /(https?:\/\/\S+\/reset-password\?token=[\w%-]+)/.exec(mail.raw)?.[1] ?? '';
    expect(link.startsWith(`${server.url}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(page.url()).toBe(link);
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'reset-new-password-360');

    await page.getByLabel(/^New password\W*$/).fill(NEW_PASSWORD);
    await page.getByLabel(/^Confirm the new password\W*$/).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.getByTestId('toast').filter({ hasText: 'Password changed' }).waitFor();
    await page.waitForURL(`${server.url}/`);
    await page.getByTestId('mobile-menu-toggle').click();
    await expect.poll(() => page.getByTestId('mobile-user-name').textContent()).toBe(USER.full_name);

    // The link was single-use.
    await page.getByTestId('mobile-logout-button').click();
    await page.goto(link);
    await page.getByLabel(/^New password\W*$/).fill('Another-Harbor-58');
    await page.getByLabel(/^Confirm the new password\W*$/).fill('Another-Harbor-58');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect.poll(() => page.getByTestId('reset-confirm-error').textContent()).toContain('This reset link is invalid, already used or expired.');

    // The old password is refused, the new one works.
    const desk = await newPage(browser);
    await signIn(desk, USER.password);
    expect(await desk.getByTestId('login-error').textContent()).toBe('Invalid email or password.');
    await signIn(desk, NEW_PASSWORD);
    await expect.poll(() => desk.getByTestId('user-name').first().textContent()).toBe(USER.full_name);

    // The old device's session is gone: its API calls answer 401 and its pages send it to sign in.
    const me = await fetch(`${server.url}/api/profiles/me`, { headers: { authorization: `Bearer ${oldToken}` } });
    expect(me.status).toBe(401);
    await oldDevice.goto(`${server.url}/profile`);
    await oldDevice.waitForURL(`${server.url}/login`);
    await oldDevice.getByTestId('login-submit').waitFor();
  });

  it('the Google sign-in still lands on / with a ticket that signs in and leaves the address', async () => {
    oidc.signInAs({ sub: 'g-ticket', email: 'ticket@example.test', email_verified: true, name: 'Ticket Holder' });
    const page = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByTestId('oauth-google').click();
    await expect.poll(() => page.getByTestId('user-name').first().textContent()).toBe('Ticket Holder');
    expect(new URL(page.url()).search).toBe('');
  });
});
