import { and, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, oneTimeCodes, profiles, recoveryCodes, sessions } from '@server/db/schema.js';
import { issueToken } from '@server/modules/auth/codes.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// Two-step sign-in (docs/rules/accounts.md#two-step-sign-in). Time is the test's: Date is faked
// (only Date: timers and the database run as usual) and set to the middle of a 30-second step, and
// every code is computed here from the secret the server gave, for a chosen step.

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const STEP_MS = 30_000;
/** A step boundary a little ahead of the real time, +10 s: no step changes under a test by accident. */
let base: number;
beforeEach(() => {
  base = (Math.floor(Date.now() / STEP_MS) + 1) * STEP_MS + 10_000;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(base);
});
afterEach(() => { vi.useRealTimers(); });

/** Moves the clock to `steps` whole steps after the test's start (still 10 s into the step). */
const at = (steps: number) => vi.setSystemTime(base + steps * STEP_MS);
/** The code of the step `steps` after the test's start. */
const codeAt = (secret: string, steps: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: base + steps * STEP_MS });

const post = (url: string, payload: object, opts: { token?: string; ip?: string } = {}) =>
  t.request({ method: 'POST', url, payload, token: opts.token, headers: { 'x-forwarded-for': opts.ip ?? uniqueAddress() } });
const login = (user: TestUser, ip?: string) => post('/api/auth/login', { email: user.email, password: user.password }, { ip });
const verify = (mfaToken: string, code: string, ip?: string) => post('/api/auth/mfa/verify', { mfa_token: mfaToken, code }, { ip });
const get = (url: string, token: string) => t.request({ method: 'GET', url, token });

/** Enrols an account through the API at step 0 (setup proves the owner with the password); its secret and recovery codes. */
async function enrol(user: TestUser, token = user.token) {
  const setup = await post('/api/auth/mfa/setup', { current_password: user.password }, { token });
  expect(setup.statusCode).toBe(200);
  const { secret } = setup.json() as { secret: string };
  const enabled = await post('/api/auth/mfa/enable', { code: codeAt(secret, 0) }, { token });
  expect(enabled.statusCode).toBe(200);
  return { secret, recoveryCodes: enabled.json().recovery_codes as string[] };
}

/** The mfa_token of a password sign-in of an enrolled account. */
async function challenge(user: TestUser, ip?: string): Promise<string> {
  const res = await login(user, ip);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
  return res.json().mfa_token as string;
}

describe('enrolment', () => {
  it('setup gives a secret and its otpauth address; enable takes a code from it and gives 10 recovery codes; the session becomes verified', async () => {
    const admin = await createUser(t, { role: 'admin', mfa: false });
    expect((await get('/api/admin/stats', admin.token)).json().code).toBe('mfa_enrollment_required');
    const setup = await post('/api/auth/mfa/setup', { current_password: admin.password }, { token: admin.token });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauth_url } = setup.json() as { secret: string; otpauth_url: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('GabRemit');
    expect(decodeURIComponent(url.pathname)).toContain(admin.email);

    // Kept sealed: the row holds neither the secret nor anything that reads like it.
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, admin.id));
    expect(row?.totp_secret).toBeTruthy();
    expect(row?.totp_secret).not.toContain(secret);
    expect(row?.totp_enabled_at).toBeNull();

    const wrong = await post('/api/auth/mfa/enable', { code: codeAt(secret, 3) }, { token: admin.token });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'mfa_code_invalid', fields: { code: expect.any(String) } });

    const enabled = await post('/api/auth/mfa/enable', { code: codeAt(secret, 0) }, { token: admin.token });
    expect(enabled.statusCode).toBe(200);
    const codes = enabled.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const stored = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.profile_id, admin.id));
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) expect(codes.some((c) => code_hash.includes(c.replace('-', '')))).toBe(false);

    expect((await get('/api/admin/stats', admin.token)).statusCode).toBe(200);
    expect((await get('/api/profiles/me', admin.token)).json().data).toMatchObject({ totp_enabled: true });
    // Once on, setup and enable say so (before asking for any proof: nothing is mailed for nothing).
    expect((await post('/api/auth/mfa/setup', {}, { token: admin.token })).json().code).toBe('mfa_already_on');
    expect((await post('/api/auth/mfa/setup', { current_password: admin.password }, { token: admin.token })).json().code).toBe('mfa_already_on');
  });

  it('enable without setup, and a new setup in the meantime, ask to start again', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    expect((await post('/api/auth/mfa/enable', { code: '123456' }, { token: manager.token })).json().code).toBe('mfa_setup_first');
    const proof = { current_password: manager.password };
    const first = (await post('/api/auth/mfa/setup', proof, { token: manager.token })).json().secret as string;
    const second = (await post('/api/auth/mfa/setup', proof, { token: manager.token })).json().secret as string;
    expect(second).not.toBe(first);
    expect((await post('/api/auth/mfa/enable', { code: codeAt(first, 0) }, { token: manager.token })).json().code).toBe('mfa_code_invalid');
    expect((await post('/api/auth/mfa/enable', { code: codeAt(second, 0) }, { token: manager.token })).statusCode).toBe(200);
  });

  it('another session opened before enrolling stays refused by staff endpoints (mfa_required) until it signs in with a code', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    const other = (await login(manager)).json().token as string;
    await enrol(manager);
    const refused = await get('/api/admin/stats', other);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('mfa_required');
    expect((await get('/api/profiles/me', other)).statusCode).toBe(200);
  });
});

describe('sign-in with a code', () => {
  it('answers mfa_required with no session, then a session for a code one step old; a used code and a code two steps old are refused', async () => {
    const admin = await createUser(t, { role: 'admin', mfa: false });
    const { secret } = await enrol(admin);
    const before = await t.database.db.select().from(sessions).where(eq(sessions.profile_id, admin.id));

    at(2);
    const mfaToken = await challenge(admin);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.profile_id, admin.id))).toHaveLength(before.length);
    // One step of drift: the previous step's code.
    const ok = await verify(mfaToken, codeAt(secret, 1));
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.json()).sort()).toEqual(['expires_at', 'token']);
    expect((await get('/api/admin/stats', ok.json().token)).statusCode).toBe(200);

    // The same code again, on a new sign-in: refused.
    const replay = await verify(await challenge(admin), codeAt(secret, 1));
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('mfa_code_invalid');

    // Later: a code two steps old is refused although never used; one step ahead works.
    at(6);
    const next = await challenge(admin);
    expect((await verify(next, codeAt(secret, 4))).json().code).toBe('mfa_code_invalid');
    expect((await verify(next, codeAt(secret, 7))).statusCode).toBe(200);
  });

  it('the same code sent twice at once opens one session; a newer sign-in replaces a pending one', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    const { secret } = await enrol(manager);
    at(1);
    const older = await challenge(manager);
    const newer = await challenge(manager);
    expect((await verify(older, codeAt(secret, 1))).json().code).toBe('mfa_token_invalid');
    const results = await Promise.all([verify(newer, codeAt(secret, 1)), verify(newer, codeAt(secret, 1))]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });

  it('keeps "remember me" across the code step', async () => {
    const user = await createUser(t);
    const { secret } = await enrol(user);
    at(1);
    const res = await post('/api/auth/login', { email: user.email, password: user.password, remember: true });
    const ok = await verify(res.json().mfa_token, codeAt(secret, 1));
    expect(new Date(ok.json().expires_at).getTime() - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);
  });

  it('a recovery code works once in place of a code, in any case and with or without its dash', async () => {
    const admin = await createUser(t, { role: 'admin', mfa: false });
    const { recoveryCodes: codes } = await enrol(admin);
    const code = codes[3]!;
    const ok = await verify(await challenge(admin), ` ${code.toUpperCase()} `);
    expect(ok.statusCode).toBe(200);
    expect((await get('/api/admin/stats', ok.json().token)).statusCode).toBe(200);
    const again = await verify(await challenge(admin), code.replace('-', ''));
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('mfa_code_invalid');
    expect((await verify(await challenge(admin), codes[4]!)).statusCode).toBe(200);
  });

  it('the mfa_token is single-use, expires, and dies after 5 wrong codes', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    const { secret } = await enrol(manager);
    at(1);
    const used = await challenge(manager);
    expect((await verify(used, codeAt(secret, 1))).statusCode).toBe(200);
    at(2);
    const reused = await verify(used, codeAt(secret, 2));
    expect(reused.statusCode).toBe(401);
    expect(reused.json().code).toBe('mfa_token_invalid');

    // Expiry is on the database's clock (the test's Date runs ahead of it).
    const expiring = await challenge(manager);
    await t.database.db.update(oneTimeCodes).set({ expires_at: sql`now() - interval '1 second'` })
      .where(and(eq(oneTimeCodes.profile_id, manager.id), eq(oneTimeCodes.purpose, 'mfa_login')));
    expect((await verify(expiring, codeAt(secret, 2))).json().code).toBe('mfa_token_invalid');
    expect((await verify('not-a-token', codeAt(secret, 2))).statusCode).toBe(401);

    const guessed = await challenge(manager);
    for (let i = 1; i <= 4; i++) expect((await verify(guessed, '000000')).json().code).toBe('mfa_code_invalid');
    const fifth = await verify(guessed, '000000');
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().code).toBe('mfa_token_exhausted');
    expect((await verify(guessed, codeAt(secret, 2))).json().code).toBe('mfa_token_invalid');
    // The code was not spent by the dead token: a new sign-in takes it.
    expect((await verify(await challenge(manager), codeAt(secret, 2))).statusCode).toBe(200);
  });

  it('wrong codes are limited per account and address like passwords: the 11th from one address in 15 minutes is refused', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    const { secret } = await enrol(manager);
    at(1);
    const ip = uniqueAddress();
    let token = await challenge(manager, ip);
    for (let i = 1; i <= 10; i++) {
      if (i % 5 === 0) {
        expect((await verify(token, '000000', ip)).statusCode).toBe(401);
        token = await challenge(manager, ip);
      } else {
        expect((await verify(token, '000000', ip)).statusCode).toBe(400);
      }
    }
    const limited = await verify(token, codeAt(secret, 1), ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // From elsewhere the right code still works (strict limit is per account and address).
    expect((await verify(await challenge(manager), codeAt(secret, 1))).statusCode).toBe(200);
  });

  it('rejects a malformed code as a field error', async () => {
    const res = await verify('whatever', '12ab');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { code: expect.any(String) } });
  });

  it('a password reset link of an account with two-step sign-in sets the password and then asks for a code', async () => {
    const admin = await createUser(t, { role: 'admin', mfa: false });
    const { secret } = await enrol(admin);
    at(1);
    const link = await issueToken(t.database.db, { purpose: 'reset_password', email: admin.email, profileId: admin.id, ttlMs: 3600_000 });
    const res = await post('/api/auth/reset-password/confirm', { token: link, password: 'Brand-new-pass-77' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ mfa_required: true, mfa_token: expect.any(String), message: expect.any(String) });
    expect(res.json().token).toBeUndefined();
    expect((await verify(res.json().mfa_token, codeAt(secret, 1))).statusCode).toBe(200);
  });
});

describe('senders', () => {
  it('sign in with the password alone; may opt in, then sign in with a code, and turn it off with a code', async () => {
    const sender = await createUser(t, { mfa: false });
    expect((await get('/api/transfer-requests', sender.token)).statusCode).toBe(200);
    const plain = await login(sender);
    expect(plain.json()).toEqual({ token: expect.any(String), expires_at: expect.any(String) });
    expect((await get('/api/profiles/me', sender.token)).json().data.totp_enabled).toBe(false);

    const { secret } = await enrol(sender);
    at(1);
    const ok = await verify(await challenge(sender), codeAt(secret, 1));
    expect(ok.statusCode).toBe(200);

    at(2);
    const wrong = await post('/api/auth/mfa/disable', { code: '000000' }, { token: ok.json().token });
    expect(wrong.json().code).toBe('mfa_code_invalid');
    const off = await post('/api/auth/mfa/disable', { code: codeAt(secret, 2) }, { token: ok.json().token });
    expect(off.statusCode).toBe(200);
    expect((await get('/api/profiles/me', sender.token)).json().data.totp_enabled).toBe(false);
    expect((await login(sender)).json().token).toEqual(expect.any(String));
    expect(await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.profile_id, sender.id))).toEqual([]);
    expect((await post('/api/auth/mfa/disable', { code: codeAt(secret, 2) }, { token: sender.token })).json().code).toBe('mfa_not_on');
  });

  it('staff cannot turn it off', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    const { secret } = await enrol(manager);
    at(1);
    const res = await post('/api/auth/mfa/disable', { code: codeAt(secret, 1) }, { token: manager.token });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('mfa_staff_keeps_it');
  });
});

describe('admin reset', () => {
  it('an admin resets a staff member: secret gone, signed out everywhere, audited; they enrol again at the next sign-in', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const manager = await createUser(t, { role: 'manager', mfa: false });
    await enrol(manager);

    const byManager = await post(`/api/admin/users/${admin.id}/mfa/reset`, {}, { token: (await createUser(t, { role: 'manager' })).token });
    expect(byManager.statusCode).toBe(403);
    expect((await post(`/api/admin/users/${admin.id}/mfa/reset`, {}, { token: admin.token })).json().code).toBe('mfa_reset_self');
    expect((await post(`/api/admin/users/${randomUUID()}/mfa/reset`, {}, { token: admin.token })).statusCode).toBe(404);

    const res = await post(`/api/admin/users/${manager.id}/mfa/reset`, {}, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: expect.any(String) });
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, manager.id));
    expect(row).toMatchObject({ totp_secret: null, totp_enabled_at: null, totp_last_step: null });
    expect(await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.profile_id, manager.id))).toEqual([]);
    expect((await get('/api/profiles/me', manager.token)).statusCode).toBe(401);

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.target_id, manager.id));
    expect(audit).toEqual([expect.objectContaining({
      actor_profile_id: admin.id, action: 'profile.mfa_reset', target_type: 'profile',
      before: { totp_enabled: true }, after: { totp_enabled: false },
    })]);

    const again = await login(manager);
    expect(again.json()).toEqual({ token: expect.any(String), expires_at: expect.any(String) });
    expect((await get('/api/admin/stats', again.json().token)).json().code).toBe('mfa_enrollment_required');
  });
});
