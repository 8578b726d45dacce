import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The server keeps nothing in memory that matters: two real server processes on one database and
// one Redis answer as one (docs/decisions/016-price-cache-and-scale-out.md, README "Deploying past
// one machine").
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `mt-test-${randomBytes(4).toString('hex')}:`;
const secret = randomBytes(32).toString('hex');

interface ServerProcess { child: ChildProcess; url: string }

/** `tsx src/server/main.ts` on the given database, answering once it prints where it listens. */
function startServerProcess(databaseUrl: string, dataDir: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl, REDIS_URL, REDIS_KEY_PREFIX: prefix, SESSION_SECRET: secret, TRUST_PROXY: 'true',
      ADMIN_EMAIL: 'first-admin@example.test', ADMIN_PASSWORD: 'first-admin-password',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (found) resolve({ child, url: found[1]! });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
}

async function stop(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

const call = async (server: ServerProcess, method: string, url: string, opts: { token?: string; body?: object; address?: string } = {}) => {
  const res = await fetch(server.url + url, {
    method,
    headers: {
      ...(opts.body ? { 'content-type': 'application/json' } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.address ? { 'x-forwarded-for': opts.address } : {}),
    },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: () => JSON.parse(text) };
};

let db: TestApp;
let one: ServerProcess;
let other: ServerProcess;
let admin: TestUser;
let dataDir: string;
beforeAll(async () => {
  // A fresh database from the migrated template; the in-process app only lends it.
  db = await createTestApp();
  admin = await createUser(db, { role: 'admin' });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'mt-two-'));
  // One after the other: each start migrates and seeds, as a rolling deploy would.
  one = await startServerProcess(db.database.url, path.join(dataDir, 'one'));
  other = await startServerProcess(db.database.url, path.join(dataDir, 'other'));
}, 60_000);
afterAll(async () => {
  await Promise.all([stop(one), stop(other)]);
  await db?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const signIn = async (server: ServerProcess, user: TestUser) => {
  const res = await call(server, 'POST', '/api/auth/login', { body: { email: user.email, password: user.password }, address: '203.0.113.7' });
  expect(res.status).toBe(200);
  return res.json().token as string;
};

describe('two server processes on one database and one Redis', () => {
  it('a session made on one works on the other, and signing out on the other ends it on both', async () => {
    const user = await createUser(db, { full_name: 'Two Machines' });
    const token = await signIn(one, user);
    expect((await call(other, 'GET', '/api/profiles/me', { token })).json().data).toMatchObject({ id: user.id, full_name: 'Two Machines' });
    expect((await call(other, 'POST', '/api/auth/logout', { token })).status).toBeLessThan(300);
    expect((await call(one, 'GET', '/api/profiles/me', { token })).status).toBe(401);
  });

  it('rate limits are shared: wrong passwords counted on both, refused on either', async () => {
    const user = await createUser(db);
    const address = '198.51.100.23';
    const wrong = (server: ServerProcess) =>
      call(server, 'POST', '/api/auth/login', { body: { email: user.email, password: 'not-the-password' }, address });
    // Ten a quarter-hour per account and address (src/server/modules/auth/limits.ts), split over both.
    for (let i = 0; i < 10; i++) expect((await wrong(i % 2 ? other : one)).status).toBe(401);
    expect((await wrong(one)).status).toBe(429);
    expect((await wrong(other)).status).toBe(429);
  });

  it('a fee edit on one is served by the other\'s cached /api/fees within one second', async () => {
    const token = await signIn(one, admin);
    // Staff endpoints need two-step sign-in: enrolling verifies this session.
    const { secret: totp } = (await call(one, 'POST', '/api/auth/mfa/setup', { token, body: { current_password: admin.password } })).json() as { secret: string };
    const code = new TOTP({ secret: Secret.fromBase32(totp) }).generate();
    expect((await call(one, 'POST', '/api/auth/mfa/enable', { token, body: { code } })).status).toBe(200);
    interface Tier { id: string; direction: string; percentage: string; max_amount: string | null }
    const top = async (server: ServerProcess) =>
      ((await call(server, 'GET', '/api/fees')).json().data as Tier[]).find((x) => x.direction === 'USD_RWF' && x.max_amount === null)!;
    const tier = await top(other);
    await top(other);
    const next = tier.percentage === '0.033000' ? '0.034' : '0.033';
    expect((await call(one, 'PATCH', `/api/fees/${tier.id}`, { token, body: { percentage: next } })).status).toBe(200);
    const deadline = Date.now() + 1_000;
    let seen = (await top(other)).percentage;
    while (seen !== Number(next).toFixed(6) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      seen = (await top(other)).percentage;
    }
    expect(seen).toBe(Number(next).toFixed(6));
  });

  it('a job enqueued by one is done once by whichever worker takes it', async () => {
    // Both processes run a worker; without SMTP_URL each e-mail lands in the outbox table.
    const users = await Promise.all(Array.from({ length: 8 }, () => createUser(db)));
    for (const [i, user] of users.entries()) {
      const res = await call(i % 2 ? other : one, 'POST', '/api/auth/reset-password', { body: { email: user.email }, address: `192.0.2.${i + 1}` });
      expect(res.status).toBe(200);
    }
    const emails = users.map((u) => u.email.toLowerCase());
    const counts = async () => {
      const { rows } = await db.database.pool.query<{ to: string; n: number }>(
        `select lower("to") as to, count(*)::int as n from mail_outbox where lower("to") = any($1) group by 1`, [emails]);
      const { rows: [jobs] } = await db.database.pool.query<{ n: number }>('select count(*)::int as n from graphile_worker.jobs');
      return { perUser: Object.fromEntries(rows.map((r) => [r.to, r.n])), pending: jobs!.n };
    };
    const deadline = Date.now() + 20_000;
    let seen = await counts();
    while ((Object.keys(seen.perUser).length < users.length || seen.pending > 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await counts();
    }
    expect(seen.pending).toBe(0);
    expect(seen.perUser).toEqual(Object.fromEntries(emails.map((e) => [e, 1])));
  });
});
