import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress, uniqueEmail } from './auth-fixtures.js';

// A stalled mail server delays only the e-mail it stalls on: every wait on it is bounded by
// SMTP_TIMEOUT_MS, the e-mail fails and is retried later, and the worker goes on to the next one.
// How long each wait takes: npm run bench -- smtp-stall.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});

async function app(env: Record<string, string>): Promise<TestApp> {
  const t = await createTestApp({ env });
  cleanups.push(() => t.close());
  return t;
}

const register = (t: TestApp, email: string) =>
  t.request({ method: 'POST', url: '/api/auth/register', payload: registration({ email }), headers: { 'x-forwarded-for': uniqueAddress() } });

/** The mail job to `to`, as the queue holds it (null once done). */
async function mailJob(t: TestApp, to: string) {
  const { rows } = await t.database.pool.query<{ attempts: number; max_attempts: number; last_error: string | null }>(
    // The public view leaves out the payload, which names the recipient.
    `select attempts, max_attempts, last_error from graphile_worker._private_jobs where payload->'message'->>'to' = $1`, [to]);
  return rows[0] ?? null;
}

describe('a stalled mail server', () => {
  it('silent after DATA: that e-mail fails within the timeout and is sent on a later try; a sign-up code queued behind it arrives meanwhile', async () => {
    const smtp = await new SmtpListener().start();
    cleanups.push(() => smtp.stop());
    const t = await app({ SMTP_URL: smtp.url, SMTP_TIMEOUT_MS: '1000' });
    const stuck = uniqueEmail('stuck');
    const other = uniqueEmail('other');
    smtp.stallMailTo(stuck);

    expect((await register(t, stuck)).statusCode).toBe(200);
    expect((await register(t, other)).statusCode).toBe(200);

    // The other code arrives while the stalled one is still unsent (a guard of 5 s: it did not wait for the stall to end).
    await smtp.waitFor(other, /verification code/, 5_000);
    expect(smtp.messages.filter((m) => m.to.includes(stuck))).toHaveLength(0);
    // The stalled one failed on a timeout meanwhile and waits for its next try (of 10): not parked, not lost.
    await expect.poll(async () => (await mailJob(t, stuck))?.last_error, { timeout: 5_000 }).toMatch(/timeout/i);
    const failed = await mailJob(t, stuck);
    expect(failed?.max_attempts).toBe(10);
    expect(failed!.attempts).toBeLessThan(10);

    smtp.resume();
    await smtp.waitFor(stuck, /verification code/, 20_000);
    await t.jobsDone(20_000);
    expect(smtp.messages.filter((m) => m.to.includes(stuck)).length).toBe(1);
  }, 40_000);

  it('greets and goes silent: the e-mail fails within the timeout and stays queued for a later try', async () => {
    // Says "220" as every mail server does first, then never answers again.
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => { sockets.add(s); s.on('error', () => {}); s.write('220 mail.example.test ESMTP\r\n'); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const t = await app({ SMTP_URL: `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`, SMTP_TIMEOUT_MS: '1000' });
    const email = uniqueEmail('greeted');

    expect((await register(t, email)).statusCode).toBe(200);
    await expect.poll(async () => (await mailJob(t, email))?.last_error, { timeout: 5_000 }).toMatch(/timeout/i);
    const job = await mailJob(t, email);
    expect(job!.attempts).toBeLessThan(job!.max_attempts);
  }, 30_000);
});
