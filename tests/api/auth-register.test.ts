import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oneTimeCodes, profiles } from '@server/db/schema.js';
import { verifyPassword } from '@server/modules/auth/password.js';
import { createUser } from '../support/factories.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress } from './auth-fixtures.js';

let t: TestApp;
let smtp: SmtpListener;
beforeAll(async () => { ({ t, smtp } = await createMailedTestApp()); });
afterAll(async () => { await t?.close(); });

/** Each call from its own address: these tests are about codes, not address limits. */
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url, payload, headers: { 'x-forwarded-for': uniqueAddress(), ...headers } });

async function registerAndGetCode(overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const body = registration(overrides);
  const res = await post('/api/auth/register', body, headers);
  expect(res.statusCode, res.body).toBe(200);
  return { body, otp: await smtp.codeFor(body.email) };
}

/** The code of the newest mail to `email` that names `name` (the registration it answers). */
async function codeInMailNaming(email: string, name: string) {
  const mail = await smtp.waitFor(email, new RegExp(name.replace(/\./g, '\\.')));
  return /\b(\d{6})\b/.exec(mail.raw.split(/\r?\n\r?\n/).slice(1).join('\n'))![1]!;
}

const wrongCode = (otp: string) => String((Number(otp) + 1) % 1_000_000).padStart(6, '0');

describe('sign-up with a code e-mailed over SMTP', () => {
  it('registers, delivers the code to the SMTP server, and the code verifies and signs in', async () => {
    const body = registration();
    const res = await post('/api/auth/register', body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ requiresVerification: true, message: `We sent a 6-digit code to ${body.email}. Enter it to verify your email.` });

    const mail = await smtp.waitFor(body.email, /verification code/);
    expect(mail.raw).toContain('Content-Type: text/plain');
    expect(mail.raw).toContain('Content-Type: text/html');
    expect(mail.raw).toContain('Hello Awa Ndong,');
    const otp = await smtp.codeFor(body.email);
    expect(otp).toMatch(/^\d{6}$/);

    const [stored] = await t.database.db.select().from(profiles).where(eq(profiles.email, body.email));
    expect(stored).toMatchObject({ role: 'user', email_verified_at: null, phone: '+24106123456', country: 'GA', city: 'Libreville', state: 'Estuaire Province' });
    expect(stored!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(stored!.password_hash, body.password)).toBe(true);

    const verified = await post('/api/auth/verify-otp', { email: body.email, otp });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().message).toBe('Email verified!');
    const { token } = verified.json();
    const me = await t.request({ method: 'GET', url: '/api/profiles/me', token });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ email: body.email, full_name: 'Awa Ndong', role: 'user', email_verified: true, language: 'en' });

    // Used once: the same code cannot verify again.
    expect((await post('/api/auth/verify-otp', { email: body.email, otp })).statusCode).toBe(400);
  });

  it('keeps the language of the sign-up on the profile and writes the e-mail in it', async () => {
    const { body } = await registerAndGetCode({}, { 'accept-language': 'fr-FR,fr;q=0.9' });
    const mail = await smtp.waitFor(body.email);
    expect(mail.raw).toContain('Bonjour Awa Ndong,');
    expect(mail.raw).toContain('Saisissez ce code pour v');
    const [stored] = await t.database.db.select().from(profiles).where(eq(profiles.email, body.email));
    expect(stored!.language).toBe('fr');
  });

  it('answers an address already verified with the spec message, and nothing more', async () => {
    const existing = await createUser(t);
    const res = await post('/api/auth/register', registration({ email: existing.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'This email is already registered. Please sign in instead.', code: 'email_already_registered' });
  });

  it('tells whether an address is registered at most 5 times an hour per e-mail address, from any client address', async () => {
    // docs/rules/accounts.md#sign-in-throttling: sign-up 5 per hour per account.
    const existing = await createUser(t);
    for (let i = 0; i < 5; i++) {
      // Each try as written by another hand (case and spaces): the same address all the same.
      const email = i % 2 ? ` ${existing.email.toUpperCase()} ` : existing.email;
      expect((await post('/api/auth/register', registration({ email }))).statusCode).toBe(409);
    }
    const sixth = await post('/api/auth/register', registration({ email: existing.email }));
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ code: 'rate_limited' });
    expect(sixth.json().error).toMatch(/^Too many attempts\. Please try again in \d+ minutes\.$/);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(59 * 60);
    // An address never registered is limited alike: the 429 itself tells nothing.
    const unknown = registration().email;
    for (let i = 0; i < 5; i++) await post('/api/auth/register', registration({ email: unknown }));
    const refused = await post('/api/auth/register', registration({ email: unknown }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('lets a registration never verified start again with the same password: new details, new code, the old one dead', async () => {
    const first = await registerAndGetCode({ password: 'Same-pass-1' });
    const again = await post('/api/auth/register', registration({ email: first.body.email, full_name: 'Awa N.', password: 'Same-pass-1' }));
    expect(again.statusCode).toBe(200);
    const otp = await codeInMailNaming(first.body.email, 'Awa N.');
    expect((await post('/api/auth/verify-otp', { email: first.body.email, otp: first.otp })).json().error).toBe('Invalid or expired OTP code');
    const ok = await post('/api/auth/verify-otp', { email: first.body.email, otp });
    expect(ok.json()).toMatchObject({ message: 'Email verified!' });
    const login = await post('/api/auth/login', { email: first.body.email, password: 'Same-pass-1' });
    expect(login.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.email, first.body.email));
    expect(row?.full_name).toBe('Awa N.');
  });

  it('keeps no password set by someone re-registering an unverified address with another one', async () => {
    // The owner registers; someone else registers the same address before it is verified.
    const owner = await registerAndGetCode({ password: 'Owners-pass-1' });
    const other = await post('/api/auth/register', registration({ email: owner.body.email, full_name: 'Someone Else', password: 'Intruder-pass-2' }));
    expect(other.statusCode).toBe(200);
    const otp = await codeInMailNaming(owner.body.email, 'Someone Else');
    // Whichever person's code the mailbox owner types, neither password opens the account...
    const ok = await post('/api/auth/verify-otp', { email: owner.body.email, otp });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ password_required: true, message: 'Email verified! We have sent you a link to choose your password.' });
    for (const password of ['Intruder-pass-2', 'Owners-pass-1']) {
      expect((await post('/api/auth/login', { email: owner.body.email, password })).statusCode).toBe(401);
    }
    // ...the verifier is signed in, and the mailbox gets a link to choose one.
    expect((await t.request({ method: 'GET', url: '/api/profiles/me', token: ok.json().token })).statusCode).toBe(200);
    await smtp.waitFor(owner.body.email, /reset-password\?token=/);
  });

  it('validates the payload with the sign-up rules, on the server', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ full_name: '' }, 'full_name', 'Full name is required.'],
      [{ phone: '' }, 'phone', 'Phone number is required.'],
      [{ email: '' }, 'email', 'Email is required.'],
      [{ email: 'not-an-email' }, 'email', 'Enter a valid email address.'],
      [{ password: '' }, 'password', 'Password is required.'],
      [{ password: '1234567' }, 'password', 'Password must be at least 8 characters.'],
      [{ password: 'x'.repeat(129) }, 'password', 'Password must be at most 128 characters.'],
      [{ password: 'password' }, 'password', 'This password is one of the most common passwords and easy to guess. Choose another one.'],
      [{ password: 'Password1' }, 'password', 'This password is one of the most common passwords and easy to guess. Choose another one.'],
      [{ email: 'Nadia.Essono@example.test', password: 'my-NADIA.ESSONO-2026' }, 'password', 'Your password must not contain the name of your email address. Choose another one.'],
      [{ country: '' }, 'country', 'Country is required.'],
      [{ city: '' }, 'city', 'City is required.'],
      [{ phone: '+1 555 123' }, 'phone', 'Enter a valid phone number for the selected country.'],
      [{ country: 'XX' }, 'country', 'Choose a country from the list.'],
    ];
    for (const [override, field, message] of cases) {
      const res = await post('/api/auth/register', registration(override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json().error).toBe(message);
      expect(res.json().fields[field]).toBe(message);
    }
    // Address and state are optional.
    const ok = await post('/api/auth/register', registration({ address: undefined, state: undefined }));
    expect(ok.statusCode).toBe(200);
  });

  it('answers validation errors in French for a French caller', async () => {
    const res = await post('/api/auth/register', registration({ city: '' }), { 'accept-language': 'fr' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('La ville est obligatoire.');
    const common = await post('/api/auth/register', registration({ password: 'motdepasse' }), { 'accept-language': 'fr' });
    expect(common.statusCode).toBe(400);
    expect(common.json().fields.password).toBe('Ce mot de passe fait partie des plus courants et se devine facilement. Choisissez-en un autre.');
  });

  it('creates nothing and sends nothing for a refused password', async () => {
    const body = registration({ password: 'qwertyuiop' });
    // Counted once the earlier tests' e-mails are all out.
    await t.jobsDone();
    const before = smtp.messages.length;
    expect((await post('/api/auth/register', body)).statusCode).toBe(400);
    expect(await t.database.db.select().from(profiles).where(eq(profiles.email, body.email))).toEqual([]);
    await t.jobsDone();
    expect(smtp.messages.length).toBe(before);
  });

  it('tells an unverified account to verify at sign-in, and only with the right password', async () => {
    const { body } = await registerAndGetCode();
    const wrong = await post('/api/auth/login', { email: body.email, password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password.', code: 'invalid_credentials' });
    const right = await post('/api/auth/login', { email: body.email, password: body.password });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toEqual({
      error: 'Please verify your email before signing in. Enter the code we sent you, or request a new one.',
      code: 'unverified',
      requiresVerification: true,
    });
  });
});

describe('one-time codes', () => {
  it('dies after five wrong tries: the sixth try fails even with the right code', async () => {
    const { body, otp } = await registerAndGetCode();
    for (let i = 1; i <= 5; i++) {
      const res = await post('/api/auth/verify-otp', { email: body.email, otp: wrongCode(otp) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(i < 5 ? 'Invalid or expired OTP code' : 'Too many wrong codes. Request a new code and try again.');
    }
    const sixth = await post('/api/auth/verify-otp', { email: body.email, otp });
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().error).toBe('Too many wrong codes. Request a new code and try again.');
    const [stored] = await t.database.db.select().from(profiles).where(eq(profiles.email, body.email));
    expect(stored!.email_verified_at).toBeNull();
  });

  it('accepts the right code on the fifth try', async () => {
    const { body, otp } = await registerAndGetCode();
    for (let i = 0; i < 4; i++) await post('/api/auth/verify-otp', { email: body.email, otp: wrongCode(otp) });
    expect((await post('/api/auth/verify-otp', { email: body.email, otp })).statusCode).toBe(200);
  });

  it('counts concurrent wrong guesses exactly: never more than five tries', async () => {
    const { body, otp } = await registerAndGetCode();
    const guesses = Array.from({ length: 8 }, (_, i) => String((Number(otp) + 1 + i) % 1_000_000).padStart(6, '0'));
    await Promise.all(guesses.map((g) => post('/api/auth/verify-otp', { email: body.email, otp: g })));
    const [code] = await t.database.db.select().from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.email, body.email), eq(oneTimeCodes.purpose, 'verify_email')));
    expect(code!.attempts).toBe(5);
    expect((await post('/api/auth/verify-otp', { email: body.email, otp })).statusCode).toBe(400);
  });

  it('expires after 10 minutes', async () => {
    const { body, otp } = await registerAndGetCode();
    const [code] = await t.database.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.email, body.email));
    expect(code!.expires_at.getTime() - code!.created_at.getTime()).toBe(10 * 60_000);
    await t.database.db.update(oneTimeCodes).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(oneTimeCodes.email, body.email));
    const res = await post('/api/auth/verify-otp', { email: body.email, otp });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Invalid or expired OTP code');
  });

  it('is replaced by a resend: the old code fails, the new one verifies', async () => {
    const { body, otp: first } = await registerAndGetCode();
    const before = smtp.messages.length;
    const resend = await post('/api/auth/resend-otp', { email: body.email });
    expect(resend.statusCode).toBe(200);
    expect(resend.json().message).toBe('If this email is waiting for verification, a new code is on its way.');
    await expect.poll(() => smtp.messages.length).toBeGreaterThan(before);
    const second = await smtp.codeFor(body.email);
    expect((await post('/api/auth/verify-otp', { email: body.email, otp: first })).statusCode).toBe(first === second ? 200 : 400);
    if (first !== second) expect((await post('/api/auth/verify-otp', { email: body.email, otp: second })).statusCode).toBe(200);
  });

  it('gives a resend for an unknown or verified address the same answer, sending nothing', async () => {
    const verified = await createUser(t);
    await t.jobsDone();
    const before = smtp.messages.length;
    for (const email of ['nobody-here@example.test', verified.email]) {
      const res = await post('/api/auth/resend-otp', { email });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('If this email is waiting for verification, a new code is on its way.');
    }
    await t.jobsDone();
    expect(smtp.messages.length).toBe(before);
  });

  it('checks the code format: six digits', async () => {
    const res = await post('/api/auth/verify-otp', { email: 'someone@example.test', otp: '12ab' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The code has 6 digits.');
    const unknown = await post('/api/auth/verify-otp', { email: 'someone@example.test', otp: '123456' });
    expect(unknown.json().error).toBe('Invalid or expired OTP code');
  });
});

describe('when the mail server cannot be reached', () => {
  it('answers as usual and sends the code once the mail server is back; the account waits, unverified', async () => {
    // A free port with nothing on it: the mail server is down, then comes back at that address.
    const probe = await new SmtpListener().start();
    const port = Number(new URL(probe.url).port);
    await probe.stop();
    const down = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
    const back = new SmtpListener();
    try {
      const body = registration();
      const res = await down.request({ method: 'POST', url: '/api/auth/register', payload: body, headers: { 'x-forwarded-for': uniqueAddress() } });
      expect(res.statusCode).toBe(200);
      const [stored] = await down.database.db.select().from(profiles).where(eq(profiles.email, body.email));
      expect(stored!.email_verified_at).toBeNull();
      await back.start(port);
      expect(await back.codeFor(body.email)).toMatch(/^\d{6}$/);
    } finally {
      await down.close();
      await back.stop().catch(() => {});
    }
  }, 30_000);
});
