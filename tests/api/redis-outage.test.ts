import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { RedisServer } from '../support/redis-apps.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Redis down never slows a sign-in or a quote: the limits are counted in each process at once, the outage is
// logged once, and once Redis is back the processes share their counts in it again (README
// "Deploying past one machine").

/** A bound far above a sign-in's normal time on a busy machine, far below the seconds it took while Redis was down. */
const NORMAL_MS = 1_000;

const redis = new RedisServer();
const prefix = `mt-test:${randomBytes(6).toString('hex')}:`;
const logs = { a: [] as string[], b: [] as string[] };
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  await redis.start();
  const env = { REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix };
  const logger = (lines: string[]) => pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  [a, b] = await Promise.all([createTestApp({ env, logger: logger(logs.a) }), createTestApp({ env, logger: logger(logs.b) })]);
}, 30_000);
afterAll(async () => {
  await a?.close();
  await b?.close();
  await redis.kill();
});

const signIn = async (t: TestApp, user: TestUser, password = user.password, address = '203.0.113.50') => {
  const started = performance.now();
  const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password }, headers: { 'x-forwarded-for': address } });
  return { status: res.statusCode, ms: performance.now() - started };
};

const said = (lines: string[], text: string) => lines.filter((l) => l.includes(text)).length;

describe('Redis killed during sign-ins, then back', () => {
  it('sign-ins and quotes answer in normal time through the outage, both limited per process, with one log line; once back, the limits are shared again', async () => {
    const user = await createUser(a);
    // Twenty sign-ins one after another; Redis is killed outright after the fifth.
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      if (i === 5) await redis.kill();
      const { status, ms } = await signIn(a, user);
      expect(status).toBe(200);
      times.push(ms);
    }
    expect(Math.max(...times)).toBeLessThan(NORMAL_MS);
    // Quotes, whose per-address ceiling is counted in Redis too, pass at once, counted in each
    // process meanwhile: 300 a minute per address (docs/rules/fees-and-rates.md), then refused on
    // this process only.
    const quote = (t: TestApp) => t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: '100' }, headers: { 'x-forwarded-for': '203.0.113.51' } });
    const quoteTimes: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      expect((await quote(a)).statusCode).toBe(200);
      quoteTimes.push(performance.now() - started);
    }
    expect(Math.max(...quoteTimes)).toBeLessThan(NORMAL_MS);
    expect((await quote(a)).statusCode).toBe(429);
    expect((await quote(b)).statusCode).toBe(200);

    // Still limited meanwhile, by each process's own counters: ten wrong passwords a quarter-hour
    // per account and address (docs/rules/accounts.md), then refused on this process only.
    const guessed = await createUser(a);
    for (let i = 0; i < 10; i++) expect((await signIn(a, guessed, 'wrong-password', '198.51.100.60')).status).toBe(401);
    const refused = await signIn(a, guessed, 'wrong-password', '198.51.100.60');
    expect(refused.status).toBe(429);
    expect(refused.ms).toBeLessThan(NORMAL_MS);
    expect((await signIn(b, guessed, 'wrong-password', '198.51.100.60')).status).toBe(401);
    // One line for the whole outage, however many sign-ins it met.
    expect(said(logs.a, 'redis unreachable')).toBe(1);

    // Back on the same address: both processes count in it again, and say so once.
    await redis.start();
    await expect.poll(() => said(logs.a, 'redis reachable again') + said(logs.b, 'redis reachable again'), { timeout: 10_000 }).toBe(2);
    const other = await createUser(a);
    for (let i = 0; i < 10; i++) expect((await signIn(i % 2 ? b : a, other, 'wrong-password', '198.51.100.61')).status).toBe(401);
    expect((await signIn(a, other, 'wrong-password', '198.51.100.61')).status).toBe(429);
    expect((await signIn(b, other, 'wrong-password', '198.51.100.61')).status).toBe(429);
    const client = new Redis(redis.url);
    try {
      expect((await client.keys(`${prefix}login:*`)).length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('Redis stops answering on open connections: after the first wait (half a second at most) sign-ins answer in normal time; shared again once it answers', async () => {
    const user = await createUser(a);
    expect((await signIn(a, user)).status).toBe(200);
    const before = said(logs.a, 'redis unreachable');
    const backBefore = said(logs.a, 'redis reachable again');
    // The commands in flight time out together: the connection is dropped once, not once for each.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    redis.pause();
    try {
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        const { status, ms } = await signIn(a, user);
        expect(status).toBe(200);
        times.push(ms);
      }
      // The first sign-in meets the command timeout; the connection is then dropped, not waited on again.
      expect(Math.max(...times.slice(1))).toBeLessThan(NORMAL_MS);
      expect(times[0]).toBeLessThan(2 * NORMAL_MS);
      expect(said(logs.a, 'redis unreachable')).toBe(before + 1);
    } finally {
      redis.resume();
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    await expect.poll(() => said(logs.a, 'redis reachable again'), { timeout: 10_000 }).toBe(backBefore + 1);
    const other = await createUser(a);
    for (let i = 0; i < 10; i++) expect((await signIn(a, other, 'wrong-password', '198.51.100.62')).status).toBe(401);
    expect((await signIn(b, other, 'wrong-password', '198.51.100.62')).status).toBe(429);
  }, 60_000);
});
