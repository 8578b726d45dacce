import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeCodes, profiles } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress } from './auth-fixtures.js';

let t: TestApp;
let smtp: SmtpListener;
beforeAll(async () => { ({ t, smtp } = await createMailedTestApp()); });
afterAll(async () => { await t?.close(); });

const post = (url: string, payload: object, token?: string) =>
  t.request({ method: 'POST', url, payload, token, headers: { 'x-forwarded-for': uniqueAddress() } });
const me = (token: string) => t.request({ method: 'GET', url: '/api/profiles/me', token });

const NEUTRAL = 'If an account exists, a password reset email has been sent.';

/** Asks for a reset and returns the token of the link that arrived by SMTP. */
async function resetLink(user: { email: string }): Promise<{ link: string; token: string }> {
  const before = smtp.messages.filter((m) => m.to.includes(user.email)).length;
  const res = await post('/api/auth/reset-password', { email: user.email });
  expect(res.json()).toEqual({ message: NEUTRAL });
  await expect.poll(() => smtp.messages.filter((m) => m.to.includes(user.email)).length).toBeGreaterThan(before);
  const mail = await smtp.waitFor(user.email, /reset-password\?token=/);
  const link = /(http:\/\/localhost:3000\/reset-password\?token=[\w%-]+)/.exec(mail.raw)![1]!;
  return { link, token: decodeURIComponent(new URL(link).searchParams.get('token')!) };
}

describe('forgot password', () => {
  let user: TestUser;
  beforeAll(async () => { user = await createUser(t, { full_name: 'Reset Me' }); });

  it('answers the neutral message whether or not an account exists, and mails only a real account', async () => {
    const before = smtp.messages.length;
    const unknown = await post('/api/auth/reset-password', { email: 'no-account@example.test' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ message: NEUTRAL });
    const { link } = await resetLink(user);
    expect(link).toMatch(/^http:\/\/localhost:3000\/reset-password\?token=/);
    await t.jobsDone();
    expect(smtp.messages.some((m, i) => i >= before && m.to.includes('no-account@example.test'))).toBe(false);
    const mail = await smtp.waitFor(user.email, /reset-password/);
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.raw).toContain('The link works once and for 60 minutes.');
  });

  it('asks for an e-mail ("enter email to reset")', async () => {
    const res = await post('/api/auth/reset-password', { email: '' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Enter your email to reset your password.');
  });

  it('sets the new password through the link, once, and revokes every session', async () => {
    const victim = await createUser(t);
    const otherDevice = (await post('/api/auth/login', { email: victim.email, password: victim.password, remember: true })).json().token;
    const { token } = await resetLink(victim);

    const short = await post('/api/auth/reset-password/confirm', { token, password: '123' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toBe('Password must be at least 8 characters.');
    const common = await post('/api/auth/reset-password/confirm', { token, password: 'iloveyou' });
    expect(common.statusCode).toBe(400);
    expect(common.json().fields.password).toBe('This password is one of the most common passwords and easy to guess. Choose another one.');
    const named = await post('/api/auth/reset-password/confirm', { token, password: `${victim.email.split('@')[0]}-7!` });
    expect(named.statusCode).toBe(400);
    expect(named.json().fields.password).toBe('Your password must not contain the name of your email address. Choose another one.');

    const done = await post('/api/auth/reset-password/confirm', { token, password: 'Brand-new-pass-7' });
    expect(done.statusCode).toBe(200);
    expect(done.json().message).toBe('Your password has been changed. You are signed in, and every other session was signed out.');
    expect((await me(done.json().token)).statusCode).toBe(200);
    expect((await me(victim.token)).statusCode).toBe(401);
    expect((await me(otherDevice)).statusCode).toBe(401);

    expect((await post('/api/auth/login', { email: victim.email, password: victim.password })).statusCode).toBe(401);
    expect((await post('/api/auth/login', { email: victim.email, password: 'Brand-new-pass-7' })).statusCode).toBe(200);

    const again = await post('/api/auth/reset-password/confirm', { token, password: 'Another-pass-8' });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('This reset link is invalid, already used or expired. Request a new one.');
  });

  it('keeps a link valid one hour and no longer', async () => {
    const u = await createUser(t);
    const { token } = await resetLink(u);
    const [row] = await t.database.db.select().from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.profile_id, u.id), eq(oneTimeCodes.purpose, 'reset_password')));
    expect(row!.expires_at.getTime() - row!.created_at.getTime()).toBe(3600_000);
    expect(row!.code_hash).not.toContain(token);
    await t.database.db.update(oneTimeCodes).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(oneTimeCodes.id, row!.id));
    expect((await post('/api/auth/reset-password/confirm', { token, password: 'Brand-new-pass-7' })).statusCode).toBe(400);
  });

  it('voids an older link when a newer one is sent', async () => {
    const u = await createUser(t);
    const first = await resetLink(u);
    const second = await resetLink(u);
    expect(first.token).not.toBe(second.token);
    expect((await post('/api/auth/reset-password/confirm', { token: first.token, password: 'Brand-new-pass-7' })).statusCode).toBe(400);
    expect((await post('/api/auth/reset-password/confirm', { token: second.token, password: 'Brand-new-pass-7' })).statusCode).toBe(200);
  });

  it('refuses a made-up token', async () => {
    const res = await post('/api/auth/reset-password/confirm', { token: 'made-up-token', password: 'Brand-new-pass-7' });
    expect(res.statusCode).toBe(400);
  });

  it('verifies an address that never confirmed its code: the link proves the mailbox', async () => {
    const body = registration();
    await post('/api/auth/register', body);
    const { token } = await resetLink(body);
    expect((await post('/api/auth/reset-password/confirm', { token, password: 'Brand-new-pass-7' })).statusCode).toBe(200);
    const [p] = await t.database.db.select().from(profiles).where(eq(profiles.email, body.email));
    expect(p!.email_verified_at).not.toBeNull();
  });

  it('writes the e-mail in the language of the account', async () => {
    const fr = await createUser(t, { language: 'fr', full_name: 'Aline' });
    await resetLink(fr);
    const mail = await smtp.waitFor(fr.email, /reset-password/);
    expect(mail.raw).toContain('Bonjour Aline,');
  });
});
