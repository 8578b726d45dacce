import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountLink, submitSignIn, toasts, useE2eApp } from './support/fixtures.js';
import { shot } from './support/screenshots.js';

const app = useE2eApp({
  smtp: true,
  oidc: true,
  env: ({ oidc }) => ({ GOOGLE_CLIENT_ID: 'app-client', GOOGLE_CLIENT_SECRET: 'app-secret', GOOGLE_ISSUER: oidc.issuer }),
});

const USER = { email: 'forgetful@example.test', password: 'Marble-Lantern-42', full_name: 'Forgetful Sender' };
const NEW_PASSWORD = 'Tumbleweed-Orbit-73';

const signIn = (page: Page, password: string) => submitSignIn(page, app.server.url, { email: USER.email, password });

/** The new-password form, filled in and sent. */
async function chooseNewPassword(page: Page, password: string) {
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(password);
  await page.getByRole('textbox', { name: 'Confirm the new password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Save new password' }).click();
}

beforeAll(async () => {
  await app.senderExists(USER, '+24177000001');
});

describe('links carrying ?token= in Chromium', () => {
  it('the e-mailed link sets a new password, signs in, and signs out every other session', async () => {
    // A session on another device, which the reset must end.
    const oldDevice = await app.page();
    await signIn(oldDevice, USER.password);
    await accountLink(oldDevice.getByRole('banner'), USER.full_name).waitFor();
    const oldToken = await oldDevice.evaluate(() => localStorage.getItem('auth_token'));
    expect(oldToken).toBeTruthy();

    // Ask for a link on the reset page, on a phone-sized screen.
    const page = await app.page({ width: 360 });
    await page.goto(`${app.server.url}/reset-password`);
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(USER.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('If an account exists, a password reset email has been sent.').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'reset-request-360');

    // Open the link exactly as the mail carries it.
    const mail = await app.smtp.waitFor(USER.email, /\/reset-password\?token=/);
    const link = /(https?:\/\/\S+\/reset-password\?token=[\w%-]+)/.exec(mail.raw)?.[1] ?? '';
    expect(link.startsWith(`${app.server.url}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(page.url()).toBe(link);
    // Nothing wider than the phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await shot(page, 'reset-new-password-360');

    await chooseNewPassword(page, NEW_PASSWORD);
    await toasts(page).getByText('Password changed').waitFor();
    await page.waitForURL(`${app.server.url}/`);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main (mobile)' });
    await accountLink(menu, USER.full_name).waitFor();

    // The link was single-use.
    await menu.getByRole('button', { name: 'Log out' }).click();
    await page.goto(link);
    await chooseNewPassword(page, 'Another-Harbor-58');
    await page.getByRole('main').getByRole('alert').filter({ hasText: 'This reset link is invalid, already used or expired.' }).waitFor();

    // The old password is refused, the new one works.
    const desk = await app.page();
    await signIn(desk, USER.password);
    expect(await desk.getByRole('main').getByRole('alert').textContent()).toBe('Invalid email or password.');
    await signIn(desk, NEW_PASSWORD);
    await accountLink(desk.getByRole('banner'), USER.full_name).waitFor();

    // The old device's session is gone: its API calls answer 401 and its pages send it to sign in.
    expect((await app.request('GET', '/api/profiles/me', undefined, oldToken!)).status).toBe(401);
    await oldDevice.goto(`${app.server.url}/profile`);
    await oldDevice.waitForURL(`${app.server.url}/login`);
    await oldDevice.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  });

  it('the Google sign-in still lands on / with a ticket that signs in and leaves the address', async () => {
    app.oidc.signInAs({ sub: 'g-ticket', email: 'ticket@example.test', email_verified: true, name: 'Ticket Holder' });
    const page = await app.page();
    await page.goto(`${app.server.url}/login`);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await accountLink(page.getByRole('banner'), 'Ticket Holder').waitFor();
    expect(new URL(page.url()).search).toBe('');
  });
});
