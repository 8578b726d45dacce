import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '@server/app.js';
import { databaseSwitch } from '../support/database-switch.js';
import { createUser, type TestUser } from '../support/factories.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { exitWithin, killServer, spawnServer } from '../support/server-process.js';
import { WorkerProcesses } from '../support/worker-processes.js';

// E-mails are durable jobs (docs/decisions/014-durable-jobs.md): a request never waits on SMTP,
// an outage delays mail and never loses it, a stopped worker's job is done after restart, once,
// and a job that keeps failing is parked for the admin, who can retry it.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

/** A port where nothing listens: SMTP down. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A mail server that takes connections and never says a word: a request waiting on it would hang. */
async function silentServer(): Promise<{ url: string; connections: () => number }> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const server = net.createServer((s) => { count += 1; sockets.add(s); s.on('error', () => {}); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => count };
}

async function app(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp({ env });
  cleanups.push(() => t.close());
  return t;
}

/** An app that only queues jobs (RUN_WORKER=false), its sender, and a mail server that takes their e-mail and never answers. */
async function stalledMail(): Promise<{ smtp: SmtpListener; t: TestApp; sender: TestUser }> {
  const smtp = await new SmtpListener().start();
  cleanups.push(() => smtp.stop());
  const t = await app({ RUN_WORKER: 'false' });
  const sender = await createUser(t, { full_name: 'Awa Sender' });
  smtp.stallMailTo(sender.email);
  return { smtp, t, sender };
}

const transfer = {
  source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '10000', currency: 'XAF',
  destination_details: { recipient_email: 'marie@example.test', recipient_name: 'Marie Curie' }, source_details: {},
};

function initiate(t: TestApp, sender: TestUser) {
  return t.request({ method: 'POST', url: '/api/payments/initiate', payload: transfer, token: sender.token });
}

/** `npm run worker`'s entry point as a process of its own on the test's database, once it has started. */
async function workerProcess(t: TestApp, smtpUrl: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  const workers = new WorkerProcesses(() => ({ SMTP_URL: smtpUrl, ...env }));
  cleanups.push(() => workers.killAll());
  return workers.start(t.database.url);
}

const mailsTo = (smtp: SmtpListener, email: string, match: RegExp) =>
  smtp.messages.filter((m) => m.to.includes(email.toLowerCase()) && match.test(m.raw)).length;

/** The queue's row for our one job, as the database holds it. */
async function jobState(t: TestApp) {
  const rows = await t.database.db.execute(sql`select id::text as id, attempts, max_attempts, locked_at from graphile_worker.jobs`);
  return rows.rows as Array<{ id: string; attempts: number; max_attempts: number; locked_at: Date | null }>;
}

describe('the mail connection is kept', () => {
  it('e-mails one after another go over one SMTP connection; after the mail server restarts, the next goes over a new one, once', async () => {
    const smtp = await new SmtpListener().start();
    const t = await app({ SMTP_URL: smtp.url });
    const sender = await createUser(t, { full_name: 'Awa Sender' });
    const createdMail = async (listener: SmtpListener) => {
      const res = await initiate(t, sender);
      expect(res.statusCode).toBe(201);
      const created = new RegExp(`Transfer ${res.json().data.reference as string} created`);
      await listener.waitFor(sender.email, created, 20_000);
      return created;
    };
    for (let i = 0; i < 3; i++) await createdMail(smtp);
    expect(smtp.messages.length).toBeGreaterThanOrEqual(3);
    expect(smtp.connections).toBe(1);

    // Restarted on the same address: the kept connection is gone (421), the next e-mail opens another.
    await smtp.stop();
    const again = await new SmtpListener().start(Number(new URL(smtp.url).port));
    cleanups.push(() => again.stop());
    const created = await createdMail(again);
    await expect.poll(async () => (await jobState(t)).length, { timeout: 5000 }).toBe(0);
    expect(mailsTo(again, sender.email, created)).toBe(1);
    expect(again.connections).toBe(1);
  }, 60_000);

  it('SMTP_URL with ?pool=false opens a connection for each e-mail', async () => {
    const smtp = await new SmtpListener().start();
    cleanups.push(() => smtp.stop());
    const t = await app({ SMTP_URL: `${smtp.url}?pool=false` });
    const sender = await createUser(t, { full_name: 'Awa Sender' });
    for (let i = 0; i < 2; i++) {
      const res = await initiate(t, sender);
      expect(res.statusCode).toBe(201);
      await smtp.waitFor(sender.email, new RegExp(`Transfer ${res.json().data.reference as string} created`), 20_000);
    }
    expect(smtp.connections).toBe(smtp.messages.length);
    expect(smtp.connections).toBeGreaterThanOrEqual(2);
  }, 60_000);
});

describe('e-mails are queued, not sent inside requests', () => {
  it('SMTP down: initiate answers 201 at once, and the creation e-mail arrives once SMTP is back', async () => {
    const port = await closedPort();
    const t = await app({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const sender = await createUser(t, { full_name: 'Awa Sender' });
    const admin = await createUser(t, { role: 'admin' });

    const res = await initiate(t, sender);
    expect(res.statusCode).toBe(201);
    const reference = res.json().data.reference as string;

    // The worker tried, failed and will try again later: not parked, so no admin retry yet.
    await expect.poll(async () => (await jobState(t))[0]?.attempts ?? 0, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    const [job] = await jobState(t);
    const early = await t.request({ method: 'POST', url: `/api/admin/jobs/${job!.id}/retry`, token: admin.token });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('This job is not parked: it is still being retried or already running.');

    const smtp = new SmtpListener();
    await smtp.start(port);
    cleanups.push(() => smtp.stop());
    await smtp.waitFor(sender.email, new RegExp(`Transfer ${reference} created`), 20_000);
    await expect.poll(async () => (await jobState(t)).length, { timeout: 5000 }).toBe(0);
    expect(mailsTo(smtp, sender.email, new RegExp(`Transfer ${reference} created`))).toBe(1);
  }, 40_000);

  it('a mail server that never answers: initiate does not wait; the app stopped mid-job sends the mail after restart, once', async () => {
    const silent = await silentServer();
    const t = await app({ SMTP_URL: silent.url });
    const sender = await createUser(t, { full_name: 'Awa Sender' });

    // Answered while the mail server has taken the worker's connection and said nothing.
    const res = await initiate(t, sender);
    expect(res.statusCode).toBe(201);
    const reference = res.json().data.reference as string;
    await expect.poll(silent.connections, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    expect((await jobState(t))[0]?.locked_at).not.toBeNull();
    const second = await initiate(t, sender);
    expect(second.statusCode).toBe(201);

    // Stop the app (and its worker) while the job is running, then start it again with a mail
    // server that works, on the same database.
    await t.app.close();
    const smtp = await new SmtpListener().start();
    cleanups.push(() => smtp.stop());
    const again = await buildApp({
      config: { ...t.config, SMTP_URL: smtp.url }, database: t.database, logger: pino({ level: 'silent' }), sessionSecret: 'x'.repeat(32),
    });
    await again.ready();
    cleanups.push(() => again.close());

    const created = new RegExp(`Transfer ${reference} created`);
    await smtp.waitFor(sender.email, created, 20_000);
    await expect.poll(async () => (await jobState(t)).length, { timeout: 10_000 }).toBe(0);
    expect(mailsTo(smtp, sender.email, created)).toBe(1);
  }, 40_000);

  it('a worker process whose job worker died (the database gone when its job ended) exits with an error, for its supervisor to start another', async () => {
    const { smtp, t, sender } = await stalledMail();
    const worker = await workerProcess(t, smtp.url, { SMTP_TIMEOUT_MS: '1500' });
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    const database = await databaseSwitch(t.database.url, cleanups);
    expect((await initiate(t, sender)).statusCode).toBe(201);
    // The worker is on the stalled e-mail; the database goes away until its send has timed out.
    await expect.poll(() => smtp.connections, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await database.down();
    expect(await exited).toBe(1);
  }, 40_000);

  it("a server whose own job worker died (the database gone when its job ended) keeps running, says so in its readiness once the database is back, and exits 0 on SIGTERM", async () => {
    const { smtp, t, sender } = await stalledMail();
    const database = await databaseSwitch(t.database.url, cleanups);
    expect((await initiate(t, sender)).statusCode).toBe(201);
    const server = await spawnServer({ DATABASE_URL: t.database.url, SMTP_URL: smtp.url, SMTP_TIMEOUT_MS: '1500' });
    cleanups.push(() => killServer(server));
    expect(server.url).not.toBe('');
    // Its worker is on the stalled e-mail; the database goes away until the send has timed out.
    await expect.poll(() => smtp.connections, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await database.down();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await database.up();
    expect(await exitWithin(server, 0)).toBeNull();
    await expect.poll(async () => {
      const ready = await fetch(`${server.url}/api/health/ready`);
      return { status: ready.status, body: await ready.json() as unknown };
    }, { timeout: 15_000 }).toEqual({ status: 503, body: { status: 'error', down: ['job_worker'] } });
    // It let go of the job it held: a worker process takes it over and the e-mail is sent, once.
    const working = await new SmtpListener().start();
    cleanups.push(() => working.stop());
    await workerProcess(t, working.url);
    await working.waitFor(sender.email, /created/, 20_000);
    await expect.poll(async () => (await jobState(t)).length, { timeout: 10_000 }).toBe(0);
    expect(mailsTo(working, sender.email, /created/)).toBe(1);
    // Its stop waits for the pool that already stopped itself, rather than failing the shutdown.
    server.child.kill('SIGTERM');
    expect(await server.exited, server.stdout() + server.stderr()).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('a worker process killed outright mid-job: a new worker takes the job over within seconds, and it is done once', async () => {
    const silent = await silentServer();
    // The app only queues; the worker runs as its own process (RUN_WORKER=false, npm run worker).
    const t = await app({ RUN_WORKER: 'false' });
    const sender = await createUser(t, { full_name: 'Awa Sender' });
    const doomed = await workerProcess(t, silent.url);

    const res = await initiate(t, sender);
    expect(res.statusCode).toBe(201);
    const created = new RegExp(`Transfer ${res.json().data.reference as string} created`);
    // The worker has taken the job and is stuck on the mail server.
    await expect.poll(silent.connections, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect((await jobState(t))[0]?.locked_at).not.toBeNull();

    const killed = new Promise((resolve) => doomed.once('exit', resolve));
    doomed.kill('SIGKILL');
    await killed;
    // Still locked by the dead worker: graphile-worker alone would wait 4 hours.
    expect((await jobState(t))[0]?.locked_at).not.toBeNull();

    const smtp = await new SmtpListener().start();
    cleanups.push(() => smtp.stop());
    await workerProcess(t, smtp.url);
    const started = Date.now();
    await smtp.waitFor(sender.email, created, 15_000);
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect.poll(async () => (await jobState(t)).length, { timeout: 5000 }).toBe(0);
    expect(mailsTo(smtp, sender.email, created)).toBe(1);
  }, 60_000);

  it('a job running longer than the liveness sweeps (every 5 s, 2 s grace) in a live worker process is left to it: no other worker takes it over', async () => {
    const { smtp, t, sender } = await stalledMail();
    // Two live worker processes: each sweeps for the jobs of dead ones.
    await workerProcess(t, smtp.url, { SMTP_TIMEOUT_MS: '20000' });
    await workerProcess(t, smtp.url, { SMTP_TIMEOUT_MS: '20000' });
    expect((await initiate(t, sender)).statusCode).toBe(201);
    await expect.poll(() => smtp.connections, { timeout: 10_000 }).toBe(1);
    const [taken] = await t.database.db.execute<{ locked_by: string }>(sql`select locked_by from graphile_worker.jobs`).then((r) => r.rows);
    expect(taken?.locked_by).toBeTruthy();

    // Through three sweeps of each process, the job stays with the worker that took it, on its first attempt.
    for (const until = Date.now() + 16_000; Date.now() < until;) {
      expect(await t.database.db.execute(sql`select locked_by, attempts from graphile_worker.jobs`).then((r) => r.rows)).toEqual([{ locked_by: taken!.locked_by, attempts: 1 }]);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(smtp.connections).toBe(1);
  }, 60_000);

  it('a job that keeps failing is parked, listed for the admin without its body, and a retry sends it', async () => {
    const port = await closedPort();
    const t = await app({ SMTP_URL: `smtp://127.0.0.1:${port}`, JOB_MAX_ATTEMPTS: '1' });
    const sender = await createUser(t, { full_name: 'Awa Sender' });
    const admin = await createUser(t, { role: 'admin' });
    const staff = await createUser(t, { role: 'manager' });

    const res = await initiate(t, sender);
    expect(res.statusCode).toBe(201);
    const reference = res.json().data.reference as string;

    const list = () => t.request({ method: 'GET', url: '/api/admin/jobs?state=failed', token: admin.token });
    await expect.poll(async () => (await list()).json().data.length, { timeout: 5000 }).toBe(1);
    const answer = await list();
    const [job] = answer.json().data;
    expect(job).toMatchObject({ kind: 'transfer_mail', attempts: 1, max_attempts: 1 });
    expect(job.last_error).toMatch(/ECONNREFUSED/);
    expect(Object.keys(job).sort()).toEqual(['attempts', 'created_at', 'id', 'kind', 'last_error', 'max_attempts', 'updated_at']);
    expect(answer.body).not.toContain(reference);
    expect(answer.body).not.toContain(sender.email);

    const stats = await t.request({ method: 'GET', url: '/api/admin/stats', token: admin.token });
    expect(stats.json().data.parked_jobs).toBe(1);
    const staffStats = await t.request({ method: 'GET', url: '/api/admin/stats', token: staff.token });
    expect(staffStats.json().data).not.toHaveProperty('parked_jobs');
    expect((await t.request({ method: 'GET', url: '/api/admin/jobs', token: staff.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/admin/jobs/${job.id}/retry`, token: staff.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/admin/jobs/999999/retry', token: admin.token })).statusCode).toBe(404);

    const smtp = new SmtpListener();
    await smtp.start(port);
    cleanups.push(() => smtp.stop());
    const retried = await t.request({ method: 'POST', url: `/api/admin/jobs/${job.id}/retry`, token: admin.token });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ id: job.id, attempts: 0 });

    await smtp.waitFor(sender.email, new RegExp(`Transfer ${reference} created`), 10_000);
    await expect.poll(async () => (await list()).json().data.length, { timeout: 5000 }).toBe(0);
    expect((await t.request({ method: 'GET', url: '/api/admin/stats', token: admin.token })).json().data.parked_jobs).toBe(0);
    // Done and gone: nothing left to retry. The mail can arrive before the worker has removed the job
    // it ran (until then a retry answers 409, still running).
    const retryAgain = async () => (await t.request({ method: 'POST', url: `/api/admin/jobs/${job.id}/retry`, token: admin.token })).statusCode;
    await expect.poll(retryAgain, { timeout: 10_000 }).toBe(404);
  }, 40_000);
});
