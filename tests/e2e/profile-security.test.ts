import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpListener } from '../support/smtp-listener.js';
import { launchBrowser, newPage } from './support/browser.js';
import { startBuiltServer, type E2eServer } from './support/server.js';

// D13 on the profile page: a new e-mail asks for the current password; the password changes there
// with the current one, and every other session ends.

let server: E2eServer;
let browser: Browser;
let smtp: SmtpListener;
let page: Page;

const SENDER = { email: `mireille-${randomBytes(4).toString('hex')}@example.test`, password: 'Okoume-Forest-71', full_name: 'Mireille Obiang' };
const NEW_PASSWORD = 'Lambarene-River-93';

async function call(method: string, urlPath: string, body?: unknown, token?: string) {
  const res = await fetch(`${server.url}${urlPath}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  smtp = await new SmtpListener().start();
  [server, browser] = await Promise.all([startBuiltServer({ SMTP_URL: smtp.url }), launchBrowser()]);
  expect((await call('POST', '/api/auth/register', { ...SENDER, phone: '+24177000000', city: 'Libreville', country: 'GA' })).status).toBe(200);
  expect((await call('POST', '/api/auth/verify-otp', { email: SENDER.email, otp: await smtp.codeFor(SENDER.email) })).status).toBe(200);
  page = await newPage(browser);
  await page.goto(`${server.url}/login`);
  await page.locator('input[type="email"]').fill(SENDER.email);
  await page.locator('input[type="password"]').fill(SENDER.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname !== '/login');
  await page.goto(`${server.url}/profile`);
  await page.getByTestId('profile-form').waitFor();
});
afterAll(async () => { await browser?.close(); await server?.stop(); await smtp?.stop(); });

describe('account security on the profile page', () => {
  it('asks for the current password before a new e-mail is sent a code', async () => {
    const form = page.getByTestId('profile-form');
    const newEmail = `mireille-new-${randomBytes(4).toString('hex')}@example.test`;
    await form.getByLabel(/^Email\W*$/).fill(newEmail);
    const current = form.getByLabel(/^Current password\W*$/);
    await current.waitFor();
    await page.getByTestId('profile-save').click();
    await form.getByText('Enter your current password to confirm this change.').waitFor();

    await current.fill('not-my-password-1');
    await page.getByTestId('profile-save').click();
    await form.getByText('Your current password is not correct. Nothing was changed.').waitFor();
    expect(smtp.messages.some((m) => m.to.includes(newEmail))).toBe(false);

    await current.fill(SENDER.password);
    await page.getByTestId('profile-save').click();
    await page.getByTestId('email-confirm').waitFor();
    await smtp.waitFor(newEmail, /\b\d{6}\b/);
  });

  it('changes the password with the current one, and the other sessions end', async () => {
    const otherDevice = (await call('POST', '/api/auth/login', { email: SENDER.email, password: SENDER.password })).json.token as string;
    const form = page.getByTestId('password-form');
    await form.getByLabel(/^New password\W*$/).fill('password123');
    await form.getByLabel(/^Confirm the new password\W*$/).fill('password123');
    await form.getByLabel(/^Current password\W*$/).fill(SENDER.password);
    await page.getByTestId('password-change-submit').click();
    await form.getByText('This password is one of the most common passwords and easy to guess. Choose another one.').waitFor();

    await form.getByLabel(/^New password\W*$/).fill(NEW_PASSWORD);
    await form.getByLabel(/^Confirm the new password\W*$/).fill(NEW_PASSWORD);
    await page.getByTestId('password-change-submit').click();
    await page.getByTestId('toast').filter({ hasText: 'Your password has been changed. Every other session was signed out.' }).waitFor();
    expect(await form.getByLabel(/^New password\W*$/).inputValue()).toBe('');

    expect((await call('GET', '/api/profiles/me', undefined, otherDevice)).status).toBe(401);
    expect((await call('POST', '/api/auth/login', { email: SENDER.email, password: NEW_PASSWORD })).status).toBe(200);
    // This browser stays signed in.
    await page.reload();
    await page.getByTestId('password-form').waitFor();
  });
});
