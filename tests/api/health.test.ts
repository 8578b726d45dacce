import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseSwitch } from '../support/database-switch.js';
import { createUser } from '../support/factories.js';
import { RedisServer } from '../support/redis-server.js';
import { exitWithin, killServer, spawnServer } from '../support/server-process.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress, uniqueEmail } from './auth-fixtures.js';

// Probes for a supervisor and a load balancer: /api/health/live (the process answers) and
// /api/health/ready (PostgreSQL, Redis when configured and this process's job worker answer,
// and it is not shutting down); /api/health keeps its old answer.

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => {});
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ env });
  cleanups.push(() => t.close());
  return t;
}

const ready = async (t: TestApp) => {
  const res = await t.request({ method: 'GET', url: '/api/health/ready' });
  return { status: res.statusCode, body: res.json() as { status: string; down: string[] } };
};

describe('GET /api/health/live and /api/health/ready', () => {
  it('both answer 200 when everything is up; the old /api/health is unchanged', async () => {
    const t = await app();
    const live = await t.request({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect(await ready(t)).toEqual({ status: 200, body: { status: 'ok', down: [] } });
    const old = await t.request({ method: 'GET', url: '/api/health' });
    expect(old.statusCode).toBe(200);
    expect(old.json()).toEqual({ status: 'ok', database: 'reachable' });
  });

  it('PostgreSQL unreachable: ready answers 503 naming the database while live still answers; ready again once it is back', async () => {
    const t = await app();
    const database = await databaseSwitch(t.database.url, cleanups);
    await database.down();
    expect(await ready(t)).toEqual({ status: 503, body: { status: 'error', down: ['database'] } });
    expect((await t.request({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/health' })).json()).toEqual({ status: 'error', database: 'unreachable' });
    await database.up();
    await expect.poll(async () => (await ready(t)).status, { timeout: 5_000 }).toBe(200);
  });

  // How long ready takes to say so: npm run bench -- redis-outage.
  it('Redis configured and killed: ready answers 503 naming Redis on the first ask; 200 again once it is back', async () => {
    const redis = await new RedisServer().start();
    cleanups.push(() => redis.kill());
    const t = await app({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: `mt-test-health-${Date.now()}:` });
    expect((await ready(t)).status).toBe(200);
    await redis.kill();
    expect(await ready(t)).toEqual({ status: 503, body: { status: 'error', down: ['redis'] } });
    await redis.start();
    await expect.poll(async () => (await ready(t)).status, { timeout: 10_000 }).toBe(200);
  });

  it('a process that runs no job worker (RUN_WORKER=false) is ready without one', async () => {
    const t = await app({ RUN_WORKER: 'false' });
    expect(await ready(t)).toEqual({ status: 200, body: { status: 'ok', down: [] } });
  });

  it('the database gone when a job ended: ready names the database while it is gone; once back, the job\'s end is recorded and the worker goes on', async () => {
    const smtp = await new SmtpListener().start();
    cleanups.push(() => smtp.stop());
    const t = await app({ SMTP_URL: smtp.url, SMTP_TIMEOUT_MS: '1500' });
    const database = await databaseSwitch(t.database.url, cleanups);
    const email = uniqueEmail('stalled');
    smtp.stallMailTo(email);
    const res = await t.request({ method: 'POST', url: '/api/auth/register', payload: registration({ email }), headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(res.statusCode).toBe(200);
    // The worker is on the stalled e-mail; the database goes away until its send has timed out.
    await expect.poll(() => smtp.connections, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await database.down();
    await expect.poll(async () => (await ready(t)).body.down, { timeout: 10_000 }).toEqual(['database']);
    await database.up();
    await expect.poll(async () => (await ready(t)).status, { timeout: 15_000 }).toBe(200);
    // The failed send is recorded as a failure to retry at the worker's next try to record it (with
    // backoff), not lost: the job waits unlocked for its next attempt.
    await expect.poll(async () => (await t.database.pool.query(
      `select attempts, last_error is not null as failed, locked_at is null as unlocked from graphile_worker.jobs where task_identifier = 'mail'`)).rows,
    { timeout: 30_000, interval: 250 }).toEqual([{ attempts: 1, failed: true, unlocked: true }]);
  }, 60_000);

  it('both are in the published contract', async () => {
    const t = await app();
    const { paths } = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    expect(Object.keys(paths['/api/health/live']!.get.responses)).toContain('200');
    expect(Object.keys(paths['/api/health/ready']!.get.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });
});

describe('SIGTERM', () => {
  it('ready answers 503 at once; a request in flight is answered; then the process exits 0', async () => {
    const db = await app({ RUN_WORKER: 'false' });
    const user = await createUser(db);
    const server = await spawnServer({
      DATABASE_URL: db.database.url, SHUTDOWN_DELAY_MS: '1500', ADMIN_EMAIL: 'admin@example.test', ADMIN_PASSWORD: 'admin-password-1',
    });
    cleanups.push(() => killServer(server));
    expect(server.url, server.stdout() + server.stderr()).not.toBe('');
    const before = await fetch(`${server.url}/api/health/ready`);
    expect(before.status, await before.text()).toBe(200);

    // A sign-in whose body is still on its way when SIGTERM arrives.
    const body = JSON.stringify({ email: user.email, password: user.password });
    const { hostname, port } = new URL(server.url);
    const inFlight = http.request({ host: hostname, port, method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const answered = new Promise<number>((resolve, reject) => {
      inFlight.on('response', (res) => { res.resume(); resolve(res.statusCode ?? 0); });
      inFlight.on('error', reject);
    });
    inFlight.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const draining = await fetch(`${server.url}/api/health/ready`);
    expect(await draining.json(), server.stdout() + server.stderr()).toEqual({ status: 'error', down: ['shutting_down'] });
    expect(draining.status).toBe(503);
    expect((await fetch(`${server.url}/api/health/live`)).status).toBe(200);

    // Past the delay the server stops taking connections; the sign-in under way still gets its answer.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    inFlight.end(body.slice(10));
    expect(await answered).toBe(200);
    expect(await exitWithin(server, 10_000)).toEqual({ code: 0, signal: null });
  }, 60_000);
});
