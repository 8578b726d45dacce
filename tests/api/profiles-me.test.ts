import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '@server/db/schema.js';
import { createUser } from '../support/factories.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';
import { insertTransfer, uniqueEmail } from './auth-fixtures.js';

let t: TestApp;
let smtp: SmtpListener;
beforeAll(async () => { ({ t, smtp } = await createMailedTestApp()); });
afterAll(async () => { await t?.close(); });

const me = (token: string) => t.request({ method: 'GET', url: '/api/profiles/me', token });
const patchMe = (token: string, payload: object) => t.request({ method: 'PATCH', url: '/api/profiles/me', token, payload });
const confirm = (token: string, payload: object) => t.request({ method: 'POST', url: '/api/profiles/me/email/confirm', token, payload });

describe('GET /api/profiles/me', () => {
  it('answers the profile with the statistics of the profile screen', async () => {
    const user = await createUser(t, { full_name: 'Stat Sender', address: '1 rue A', state: 'Estuaire Province' });
    const other = await createUser(t);
    for (const status of ['pending', 'processing', 'completed', 'completed', 'rejected'] as const) await insertTransfer(t, user.id, status);
    await insertTransfer(t, other.id, 'completed');
    const res = await me(user.token);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(data).sort()).toEqual([
      'address', 'city', 'country', 'created_at', 'date_of_birth', 'email', 'email_verified', 'full_name', 'has_password', 'id', 'language', 'mfa_verified', 'phone', 'role', 'state', 'stats',
      'totp_enabled', 'user_id',
    ]);
    expect(data).toMatchObject({
      id: user.id, user_id: user.user_id, email: user.email, full_name: 'Stat Sender', phone: '+15551234567', address: '1 rue A',
      state: 'Estuaire Province', city: 'Libreville', country: 'GA', role: 'user', language: 'en',
      stats: { total: 5, completed: 2, pending: 2 }, has_password: true, totp_enabled: false, mfa_verified: true,
    });
    expect(JSON.stringify(data)).not.toContain('argon2');
  });

  // The screen's row is read without drizzle's mapping (db/prepared.ts rowsOf): each field as stored.
  it('answers the creation time, the verified address, the password and two-step sign-in as stored', async () => {
    const user = await createUser(t);
    await t.database.db.update(profiles).set({ password_hash: null, email_verified_at: null, totp_enabled_at: new Date() }).where(eq(profiles.id, user.id));
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, user.id));
    const { data } = (await me(user.token)).json();
    expect(data).toMatchObject({ created_at: row!.created_at.toISOString(), email_verified: false, has_password: false, totp_enabled: true, stats: { total: 0, completed: 0, pending: 0 } });
  });

  it('is 401 signed out', async () => {
    expect((await t.request({ method: 'GET', url: '/api/profiles/me' })).statusCode).toBe(401);
  });
});

describe('PATCH /api/profiles/me', () => {
  it('changes full name and phone at once and answers the saved profile', async () => {
    const user = await createUser(t);
    const res = await patchMe(user.token, { full_name: '  Nadia Essono ', phone: '+33 6 12 34 56 78' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Profile updated successfully', data: { full_name: 'Nadia Essono', phone: '+33612345678' } });
    expect((await me(user.token)).json().data).toMatchObject({ full_name: 'Nadia Essono', phone: '+33612345678' });
  });

  it('validates name and phone, and needs at least one field', async () => {
    const user = await createUser(t);
    expect((await patchMe(user.token, { full_name: '' })).json().error).toBe('Full name is required.');
    const phone = await patchMe(user.token, { phone: '+1 555' });
    expect(phone.statusCode).toBe(400);
    expect(phone.json()).toMatchObject({ error: 'Enter a valid phone number for the selected country.', fields: { phone: 'Enter a valid phone number for the selected country.' } });
    expect((await patchMe(user.token, {})).json().error).toBe('Change at least one field before saving.');
  });

  it('never changes the role, whatever the body says', async () => {
    const user = await createUser(t);
    const res = await patchMe(user.token, { full_name: 'Sneaky', role: 'admin' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.role).toBe('user');
    expect((await me(user.token)).json().data.role).toBe('user');
  });

  it('is 401 signed out, before the body is looked at', async () => {
    expect((await t.request({ method: 'PATCH', url: '/api/profiles/me', payload: { full_name: '' } })).statusCode).toBe(401);
  });
});

describe('changing the e-mail: only once the new address confirms a code', () => {
  it('sends a code to the new address; the e-mail changes only when it is confirmed, and the old address is told', async () => {
    const user = await createUser(t, { full_name: 'Mover' });
    const newEmail = uniqueEmail('moved');
    const res = await patchMe(user.token, { email: newEmail.toUpperCase(), full_name: 'Mover Two', current_password: user.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      pending_email: newEmail, message: `We sent a 6-digit code to ${newEmail}. Enter it to confirm your new email.`,
      data: { email: user.email, full_name: 'Mover Two' },
    });
    expect((await me(user.token)).json().data.email).toBe(user.email);
    const otp = await smtp.codeFor(newEmail);

    const wrong = await confirm(user.token, { email: newEmail, otp: otp === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('Invalid or expired OTP code');
    // Another signed-in user cannot use the code.
    const stranger = await createUser(t);
    expect((await confirm(stranger.token, { email: newEmail, otp })).statusCode).toBe(400);

    const ok = await confirm(user.token, { email: newEmail, otp });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: 'Your email has been changed.', data: { email: newEmail } });
    expect((await me(user.token)).json().data.email).toBe(newEmail);
    const notice = await smtp.waitFor(user.email, /changed/);
    expect(notice.raw).toContain(newEmail);

    const login = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: newEmail, password: user.password } });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an address another account already has', async () => {
    const a = await createUser(t);
    const b = await createUser(t);
    const res = await patchMe(a.token, { email: b.email, current_password: a.password });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('This email is already registered. Please sign in instead.');
  });

  it('keeps the same e-mail without sending anything', async () => {
    const user = await createUser(t);
    await t.jobsDone();
    const before = smtp.messages.length;
    const res = await patchMe(user.token, { email: user.email, full_name: 'Same' });
    expect(res.statusCode).toBe(200);
    expect(res.json().pending_email).toBeUndefined();
    await t.jobsDone();
    expect(smtp.messages.length).toBe(before);
  });
});

describe('e-mail change limits', () => {
  it('answers 429 after too many code requests for one account', async () => {
    const user = await createUser(t);
    const proof = { current_password: user.password };
    for (let i = 0; i < 10; i++) expect((await patchMe(user.token, { email: uniqueEmail('many'), ...proof })).statusCode).toBe(200);
    const res = await patchMe(user.token, { email: uniqueEmail('many'), ...proof });
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Name and phone changes are not limited.
    expect((await patchMe(user.token, { full_name: 'Still fine' })).statusCode).toBe(200);
  });
});

describe('PUT /api/profiles/me/language', () => {
  it('stores the language e-mails are written in', async () => {
    const user = await createUser(t);
    const res = await t.request({ method: 'PUT', url: '/api/profiles/me/language', token: user.token, payload: { language: 'fr' } });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, user.id));
    expect(row!.language).toBe('fr');
    const bad = await t.request({ method: 'PUT', url: '/api/profiles/me/language', token: user.token, payload: { language: 'de' } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('another profile', () => {
  it('cannot be read or changed by a user, nor can they change their own role', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    expect((await t.request({ method: 'GET', url: '/api/profiles', token: user.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/profiles/${other.id}`, token: user.token })).statusCode).toBe(404);
    const change = await t.request({ method: 'PATCH', url: `/api/profiles/${other.id}`, token: user.token, payload: { role: 'user' } });
    expect(change.statusCode).toBe(403);
    const own = await t.request({ method: 'PATCH', url: `/api/profiles/${user.id}`, token: user.token, payload: { role: 'admin' } });
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toBe('You are not authorized to perform this action.');
    expect((await me(user.token)).json().data.role).toBe('user');
  });
});
