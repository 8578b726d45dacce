import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpListener } from '../support/smtp-listener.js';
import { launchBrowser, newPage } from './support/browser.js';
import { startBuiltServer, type E2eServer } from './support/server.js';

let server: E2eServer;
let browser: Browser;
let smtp: SmtpListener;
beforeAll(async () => {
  smtp = await new SmtpListener().start();
  [server, browser] = await Promise.all([startBuiltServer({ SMTP_URL: smtp.url }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

const account = {
  fullName: 'Awa Ndong Mba',
  email: `awa-${randomBytes(4).toString('hex')}@example.test`,
  password: 'Secret-pass-1',
};

/** Page object of the sign-up screens (spec §2 register and verify e-mail). */
class RegisterPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto(`${server.url}/register`);
    await this.page.getByTestId('register-form').waitFor();
  }

  async fill(a: typeof account) {
    const p = this.page;
    await p.getByLabel('Full name').fill(a.fullName);
    await p.getByLabel('Email').fill(a.email);
    // The phone's country selector defaults to the United States; pick Gabon, then the national number.
    expect(await p.getByTestId('phone-country').inputValue()).toBe('US');
    await p.getByTestId('phone-country').selectOption('GA');
    await p.getByTestId('phone-input').fill('06 12 34 56');
    await p.getByLabel(/^Password\W*$/).fill(a.password);
    await expect.poll(() => p.getByTestId('password-strength').getAttribute('data-strength')).toBe('strong');
    await p.getByLabel('Address').fill('12 rue de la Paix');
    // Searchable country, then the state and city that depend on it.
    await p.getByTestId('country-input').fill('gab');
    await p.getByRole('listbox').getByRole('option', { name: 'Gabon', exact: true }).click();
    await expect.poll(() => p.getByTestId('state-select').isEnabled()).toBe(true);
    await p.getByTestId('state-select').selectOption({ label: 'Estuaire Province' });
    await p.getByTestId('city-input').fill('Librev');
    await p.getByRole('listbox').getByRole('option', { name: 'Libreville', exact: true }).click();
  }
}

async function headerName(page: Page) {
  return page.getByTestId('user-name').first().textContent();
}

describe('accounts in Chromium', () => {
  it('shows the spec §5 errors under the fields, and editing a field clears its error', async () => {
    const page = await newPage(browser);
    const register = new RegisterPage(page);
    await register.open();
    await page.getByTestId('register-submit').click();
    await page.getByText('Full name is required.').waitFor();
    await page.getByText('Country is required.').waitFor();
    await page.getByText('City is required.').waitFor();
    await page.getByLabel('Full name').fill('A');
    await expect.poll(() => page.getByText('Full name is required.').count()).toBe(0);
    expect(await page.getByText('City is required.').count()).toBe(1);
    await page.close();
  });

  it('signs up through the screens with the e-mailed code, signs out, signs in again, and switches to French and back', async () => {
    const page = await newPage(browser);
    const register = new RegisterPage(page);
    await register.open();
    expect(await page.getByTestId('register-step').textContent()).toBe('Step 1 of 2');
    await register.fill(account);
    await page.getByTestId('register-submit').click();

    // Step 2: the code that reached the SMTP server.
    await expect.poll(() => page.getByTestId('register-step').textContent()).toBe('Step 2 of 2');
    await page.getByText(`We sent a 6-digit code to ${account.email}`).waitFor();
    const code = await smtp.codeFor(account.email);
    await page.getByTestId('otp-input').fill(code);
    await page.getByTestId('otp-submit').click();

    // Signed in: the e-mail-verified toast, the header shows the full name, then home after a second.
    await page.getByTestId('toast').filter({ hasText: 'Email verified!' }).waitFor();
    await expect.poll(() => headerName(page)).toBe(account.fullName);
    await page.waitForURL(`${server.url}/`);

    // Sign out: the header offers sign-in again.
    await page.getByTestId('logout-button').first().click();
    await page.waitForURL(`${server.url}/`);
    await page.locator('header').getByRole('link', { name: 'Sign in' }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    // Sign in again.
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel(/^Password\W*$/).fill('wrong-password');
    await page.getByTestId('login-submit').click();
    expect(await page.getByTestId('login-error').textContent()).toBe('Invalid email or password.');
    await page.getByLabel(/^Password\W*$/).fill(account.password);
    await page.getByTestId('login-submit').click();
    await expect.poll(() => headerName(page)).toBe(account.fullName);
    await page.waitForURL(`${server.url}/`);

    // The profile shows what was registered.
    await page.getByTestId('profile-button').first().click();
    await page.waitForURL(`${server.url}/profile`);
    await expect.poll(() => page.getByLabel('Full name').inputValue()).toBe(account.fullName);
    expect(await page.getByTestId('phone-input').inputValue()).toContain('06 12 34 56');
    await page.getByTestId('recipients-card').getByText('No saved recipients yet.').waitFor();

    // French and back with the EN/FR switcher.
    await page.getByTestId('language-switcher').click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('heading', { name: 'Profil', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Bénéficiaires enregistrés' }).waitFor();
    expect(await page.getByTestId('language-switcher').textContent()).toContain('FR');
    await page.getByTestId('language-switcher').click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    await page.close();
  });

  it('tells the person who verifies to choose a password when someone re-registered the address with another one', async () => {
    const page = await newPage(browser);
    const owner = { ...account, email: `twice-${randomBytes(4).toString('hex')}@example.test` };
    const register = new RegisterPage(page);
    await register.open();
    await register.fill(owner);
    await page.getByTestId('register-submit').click();
    await expect.poll(() => page.getByTestId('register-step').textContent()).toBe('Step 2 of 2');
    // Someone else registers the same, still unverified, address with another password.
    const other = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: owner.email, password: 'Someone-else-2', full_name: 'Someone Else', phone: '+24106123456', city: 'Libreville', country: 'GA' }),
    });
    expect(other.status).toBe(200);
    await smtp.waitFor(owner.email, /Someone Else/);
    await page.getByTestId('otp-input').fill(await smtp.codeFor(owner.email));
    await page.getByTestId('otp-submit').click();
    await page.getByTestId('toast').filter({ hasText: 'We have sent you a link to choose your password.' }).waitFor();
    await smtp.waitFor(owner.email, /reset-password\?token=/);
    await page.close();
  });

  it('comes back to /login with a "not available" message from an unconfigured Google button', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByTestId('oauth-google').click();
    await page.waitForURL(/\/login\?error=oauth_unavailable&provider=google$/);
    expect(await page.getByTestId('oauth-error').textContent()).toBe(
      'Sign-in with Google is not available right now. Please sign in with your email and password.',
    );
    await page.close();
  });

  it('asks for an e-mail before sending a reset from the sign-in page', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByTestId('forgot-password').click();
    expect(await page.getByTestId('reset-error').textContent()).toBe('Enter your email to reset your password.');
    await page.getByLabel('Email').fill(account.email);
    await page.getByTestId('forgot-password').click();
    await expect.poll(() => page.getByTestId('reset-message').textContent()).toBe('If an account exists, a password reset email has been sent.');
    await page.close();
  });
});
