import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toasts, type E2eApp } from '../support/fixtures.js';

// The profile page: a new e-mail asks for the current password; the password changes there with
// the current one, and every other session ends.

let page: Page;

const SENDER = { email: `mireille-${randomBytes(4).toString('hex')}@example.test`, password: 'Okoume-Forest-71', full_name: 'Mireille Obiang' };
const NEW_PASSWORD = 'Lambarene-River-93';

const detailsForm = () => page.getByRole('form', { name: 'Your details' });
const passwordForm = () => page.getByRole('form', { name: 'Password' });
const field = (form: ReturnType<typeof detailsForm>, name: string) => form.getByRole('textbox', { name, exact: true });

export function describeProfileSecurity(app: E2eApp): void {
  describe('account security on the profile page', () => {
    beforeAll(async () => {
      await app.senderExists(SENDER);
      page = await app.page();
      await app.signIn(page, SENDER);
      await page.goto(`${app.server.url}/profile`);
      await detailsForm().waitFor();
    });
    afterAll(() => page.context().close());

    it('asks for the current password before a new e-mail is sent a code', async () => {
      const form = detailsForm();
      const newEmail = `mireille-new-${randomBytes(4).toString('hex')}@example.test`;
      await field(form, 'Email').fill(newEmail);
      const current = field(form, 'Current password');
      await current.waitFor();
      const save = form.getByRole('button', { name: 'Save' });
      await save.click();
      await form.getByText('Enter your current password to confirm this change.').waitFor();

      await current.fill('not-my-password-1');
      await save.click();
      await form.getByText('Your current password is not correct. Nothing was changed.').waitFor();
      expect(app.smtp.messages.some((m) => m.to.includes(newEmail))).toBe(false);

      await current.fill(SENDER.password);
      await save.click();
      await page.getByRole('heading', { name: 'Confirm your new email' }).waitFor();
      await app.smtp.waitFor(newEmail, /\b\d{6}\b/);
    });

    it('changes the password with the current one, and the other sessions end', async () => {
      const otherDevice = await app.tokenFor(SENDER);
      const form = passwordForm();
      const change = form.getByRole('button', { name: 'Change password' });
      await field(form, 'New password').fill('password123');
      await field(form, 'Confirm the new password').fill('password123');
      await field(form, 'Current password').fill(SENDER.password);
      await change.click();
      await form.getByText('This password is one of the most common passwords and easy to guess. Choose another one.').waitFor();

      await field(form, 'New password').fill(NEW_PASSWORD);
      await field(form, 'Confirm the new password').fill(NEW_PASSWORD);
      await change.click();
      await toasts(page).getByText('Your password has been changed. Every other session was signed out.').waitFor();
      expect(await field(form, 'New password').inputValue()).toBe('');

      expect((await app.request('GET', '/api/profiles/me', undefined, otherDevice)).status).toBe(401);
      expect((await app.request('POST', '/api/auth/login', { email: SENDER.email, password: NEW_PASSWORD })).status).toBe(200);
      // This browser stays signed in.
      await page.reload();
      await passwordForm().waitFor();
    });
  });
}
