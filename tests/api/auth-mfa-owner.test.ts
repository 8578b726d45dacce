import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { profiles, recoveryCodes } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { databaseBeforeMigration } from '../support/migrated-before.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// Turning two-step sign-in on proves the owner first, exactly as changing the e-mail or the
// password does (decision 008, note 019, docs/rules/accounts.md#two-step-sign-in): the current
// password, or for an account without one a code mailed to its current address. A stolen session
// alone must not tie the account to the thief's authenticator app.

let t: TestApp;
let smtp: SmtpListener;
beforeAll(async () => { ({ t, smtp } = await createMailedTestApp()); });
afterAll(async () => { await t?.close(); });

const REQUIRED = 'Enter your current password to confirm this change.';
const WRONG = 'Your current password is not correct. Nothing was changed.';

const post = (url: string, token: string, payload: object = {}, lang = 'en') =>
  t.request({ method: 'POST', url, token, payload, headers: { 'x-forwarded-for': uniqueAddress(), 'accept-language': lang } });
const setUp = (token: string, proof: object = {}, lang?: string) => post('/api/auth/mfa/setup', token, proof, lang);
const enable = (token: string, code: string) => post('/api/auth/mfa/enable', token, { code });
const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();

/** What two-step sign-in state the account's row holds. */
async function stateOf(user: TestUser) {
  const [row] = await t.database.db.select({ secret: profiles.totp_secret, on: profiles.totp_enabled_at }).from(profiles).where(eq(profiles.id, user.id));
  const codes = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.profile_id, user.id));
  return { secret: row?.secret ?? null, on: row?.on ?? null, recoveryCodes: codes.length };
}
const NOTHING = { secret: null, on: null, recoveryCodes: 0 };

/** An account created through Google or Facebook: no password. */
async function oauthOnlyUser(): Promise<TestUser> {
  const user = await createUser(t, { full_name: 'Google Only' });
  await t.database.db.update(profiles).set({ password_hash: null }).where(eq(profiles.id, user.id));
  return user;
}

describe('setting up two-step sign-in asks for the current password', () => {
  it('refuses a session without it: 400 on the field, no secret made, and enable has nothing to turn on', async () => {
    const sender = await createUser(t, { mfa: false });
    const missing = await setUp(sender.token);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: REQUIRED, code: 'current_password_required', fields: { current_password: REQUIRED } });
    // A request with no body at all is refused too (as the password change's is).
    const bare = await t.request({ method: 'POST', url: '/api/auth/mfa/setup', token: sender.token });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().code).toBe('validation_failed');
    expect(await stateOf(sender)).toEqual(NOTHING);
    const enabled = await enable(sender.token, '123456');
    expect(enabled.json().code).toBe('mfa_setup_first');
    expect(await stateOf(sender)).toEqual(NOTHING);
    expect((await t.request({ method: 'GET', url: '/api/profiles/me', token: sender.token })).json().data.totp_enabled).toBe(false);
  });

  it('refuses a wrong one with the e-mail and password change\'s 403 and message, in English and French, and changes nothing', async () => {
    const sender = await createUser(t);
    const wrong = await setUp(sender.token, { current_password: 'guessed-password-1' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: WRONG, code: 'current_password_wrong', fields: { current_password: WRONG } });
    const french = await setUp(sender.token, { current_password: 'guessed-password-2' }, 'fr');
    expect(french.statusCode).toBe(403);
    expect(french.json().fields.current_password).toBe("Votre mot de passe actuel est incorrect. Rien n’a été modifié.");
    expect(await stateOf(sender)).toEqual(NOTHING);
    expect((await enable(sender.token, '123456')).json().code).toBe('mfa_setup_first');
    // The same answer as the e-mail change gives for the same wrong password.
    const emailChange = await t.request({
      method: 'PATCH', url: '/api/profiles/me', token: sender.token, payload: { email: 'elsewhere@example.test', current_password: 'guessed-password-1' },
    });
    expect(emailChange.statusCode).toBe(wrong.statusCode);
    expect(emailChange.json()).toEqual(wrong.json());
  });

  it('with the right one gives the secret, and a code of it turns two-step sign-in on', async () => {
    const sender = await createUser(t);
    const setup = await setUp(sender.token, { current_password: sender.password });
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json() as { secret: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const enabled = await enable(sender.token, codeOf(secret));
    expect(enabled.statusCode).toBe(200);
    expect(enabled.json().recovery_codes).toHaveLength(10);
    expect(await stateOf(sender)).toEqual({ secret: expect.any(String), on: expect.any(Date), recoveryCodes: 10 });
  });

  it('a staff member enrolling at first sign-in gives the password too, then reaches the back office', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    expect((await setUp(manager.token)).statusCode).toBe(400);
    const { secret } = (await setUp(manager.token, { current_password: manager.password })).json() as { secret: string };
    expect((await enable(manager.token, codeOf(secret))).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/admin/stats', token: manager.token })).statusCode).toBe(200);
  });

  it('wrong passwords count on the account\'s limit shared with e-mail and password changes; then even the right one waits', async () => {
    const sender = await createUser(t);
    // Wrong current passwords: 10 per hour per account (docs/rules/accounts.md#sign-in-throttling).
    for (let i = 0; i < 10; i++) {
      expect((await setUp(sender.token, { current_password: `guess-${i}-password` })).statusCode).toBe(403);
    }
    const limited = await setUp(sender.token, { current_password: sender.password });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const passwordChange = await t.request({
      method: 'PUT', url: '/api/profiles/me/password', token: sender.token, payload: { current_password: sender.password, password: 'Fresh-horse-battery-8' },
    });
    expect(passwordChange.statusCode).toBe(429);
    expect(await stateOf(sender)).toEqual(NOTHING);
  });

  it('a session of another account cannot do it with this account\'s password, and changes nothing on either', async () => {
    const owner = await createUser(t, { password: 'owner-only-pass-42' });
    const thief = await createUser(t, { password: 'thief-own-pass-77' });
    // The proof is checked against the session's own account: the owner's password proves nothing for it.
    const cross = await setUp(thief.token, { current_password: owner.password });
    expect(cross.statusCode).toBe(403);
    expect(cross.json().fields.current_password).toBe(WRONG);
    expect(await stateOf(owner)).toEqual(NOTHING);
    expect(await stateOf(thief)).toEqual(NOTHING);
    // The thief's own password sets up only the thief's own account.
    expect((await setUp(thief.token, { current_password: thief.password })).statusCode).toBe(200);
    expect((await stateOf(thief)).secret).toEqual(expect.any(String));
    expect(await stateOf(owner)).toEqual(NOTHING);
  });

  it('the OpenAPI document shows the proof fields of the setup request', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> } }>>;
    };
    const body = doc.paths['/api/auth/mfa/setup']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(['current_code', 'current_password']);
  });
});

describe('an account with only Google/Facebook confirms with a code mailed to its current address', () => {
  it('mails a code first (403 reauth_code_sent), refuses a wrong one, then gives the secret for the right one', async () => {
    const user = await oauthOnlyUser();
    const first = await setUp(user.token);
    expect(first.statusCode).toBe(403);
    expect(first.json()).toMatchObject({
      code: 'reauth_code_sent',
      error: `To confirm it is you, we sent a 6-digit code to ${user.email}. Enter it to make this change.`,
      fields: { current_code: expect.any(String) },
    });
    const mail = await smtp.waitFor(user.email, /two-step sign-in/);
    expect(mail.to).toContain(user.email);
    const code = await smtp.codeFor(user.email);
    expect(await stateOf(user)).toEqual(NOTHING);

    const wrong = await setUp(user.token, { current_code: code === '000000' ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().fields.current_code).toBe('Invalid or expired OTP code');
    expect(await stateOf(user)).toEqual(NOTHING);

    const ok = await setUp(user.token, { current_code: code });
    expect(ok.statusCode).toBe(200);
    const { secret } = ok.json() as { secret: string };
    expect((await enable(user.token, codeOf(secret))).statusCode).toBe(200);
    expect((await stateOf(user)).on).toEqual(expect.any(Date));
    // The mailed code served once.
    await t.database.db.update(profiles).set({ totp_enabled_at: null, totp_secret: null }).where(eq(profiles.id, user.id));
    expect((await setUp(user.token, { current_code: code })).statusCode).toBe(403);
  });
});

describe('the migration that makes setup need the owner', () => {
  it('drops secrets set up before it and never enabled, and keeps enabled ones', async () => {
    const { url, client } = await databaseBeforeMigration('"totp_enabled_at" IS NULL AND "totp_secret" IS NOT NULL');
    try {
      await client.query(`insert into profiles (email, full_name, totp_secret, totp_enabled_at) values
        ('half@example.test', 'Half Way', 'JBSWY3DPEHPK3PXP', null), ('on@example.test', 'Turned On', 'KRSXG5CTMVRXEZLU', now())`);
    } finally {
      await client.end();
    }
    const database = connect(url, 2);
    try {
      await runMigrations(database);
      const rows = await database.db.select({ email: profiles.email, secret: profiles.totp_secret }).from(profiles).orderBy(profiles.email);
      expect(rows).toEqual([{ email: 'half@example.test', secret: null }, { email: 'on@example.test', secret: 'KRSXG5CTMVRXEZLU' }]);
    } finally {
      await database.close();
    }
  });
});
