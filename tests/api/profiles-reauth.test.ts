import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress, uniqueEmail } from './auth-fixtures.js';

// A stolen session must not become a permanent takeover. Changing the e-mail or the password
// while signed in asks for the current password, or a code mailed to the current address.

let t: TestApp;
let smtp: SmtpListener;
beforeAll(async () => { ({ t, smtp } = await createMailedTestApp()); });
afterAll(async () => { await t?.close(); });

const WRONG = 'Your current password is not correct. Nothing was changed.';
const me = (token: string) => t.request({ method: 'GET', url: '/api/profiles/me', token });
const patchMe = (token: string, payload: object, lang = 'en') =>
  t.request({ method: 'PATCH', url: '/api/profiles/me', token, payload, headers: { 'accept-language': lang } });
const putPassword = (token: string, payload: object) => t.request({ method: 'PUT', url: '/api/profiles/me/password', token, payload });
const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: { 'x-forwarded-for': uniqueAddress() } });
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email)).length;

/** An account created through Google or Facebook: no password. */
async function oauthOnlyUser(): Promise<TestUser> {
  const user = await createUser(t, { full_name: 'Google Only' });
  await t.database.db.update(profiles).set({ password_hash: null }).where(eq(profiles.id, user.id));
  return user;
}

describe('changing the e-mail asks for the current password', () => {
  it('refuses without it or with a wrong one, and changes nothing, not even the name sent along', async () => {
    const user = await createUser(t, { full_name: 'Kept Name' });
    const newEmail = uniqueEmail('thief');
    const missing = await patchMe(user.token, { email: newEmail, full_name: 'Thief' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      error: 'Enter your current password to confirm this change.',
      fields: { current_password: 'Enter your current password to confirm this change.' },
    });
    const wrong = await patchMe(user.token, { email: newEmail, full_name: 'Thief', current_password: 'guessed-password-1' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toMatchObject({ error: WRONG, fields: { current_password: WRONG } });
    expect((await me(user.token)).json().data).toMatchObject({ email: user.email, full_name: 'Kept Name' });
    await t.jobsDone();
    expect(mailsTo(newEmail)).toBe(0);
    // Name and phone alone still change with the session only.
    expect((await patchMe(user.token, { full_name: 'New Name' })).statusCode).toBe(200);
  });

  it('says so in French', async () => {
    const user = await createUser(t);
    const wrong = await patchMe(user.token, { email: uniqueEmail('fr'), current_password: 'guessed-password-1' }, 'fr');
    expect(wrong.json().fields.current_password).toBe("Votre mot de passe actuel est incorrect. Rien n’a été modifié.");
  });

  it('limits wrong current passwords per account, then refuses even the right one', async () => {
    const user = await createUser(t);
    // Wrong current passwords: 10 per hour per account (docs/rules/accounts.md#sign-in-throttling).
    for (let i = 0; i < 10; i++) {
      expect((await patchMe(user.token, { email: uniqueEmail('guess'), current_password: `guess-${i}-password` })).statusCode).toBe(403);
    }
    const limited = await putPassword(user.token, { current_password: user.password, password: 'Fresh-horse-battery-8' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^Too many attempts\. Please try again in (1 minute|\d+ minutes)\.$/);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });
});

describe('an account with only Google/Facebook confirms with a code mailed to its current address', () => {
  it('mails a code to the current address first, then accepts the change with it', async () => {
    const user = await oauthOnlyUser();
    const newEmail = uniqueEmail('moved');
    const first = await patchMe(user.token, { email: newEmail });
    expect(first.statusCode).toBe(403);
    expect(first.json()).toMatchObject({
      code: 'reauth_code_sent',
      error: `To confirm it is you, we sent a 6-digit code to ${user.email}. Enter it to make this change.`,
    });
    await t.jobsDone();
    expect(mailsTo(newEmail)).toBe(0);
    const code = await smtp.codeFor(user.email);

    const wrong = await patchMe(user.token, { email: newEmail, current_code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().fields.current_code).toBe('Invalid or expired OTP code');
    await t.jobsDone();
    expect(mailsTo(newEmail)).toBe(0);

    const ok = await patchMe(user.token, { email: newEmail, current_code: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().pending_email).toBe(newEmail);
    const confirm = await t.request({
      method: 'POST', url: '/api/profiles/me/email/confirm', token: user.token, payload: { email: newEmail, otp: await smtp.codeFor(newEmail) },
    });
    expect(confirm.statusCode).toBe(200);
    // The code served once.
    expect((await patchMe(user.token, { email: uniqueEmail('again'), current_code: code })).statusCode).toBe(403);
  });

  it('sets a first password the same way', async () => {
    const user = await oauthOnlyUser();
    expect((await me(user.token)).json().data.has_password).toBe(false);
    const first = await putPassword(user.token, { password: 'Fresh-horse-battery-8' });
    expect(first.statusCode).toBe(403);
    expect(first.json().code).toBe('reauth_code_sent');
    const done = await putPassword(user.token, { password: 'Fresh-horse-battery-8', current_code: await smtp.codeFor(user.email) });
    expect(done.statusCode).toBe(200);
    expect((await login(user.email, 'Fresh-horse-battery-8')).statusCode).toBe(200);
  });
});

describe('PUT /api/profiles/me/password', () => {
  it('changes the password with the current one and signs every other session out', async () => {
    const user = await createUser(t);
    const otherDevice = (await login(user.email, user.password)).json().token as string;
    const res = await putPassword(user.token, { current_password: user.password, password: 'Fresh-horse-battery-8' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your password has been changed. Every other session was signed out.', revoked: 1 });
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(otherDevice)).statusCode).toBe(401);
    expect((await login(user.email, user.password)).statusCode).toBe(401);
    expect((await login(user.email, 'Fresh-horse-battery-8')).statusCode).toBe(200);
    expect((await smtp.waitFor(user.email, /password was changed/)).raw).toContain('every other session was signed out');
  });

  it('refuses a missing or wrong current password, or a new password the rules forbid, and changes nothing', async () => {
    const user = await createUser(t);
    const otherDevice = (await login(user.email, user.password)).json().token as string;
    const missing = await putPassword(user.token, { password: 'Fresh-horse-battery-8' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.current_password).toBe('Enter your current password to confirm this change.');
    const wrong = await putPassword(user.token, { current_password: 'guessed-password-1', password: 'Fresh-horse-battery-8' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().fields.current_password).toBe(WRONG);
    const cases: Array<[string, string]> = [
      ['short', 'Password must be at least 8 characters.'],
      ['sunshine', 'This password is one of the most common passwords and easy to guess. Choose another one.'],
      [`${user.email.split('@')[0]}!2026`, 'Your password must not contain the name of your email address. Choose another one.'],
    ];
    for (const [password, message] of cases) {
      const res = await putPassword(user.token, { current_password: user.password, password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().fields.password).toBe(message);
    }
    expect((await me(otherDevice)).statusCode).toBe(200);
    expect((await login(user.email, user.password)).statusCode).toBe(200);
  });

  it('is 401 signed out', async () => {
    expect((await t.request({ method: 'PUT', url: '/api/profiles/me/password', payload: {} })).statusCode).toBe(401);
  });
});
