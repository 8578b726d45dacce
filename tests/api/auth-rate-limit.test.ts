import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { useAppsSharingRedis } from '../support/redis-apps.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress, uniqueEmail } from './auth-fixtures.js';


let smtp: SmtpListener;
beforeAll(async () => { smtp = await new SmtpListener().start(); });
afterAll(async () => { await smtp?.stop(); });

type Call = (app: TestApp, email: string, address: string) => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): { error?: string } }>;

const post = (app: TestApp, url: string, payload: object, address: string) =>
  app.request({ method: 'POST', url, payload, headers: { 'x-forwarded-for': address } });

/**
 * Each limited endpoint, with its limits per account (the e-mail address given) and per client
 * address as docs/rules/accounts.md#sign-in-throttling states them.
 */
const endpoints: Record<string, { call: Call; account: { limit: number }; address: { limit: number } }> = {
  login: { call: (a, email, ip) => post(a, '/api/auth/login', { email, password: 'wrong-password' }, ip), account: { limit: 20 }, address: { limit: 100 } },
  register: { call: (a, email, ip) => post(a, '/api/auth/register', registration({ email }), ip), account: { limit: 5 }, address: { limit: 30 } },
  'verify-otp': { call: (a, email, ip) => post(a, '/api/auth/verify-otp', { email, otp: '000000' }, ip), account: { limit: 10 }, address: { limit: 60 } },
  'resend-otp': { call: (a, email, ip) => post(a, '/api/auth/resend-otp', { email }, ip), account: { limit: 5 }, address: { limit: 30 } },
  'reset-password': { call: (a, email, ip) => post(a, '/api/auth/reset-password', { email }, ip), account: { limit: 5 }, address: { limit: 30 } },
};
const LOGIN_ACCOUNT_LIMIT = endpoints.login!.account.limit;

function expectLimited(res: Awaited<ReturnType<Call>>) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ code: 'rate_limited' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  const minutes = Math.ceil(retryAfter / 60);
  expect(res.json().error).toBe(`Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`);
}

describe('rate limits in process (no REDIS_URL)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { SMTP_URL: smtp.url } }); });
  afterAll(async () => { await t?.close(); });

  for (const [name, { call, account, address }] of Object.entries(endpoints)) {
    it(`${name}: per account, whatever the address`, async () => {
      const email = uniqueEmail('limited');
      for (let i = 0; i < account.limit; i++) expect((await call(t, email, uniqueAddress())).statusCode).not.toBe(429);
      expectLimited(await call(t, email, uniqueAddress()));
      // Another account is not affected.
      expect((await call(t, uniqueEmail('free'), uniqueAddress())).statusCode).not.toBe(429);
    });

    it(`${name}: per client address, whatever the account`, async () => {
      const ip = uniqueAddress();
      for (let i = 0; i < address.limit; i++) expect((await call(t, uniqueEmail('spread'), ip)).statusCode).not.toBe(429);
      expectLimited(await call(t, uniqueEmail('spread'), ip));
      expect((await call(t, uniqueEmail('spread'), uniqueAddress())).statusCode).not.toBe(429);
    });
  }

  it('refuses even the right password once the account is limited, and says so in French', async () => {
    const user = await createUser(t);
    for (let i = 0; i < LOGIN_ACCOUNT_LIMIT; i++) await endpoints.login!.call(t, user.email, uniqueAddress());
    const res = await t.request({
      method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: user.password },
      headers: { 'x-forwarded-for': uniqueAddress(), 'accept-language': 'fr' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatch(/^Trop de tentatives\. Veuillez réessayer dans (1 minute|\d+ minutes)\.$/);
  });
});

describe('rate limits shared through Redis (REDIS_URL)', () => {
  const apps = useAppsSharingRedis(() => ({ SMTP_URL: smtp.url }));

  it('counts attempts of two server processes together, in keys under the prefix', async () => {
    const { a, b, redis, prefix } = apps;
    const email = uniqueEmail('shared');
    for (let i = 0; i < LOGIN_ACCOUNT_LIMIT; i++) {
      const app = i % 2 === 0 ? a : b;
      expect((await endpoints.login!.call(app, email, uniqueAddress())).statusCode).toBe(401);
    }
    expectLimited(await endpoints.login!.call(a, email, uniqueAddress()));
    expectLimited(await endpoints.login!.call(b, email, uniqueAddress()));
    // Only wrong passwords count against an account: the refused attempts did not.
    expect(await redis.get(`${prefix}login:account:${email}`)).toBe(String(LOGIN_ACCOUNT_LIMIT));
    const ttl = await redis.pttl(`${prefix}login:account:${email}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000);
  });

  it('limits per address across processes too', async () => {
    const { a, b } = apps;
    const ip = uniqueAddress();
    for (let i = 0; i < endpoints['reset-password']!.address.limit; i++) {
      expect((await endpoints['reset-password']!.call(i % 2 ? a : b, uniqueEmail('r'), ip)).statusCode).toBe(200);
    }
    expectLimited(await endpoints['reset-password']!.call(a, uniqueEmail('r'), ip));
  });
});

describe('client addresses behind no trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { SMTP_URL: smtp.url, TRUST_PROXY: 'false' } }); });
  afterAll(async () => { await t?.close(); });

  it('ignores a forged X-Forwarded-For: the per-address limit still applies to the real address', async () => {
    const { call, address } = endpoints['reset-password']!;
    for (let i = 0; i < address.limit; i++) expect((await call(t, uniqueEmail('forged'), uniqueAddress())).statusCode).not.toBe(429);
    expectLimited(await call(t, uniqueEmail('forged'), uniqueAddress()));
  });
});
