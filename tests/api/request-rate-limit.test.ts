import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Anyone may ask for quotes, and each reads the database: past a generous ceiling per client
// address, more are refused for a while, in the API's own error shape; other addresses go on.

const quote = (t: TestApp, ip: string) =>
  t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: '100' }, headers: { 'x-forwarded-for': ip } });

async function exhaust(t: TestApp, ip: string, count: number) {
  for (let i = 0; i < count; i += 1) expect((await quote(t, ip)).statusCode).toBe(200);
}

describe('POST /api/quotes per client address', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t.close(); });

  // 300 a minute, as docs/rules/fees-and-rates.md says.
  it('answers 300 a minute, then 429 with Retry-After, in the error shape; another address goes on', async () => {
    await exhaust(t, '203.0.113.7', 300);
    const refused = await quote(t, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'Too many attempts. Please try again in 1 minute.', code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await quote(t, '203.0.113.8')).statusCode).toBe(200);
  });
});

describe('with REDIS_URL, every process shares the count', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `mt-test-${randomBytes(4).toString('hex')}:` };
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => { await Promise.all([a.close(), b.close()]); });

  it('refuses on one process what the address used up on the other', async () => {
    await exhaust(a, '198.51.100.9', 300);
    expect((await quote(b, '198.51.100.9')).statusCode).toBe(429);
  });
});
