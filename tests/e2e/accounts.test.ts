import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accountLink, toasts, useE2eApp } from './support/fixtures.js';

const app = useE2eApp({ smtp: true });

const account = {
  fullName: 'Awa Ndong Mba',
  email: `awa-${randomBytes(4).toString('hex')}@example.test`,
  password: 'Secret-pass-1',
};

/** Page object of the sign-up screens (register, then verify the e-mail). */
class RegisterPage {
  constructor(readonly page: Page) {}

  field(name: string) {
    return this.page.getByRole('textbox', { name, exact: true });
  }

  async open() {
    await this.page.goto(`${app.server.url}/register`);
    await this.page.getByRole('heading', { name: 'Create your account' }).waitFor();
  }

  async submit() {
    await this.page.getByRole('main').getByRole('button', { name: 'Create account' }).click();
  }

  async fill(a: typeof account) {
    const p = this.page;
    await this.field('Full name').fill(a.fullName);
    await this.field('Email').fill(a.email);
    // The phone's country selector defaults to the United States; pick Gabon, then the national number.
    const phoneCountry = p.getByRole('combobox', { name: 'Phone country' });
    expect(await phoneCountry.inputValue()).toBe('US');
    await phoneCountry.selectOption('GA');
    await this.field('Phone').fill('06 12 34 56');
    await this.field('Password').fill(a.password);
    await p.getByText('Password strength: Strong', { exact: true }).waitFor();
    await this.field('Address').fill('12 rue de la Paix');
    // Searchable country, then the state and city that depend on it.
    await p.getByRole('combobox', { name: 'Country', exact: true }).fill('gab');
    await p.getByRole('listbox').getByRole('option', { name: 'Gabon', exact: true }).click();
    const state = p.getByRole('combobox', { name: 'State or region' });
    await expect.poll(() => state.isEnabled()).toBe(true);
    await state.selectOption({ label: 'Estuaire Province' });
    await p.getByRole('combobox', { name: 'City', exact: true }).fill('Librev');
    await p.getByRole('listbox').getByRole('option', { name: 'Libreville', exact: true }).click();
  }

  async enterCode(code: string) {
    await this.field('Verification code').fill(code);
    await this.page.getByRole('button', { name: 'Verify email' }).click();
  }
}

/** The EN/FR switcher: its visible "EN" or "FR" starts its name. */
const languageSwitcher = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^(EN|FR) – / });

describe('accounts in Chromium', () => {
  it('shows the errors under the fields, and editing a field clears its error', async () => {
    const page = await app.page();
    const register = new RegisterPage(page);
    await register.open();
    await register.submit();
    await page.getByText('Full name is required.').waitFor();
    await page.getByText('Country is required.').waitFor();
    await page.getByText('City is required.').waitFor();
    await register.field('Full name').fill('A');
    await expect.poll(() => page.getByText('Full name is required.').count()).toBe(0);
    expect(await page.getByText('City is required.').count()).toBe(1);
    await page.close();
  });

  it('signs up through the screens with the e-mailed code, signs out, signs in again, and switches to French and back', async () => {
    const page = await app.page();
    const register = new RegisterPage(page);
    await register.open();
    await page.getByText('Step 1 of 2', { exact: true }).waitFor();
    await register.fill(account);
    await register.submit();

    // Step 2: the code that reached the SMTP server.
    await page.getByText('Step 2 of 2', { exact: true }).waitFor();
    await page.getByText(`We sent a 6-digit code to ${account.email}`).waitFor();
    await register.enterCode(await app.smtp.codeFor(account.email));

    // Signed in: the e-mail-verified toast, the header shows the full name, then the dashboard after a second.
    await toasts(page).getByText('Email verified!').waitFor();
    const header = page.getByRole('banner');
    await accountLink(header, account.fullName).waitFor();
    // A new sender lands on their dashboard, not the marketing home.
    await page.waitForURL(`${app.server.url}/dashboard`);

    // Sign out: the header offers sign-in again.
    await header.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${app.server.url}/`);
    await header.getByRole('link', { name: 'Sign in' }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();

    // Sign in again.
    await page.goto(`${app.server.url}/login`);
    const main = page.getByRole('main');
    await main.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
    await main.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password');
    await main.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect(await main.getByRole('alert').textContent()).toBe('Invalid email or password.');
    await main.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
    await main.getByRole('button', { name: 'Sign in', exact: true }).click();
    await accountLink(header, account.fullName).waitFor();
    await page.waitForURL(`${app.server.url}/dashboard`);

    // The profile shows what was registered.
    await accountLink(header, account.fullName).click();
    await page.waitForURL(`${app.server.url}/profile`);
    const details = page.getByRole('form', { name: 'Your details' });
    await expect.poll(() => details.getByRole('textbox', { name: 'Full name', exact: true }).inputValue()).toBe(account.fullName);
    expect(await details.getByRole('textbox', { name: 'Phone', exact: true }).inputValue()).toContain('06 12 34 56');
    await page.getByText('No saved recipients yet.').waitFor();

    // French and back with the EN/FR switcher.
    await languageSwitcher(page).click();
    await page.getByRole('menuitemradio', { name: 'Français' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('fr');
    await page.getByRole('heading', { name: 'Profil', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Bénéficiaires enregistrés' }).waitFor();
    expect(await languageSwitcher(page).textContent()).toContain('FR');
    await languageSwitcher(page).click();
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.getByRole('heading', { name: 'Profile', exact: true }).waitFor();
    await page.close();
  });

  it('tells the person who verifies to choose a password when someone re-registered the address with another one', async () => {
    const page = await app.page();
    const owner = { ...account, email: `twice-${randomBytes(4).toString('hex')}@example.test` };
    const register = new RegisterPage(page);
    await register.open();
    await register.fill(owner);
    await register.submit();
    await page.getByText('Step 2 of 2', { exact: true }).waitFor();
    // Someone else registers the same, still unverified, address with another password.
    const other = await app.request('POST', '/api/auth/register', {
      email: owner.email, password: 'Someone-else-2', full_name: 'Someone Else', phone: '+24106123456', city: 'Libreville', country: 'GA',
    });
    expect(other.status).toBe(200);
    await app.smtp.waitFor(owner.email, /Someone Else/);
    await register.enterCode(await app.smtp.codeFor(owner.email));
    await toasts(page).getByText('We have sent you a link to choose your password.', { exact: false }).waitFor();
    await app.smtp.waitFor(owner.email, /reset-password\?token=/);
    await page.close();
  });

  it('shows no Google or Facebook button when neither is configured; an old link to Google comes back with "not available"', async () => {
    const page = await app.page();
    await page.goto(`${app.server.url}/login`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: /Continue with (Google|Facebook)/ }).count()).toBe(0);
    expect(await page.getByText('or', { exact: true }).count()).toBe(0);
    await page.goto(`${app.server.url}/api/auth/google`);
    await page.waitForURL(/\/login\?error=oauth_unavailable&provider=google$/);
    expect(await page.getByRole('main').getByRole('alert').textContent()).toBe(
      'Sign-in with Google is not available right now. Please sign in with your email and password.',
    );
    await page.close();
  });

  it('asks for an e-mail before sending a reset from the sign-in page', async () => {
    const page = await app.page();
    await page.goto(`${app.server.url}/login`);
    const main = page.getByRole('main');
    const forgot = main.getByRole('button', { name: 'Forgot password?' });
    await forgot.click();
    expect(await main.getByRole('alert').textContent()).toBe('Enter your email to reset your password.');
    await main.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
    await forgot.click();
    await main.getByText('If an account exists, a password reset email has been sent.', { exact: true }).waitFor();
    await page.close();
  });
});
