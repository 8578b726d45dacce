import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles, sessions } from '@server/db/schema.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const login = (payload: object) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload, headers: { 'x-forwarded-for': uniqueAddress() } });
const me = (token: string) => t.request({ method: 'GET', url: '/api/profiles/me', token });

const HOUR = 3600_000;

describe('password sign-in', () => {
  it('answers { token } for the right password, with the e-mail in any case', async () => {
    const user = await createUser(t, { full_name: 'Jean Mba' });
    const res = await login({ email: `  ${user.email.toUpperCase()} `, password: user.password });
    expect(res.statusCode).toBe(200);
    const { token } = res.json();
    expect(typeof token).toBe('string');
    expect((await me(token)).json().data).toMatchObject({ id: user.id, full_name: 'Jean Mba' });
  });

  it('answers a wrong password and an unknown address alike: 401 with the same message', async () => {
    const user = await createUser(t);
    const wrong = await login({ email: user.email, password: 'wrong-password' });
    const unknown = await login({ email: 'nobody@example.test', password: 'wrong-password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password.', code: 'invalid_credentials' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('refuses an account that only signs in with Google or Facebook (no password)', async () => {
    const user = await createUser(t);
    await t.database.db.update(profiles).set({ password_hash: null }).where(eq(profiles.id, user.id));
    expect((await login({ email: user.email, password: user.password })).statusCode).toBe(401);
  });

  it('requires e-mail and password, without checking the e-mail format', async () => {
    const noEmail = await login({ email: '', password: 'x' });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().error).toBe('Email is required.');
    const noPassword = await login({ email: 'a@b.c', password: '' });
    expect(noPassword.json().error).toBe('Password is required.');
    const oddEmail = await login({ email: 'not-an-email', password: 'whatever' });
    expect(oddEmail.statusCode).toBe(401);
  });

  it('opens a 30-day session with remember me, else 12 hours', async () => {
    const user = await createUser(t);
    for (const [remember, ttl] of [[true, 30 * 24 * HOUR], [false, 12 * HOUR], [undefined, 12 * HOUR]] as const) {
      const started = Date.now();
      const res = await login({ email: user.email, password: user.password, ...(remember === undefined ? {} : { remember }) });
      const { token } = res.json();
      const claims = decodeJwt(token);
      const [row] = await t.database.db.select().from(sessions).where(eq(sessions.id, claims.sid as string));
      expect(row!.remember).toBe(remember ?? false);
      expect(Math.abs(row!.expires_at.getTime() - (started + ttl))).toBeLessThan(60_000);
      expect(Math.abs(claims.exp! * 1000 - (started + ttl))).toBeLessThan(60_000);
    }
  });
});

describe('the bearer credential', () => {
  it('refuses `Bearer <user id>`, a tampered token and no token', async () => {
    const user = await createUser(t);
    expect((await me(user.token)).statusCode).toBe(200);
    for (const bad of [user.user_id, user.id, `${user.token.slice(0, -3)}abc`, 'Bearer', '']) {
      const res = await me(bad);
      expect(res.statusCode, bad).toBe(401);
    }
    const none = await t.request({ method: 'GET', url: '/api/profiles/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: 'Please sign in to continue.', code: 'unauthenticated' });
  });

  it('refuses a token once its session has expired', async () => {
    const user = await createUser(t);
    const { sid } = decodeJwt(user.token) as { sid: string };
    await t.database.db.update(sessions).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(sessions.id, sid));
    expect((await me(user.token)).statusCode).toBe(401);
  });
});

describe('sign-out', () => {
  it('revokes the session on the server: the same token gets 401 at once', async () => {
    const user = await createUser(t);
    const other = (await login({ email: user.email, password: user.password })).json().token as string;
    const out = await t.request({ method: 'POST', url: '/api/auth/logout', token: user.token });
    expect(out.statusCode).toBe(200);
    expect(out.json().message).toBe('You are signed out.');
    expect((await me(user.token)).statusCode).toBe(401);
    // Only that session: the other device stays signed in.
    expect((await me(other)).statusCode).toBe(200);
    // A revoked token cannot sign out again.
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: user.token })).statusCode).toBe(401);
  });

  it('signs out everywhere: every other session of the caller, and only theirs (the caller\'s stays)', async () => {
    const user = await createUser(t);
    const stranger = await createUser(t);
    const tokens = [user.token];
    for (let i = 0; i < 2; i++) tokens.push((await login({ email: user.email, password: user.password, remember: true })).json().token);
    const res = await t.request({ method: 'POST', url: '/api/auth/logout-all', token: tokens[1] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'You are signed out on every other device.', revoked: 2 });
    expect(await Promise.all(tokens.map(async (token) => (await me(token)).statusCode))).toEqual([401, 200, 401]);
    expect((await me(stranger.token)).statusCode).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    expect((await t.request({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout-all' })).statusCode).toBe(401);
  });
});
