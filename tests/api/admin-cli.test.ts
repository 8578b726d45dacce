import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, profiles } from '@server/db/schema.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress, uniqueEmail } from './auth-fixtures.js';

// `npm run admin`'s entry point run as its own process on the test's database, as an operator
// would on the server's machine.

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  t = await createTestApp();
  dataDir = mkdtempSync(path.join(tmpdir(), 'admin-cli-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function admin(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/admin-cli-main.ts', ...args], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: t.database.url, DATA_DIR: dataDir, SESSION_SECRET: randomBytes(32).toString('hex') },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const signIn = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: { 'x-forwarded-for': uniqueAddress() } });

const profileOf = async (email: string) => (await t.database.db.select().from(profiles).where(eq(profiles.email, email)))[0];
const auditOf = (id: string) => t.database.db.select().from(auditLog).where(eq(auditLog.target_id, id));

describe('npm run admin -- create-admin', () => {
  it('creates an admin with a generated password shown once, who signs in and must enrol in two-step sign-in', async () => {
    const email = uniqueEmail('ops');
    const run = await admin(['create-admin', '--email', email, '--name', 'Awa Mba']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const password = /Password \(shown only now[^)]*\): (\S+)/.exec(run.stdout)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(run.stdout.split(password)).toHaveLength(2);

    const profile = (await profileOf(email))!;
    expect(profile).toMatchObject({ role: 'admin', full_name: 'Awa Mba', totp_enabled_at: null });
    expect(profile.email_verified_at).not.toBeNull();
    const login = await signIn(email, password);
    expect(login.statusCode).toBe(200);
    const token = login.json().token as string;
    expect((await t.request({ method: 'GET', url: '/api/admin/stats', token })).json().code).toBe('mfa_enrollment_required');
    // The audit log has the role given, with no one signed in as its actor ("System" on screen).
    expect(await auditOf(profile.id)).toEqual([expect.objectContaining({ action: 'profile.role_update', actor_profile_id: null, before: null, after: { role: 'admin' } })]);
  });

  it('takes the password from stdin without printing it', async () => {
    const email = uniqueEmail('piped');
    const password = 'lantern-orbit-71-quay';
    const run = await admin(['create-admin', '--email', email, '--password-stdin'], `${password}\n`);
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(password);
    expect((await signIn(email, password)).statusCode).toBe(200);
  });

  it('refuses a password the sign-up would refuse, creating nothing', async () => {
    const email = uniqueEmail('weak');
    const common = await admin(['create-admin', '--email', email, '--password-stdin'], 'password123\n');
    expect(common.code).toBe(2);
    expect(common.stderr).toMatch(/^Password: .*common/i);
    const short = await admin(['create-admin', '--email', email, '--password-stdin'], 'Ab1!\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('Password: ');
    expect(await profileOf(email)).toBeUndefined();
  });

  it('refuses a bad address, a taken one and an unknown command', async () => {
    expect((await admin(['create-admin', '--email', 'not-an-address'])).stderr).toMatch(/^E-mail: /);
    const taken = await createUser(t);
    const again = await admin(['create-admin', '--email', taken.email]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect((await profileOf(taken.email))!.role).toBe('user');
    expect((await admin(['make-me-admin'])).code).toBe(2);
  });
});

describe('npm run admin -- reset-mfa', () => {
  it('clears a staff member\'s two-step sign-in and ends their sessions, audited without an actor', async () => {
    const manager = await createUser(t, { role: 'manager', totp_secret: 'sealed-secret', totp_enabled_at: new Date() });
    expect((await t.request({ method: 'GET', url: '/api/profiles/me', token: manager.token })).statusCode).toBe(200);

    const run = await admin(['reset-mfa', '--email', manager.email.toUpperCase()]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Two-step sign-in reset for ${manager.email} (manager); 1 session(s) ended.`);

    expect((await profileOf(manager.email))!).toMatchObject({ totp_secret: null, totp_enabled_at: null });
    expect((await t.request({ method: 'GET', url: '/api/profiles/me', token: manager.token })).statusCode).toBe(401);
    expect(await auditOf(manager.id)).toEqual([expect.objectContaining({
      action: 'profile.mfa_reset', actor_profile_id: null, ip: null, before: { totp_enabled: true }, after: { totp_enabled: false },
    })]);
  });

  it('says so for an unknown address', async () => {
    const run = await admin(['reset-mfa', '--email', uniqueEmail('nobody')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no account has the address');
  });
});
