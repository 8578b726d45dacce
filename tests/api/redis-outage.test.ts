import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { RedisServer } from '../support/redis-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Redis down never stops a sign-in or a quote: the limits are counted in each process at once, the
// outage is logged once, and once Redis is back the processes share their counts in it again (README
// "Deploying past one machine"). How long they take meanwhile: npm run bench -- redis-outage.

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

const signIn = async (t: TestApp, user: TestUser, password = user.password, address = '203.0.113.50') =>
  (await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password }, headers: { 'x-forwarded-for': address } })).statusCode;

const said = (lines: string[], text: string) => lines.filter((l) => l.includes(text)).length;

describe('Redis killed during sign-ins, then back', () => {
  it('sign-ins and quotes answer through the outage, both limited per process, with one log line; once back, the limits are shared again', async () => {
    const user = await createUser(a);
    // Twenty sign-ins one after another; Redis is killed outright after the fifth.
    for (let i = 0; i < 20; i++) {
      if (i === 5) await redis.kill();
      expect(await signIn(a, user)).toBe(200);
    }
    // Quotes, whose per-address ceiling is counted in Redis too, pass, counted in each
    // process meanwhile: 300 a minute per address (docs/rules/fees-and-rates.md), then refused on
    // this process only.
    const quote = (t: TestApp) => t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: '100' }, headers: { 'x-forwarded-for': '203.0.113.51' } });
    for (let i = 0; i < 300; i++) expect((await quote(a)).statusCode).toBe(200);
    expect((await quote(a)).statusCode).toBe(429);
    expect((await quote(b)).statusCode).toBe(200);

    // Still limited meanwhile, by each process's own counters: ten wrong passwords a quarter-hour
    // per account and address (docs/rules/accounts.md), then refused on this process only.
    const guessed = await createUser(a);
    for (let i = 0; i < 10; i++) expect(await signIn(a, guessed, 'wrong-password', '198.51.100.60')).toBe(401);
    expect(await signIn(a, guessed, 'wrong-password', '198.51.100.60')).toBe(429);
    expect(await signIn(b, guessed, 'wrong-password', '198.51.100.60')).toBe(401);
    // One line for the whole outage, however many sign-ins it met.
    expect(said(logs.a, 'redis unreachable')).toBe(1);

    // Back on the same address: both processes count in it again, and say so once.
    await redis.start();
    await expect.poll(() => said(logs.a, 'redis reachable again') + said(logs.b, 'redis reachable again'), { timeout: 10_000 }).toBe(2);
    const other = await createUser(a);
    for (let i = 0; i < 10; i++) expect(await signIn(i % 2 ? b : a, other, 'wrong-password', '198.51.100.61')).toBe(401);
    expect(await signIn(a, other, 'wrong-password', '198.51.100.61')).toBe(429);
    expect(await signIn(b, other, 'wrong-password', '198.51.100.61')).toBe(429);
    const client = new Redis(redis.url);
    try {
      expect((await client.keys(`${prefix}login:*`)).length).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('Redis stops answering on open connections: sign-ins still answer, the connection dropped once; shared again once it answers', async () => {
    const user = await createUser(a);
    expect(await signIn(a, user)).toBe(200);
    const before = said(logs.a, 'redis unreachable');
    const backBefore = said(logs.a, 'redis reachable again');
    // The commands in flight time out together: the connection is dropped once, not once for each.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    redis.pause();
    try {
      for (let i = 0; i < 10; i++) expect(await signIn(a, user)).toBe(200);
      // The first sign-in meets the command timeout; the connection is then dropped, not waited on again.
      expect(said(logs.a, 'redis unreachable')).toBe(before + 1);
    } finally {
      redis.resume();
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    await expect.poll(() => said(logs.a, 'redis reachable again'), { timeout: 10_000 }).toBe(backBefore + 1);
    const other = await createUser(a);
    for (let i = 0; i < 10; i++) expect(await signIn(a, other, 'wrong-password', '198.51.100.62')).toBe(401);
    expect(await signIn(b, other, 'wrong-password', '198.51.100.62')).toBe(429);
  }, 60_000);
});
