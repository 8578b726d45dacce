import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginBackoffMs } from '@server/modules/auth/login-throttle.js';
import { createUser, type TestUser } from '../support/factories.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { useAppsSharingRedis } from '../support/redis-apps.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

const NOTICE = /Someone is trying to sign in/;
// docs/rules/accounts.md#sign-in-throttling: wrong passwords 10 per 15 minutes per account and address,
// 20 per hour per account; from the 20th, sign-ins wait 30 s, doubling, at most 15 minutes.
const PER_ACCOUNT_AND_ADDRESS = 10;
const PER_ACCOUNT = 20;

let smtp: SmtpListener;
beforeAll(async () => { smtp = await new SmtpListener().start(); });
afterAll(async () => { await smtp?.stop(); });

const login = (t: TestApp, email: string, password: string, ip: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers: { 'x-forwarded-for': ip } });

/** Wrong passwords for an account, each from an address of its own (a botnet, or many strangers). */
async function failFromEverywhere(t: TestApp, email: string, times: number) {
  for (let i = 0; i < times; i++) expect((await login(t, email, 'not-the-password', uniqueAddress())).statusCode).toBe(401);
}

const notices = (user: TestUser) => smtp.messages.filter((m) => m.to.includes(user.email) && NOTICE.test(m.raw)).length;

describe('sign-in limits that strangers cannot turn into a lockout (memory counters)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { SMTP_URL: smtp.url } }); });
  afterAll(async () => { await t?.close(); });

  it('lets the owner in while strangers stay under the per-account limit', async () => {
    const owner = await createUser(t);
    await failFromEverywhere(t, owner.email, PER_ACCOUNT - 1);
    expect((await login(t, owner.email, owner.password, uniqueAddress())).statusCode).toBe(200);
    await t.jobsDone();
    expect(notices(owner)).toBe(0);
  });

  it('stops one address guessing one account strictly, without locking the owner out elsewhere', async () => {
    const owner = await createUser(t);
    const guesser = uniqueAddress();
    for (let i = 0; i < PER_ACCOUNT_AND_ADDRESS; i++) {
      expect((await login(t, owner.email, `guess-number-${i}`, guesser)).statusCode).toBe(401);
    }
    const refused = await login(t, owner.email, owner.password, guesser);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(/^Too many attempts\. Please try again in (1 minute|\d+ minutes)\.$/);
    expect((await login(t, owner.email, owner.password, uniqueAddress())).statusCode).toBe(200);
  });

  it('never counts right passwords: many sign-ins from one address all succeed', async () => {
    const owner = await createUser(t);
    const home = uniqueAddress();
    for (let i = 0; i < PER_ACCOUNT + 5; i++) expect((await login(t, owner.email, owner.password, home)).statusCode).toBe(200);
  });

  it('past the per-account limit, makes every sign-in of the account wait and tells the owner once', async () => {
    const owner = await createUser(t, { full_name: 'Targeted Owner' });
    await failFromEverywhere(t, owner.email, PER_ACCOUNT);
    const waiting = await login(t, owner.email, owner.password, uniqueAddress());
    expect(waiting.statusCode).toBe(429);
    const retryAfter = Number(waiting.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(30);
    expect(waiting.json().error).toBe('Too many attempts. Please try again in 1 minute.');

    const notice = await smtp.waitFor(owner.email, NOTICE);
    expect(notice.raw).toContain(`wrong password for your account ${PER_ACCOUNT} times`);
    // Further refused attempts do not send it again.
    await login(t, owner.email, 'not-the-password', uniqueAddress());
    await t.jobsDone();
    expect(notices(owner)).toBe(1);
  });

  it('does not tell whether the account exists: an unknown address is limited the same way', async () => {
    const email = `nobody-${randomBytes(4).toString('hex')}@example.test`;
    await failFromEverywhere(t, email, PER_ACCOUNT);
    expect((await login(t, email, 'not-the-password', uniqueAddress())).statusCode).toBe(429);
  });

  it('doubles the wait at each further failure, up to a cap', () => {
    const n = PER_ACCOUNT;
    expect(loginBackoffMs(n - 1)).toBe(0);
    expect(loginBackoffMs(n)).toBe(30_000);
    expect(loginBackoffMs(n + 1)).toBe(60_000);
    expect(loginBackoffMs(n + 2)).toBe(120_000);
    expect(loginBackoffMs(n + 50)).toBe(15 * 60_000);
  });
});

describe('sign-in limits shared through Redis', () => {
  const apps = useAppsSharingRedis(() => ({ SMTP_URL: smtp.url }));

  it('counts failures of two processes together, and the wait grows once it has passed', async () => {
    const { a, b, redis, prefix } = apps;
    const owner = await createUser(a);
    // The same database is not shared by the two apps: b only counts, a knows the account.
    for (let i = 0; i < PER_ACCOUNT; i++) {
      expect((await login(i % 2 ? a : b, owner.email, 'not-the-password', uniqueAddress())).statusCode).toBe(401);
    }
    const first = await login(b, owner.email, owner.password, uniqueAddress());
    expect(first.statusCode).toBe(429);
    expect(Number(first.headers['retry-after'])).toBeLessThanOrEqual(30);

    // Time passes: the wait ends, the owner gets in, and the next failure waits twice as long.
    await redis.del(`${prefix}login:account-wait:${owner.email}`);
    expect((await login(a, owner.email, owner.password, uniqueAddress())).statusCode).toBe(200);
    expect((await login(a, owner.email, 'not-the-password', uniqueAddress())).statusCode).toBe(401);
    const second = await login(b, owner.email, owner.password, uniqueAddress());
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(30);
    expect(Number(second.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await smtp.waitFor(owner.email, NOTICE)).toBeTruthy();
  });

  it('keeps the per account and address limit across processes', async () => {
    const { a, b } = apps;
    const owner = await createUser(a);
    const guesser = uniqueAddress();
    for (let i = 0; i < PER_ACCOUNT_AND_ADDRESS; i++) {
      expect((await login(i % 2 ? a : b, owner.email, 'not-the-password', guesser)).statusCode).toBe(401);
    }
    expect((await login(a, owner.email, owner.password, guesser)).statusCode).toBe(429);
    expect((await login(a, owner.email, owner.password, uniqueAddress())).statusCode).toBe(200);
  });
});
