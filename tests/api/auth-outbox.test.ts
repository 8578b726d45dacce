import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress } from './auth-fixtures.js';

describe('the development outbox (no SMTP_URL, not production)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp({ env: { NODE_ENV: 'development' } }); });
  afterAll(async () => { await t?.close(); });

  it('holds the sign-up code, so a newcomer can sign up on the embedded default', async () => {
    const body = registration();
    const res = await t.request({ method: 'POST', url: '/api/auth/register', payload: body, headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(res.statusCode).toBe(200);
    await t.jobsDone();
    const outbox = await t.request({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(body.email.toUpperCase())}` });
    expect(outbox.statusCode).toBe(200);
    const [mail] = outbox.json().data;
    expect(mail).toMatchObject({ to: body.email });
    expect(mail.subject).toMatch(/^\d{6} is your .+ verification code$/);
    expect(mail.html).toContain('<p');
    const otp = /\b(\d{6})\b/.exec(mail.text)![1];
    const verified = await t.request({ method: 'POST', url: '/api/auth/verify-otp', payload: { email: body.email, otp } });
    expect(verified.statusCode).toBe(200);
  });

  it('lists the newest mail first', async () => {
    const all = (await t.request({ method: 'GET', url: '/api/dev/outbox' })).json().data as Array<{ id: number }>;
    expect(all.map((m) => m.id)).toEqual([...all.map((m) => m.id)].sort((a, b) => b - a));
  });
});

describe('the outbox is readable only by a person at the machine', () => {
  let t: TestApp;
  // TRUST_PROXY=true in tests: a forged X-Forwarded-For would make request.ip anything.
  beforeAll(async () => { t = await createTestApp({ env: { NODE_ENV: 'development', TRUST_PROXY: 'true' } }); });
  afterAll(async () => { await t?.close(); });

  const outbox = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: '/api/dev/outbox?limit=not-a-number', remoteAddress, headers });
  const config = async (remoteAddress: string, headers: Record<string, string> = {}) =>
    (await t.request({ method: 'GET', url: '/api/config', remoteAddress, headers })).json().data.dev_outbox;

  it('answers a loopback client, IPv4, IPv6 or IPv4-mapped', async () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '::ffff:127.0.0.1']) {
      const res = await t.request({ method: 'GET', url: '/api/dev/outbox', remoteAddress: address });
      expect(res.statusCode, address).toBe(200);
      expect(await config(address)).toBe(true);
    }
  });

  it('answers 404 to another machine, even one claiming to be local through X-Forwarded-For', async () => {
    const remote: Array<[string, Record<string, string>]> = [
      ['203.0.113.7', {}], ['::ffff:10.0.0.9', {}], ['203.0.113.7', { 'x-forwarded-for': '127.0.0.1' }],
    ];
    for (const [address, headers] of remote) {
      const res = await outbox(address, headers);
      expect(res.statusCode, address).toBe(404);
      expect(res.json().error).toBe('Resource not found.');
      expect(await config(address, headers)).toBe(false);
    }
  });

  it('answers 404 through a proxy on this machine, which makes every client look local', async () => {
    const relayed: Array<Record<string, string>> = [
      { 'x-forwarded-for': '198.51.100.4' }, { forwarded: 'for=198.51.100.4' }, { 'x-real-ip': '198.51.100.4' }, { 'x-forwarded-for': '127.0.0.1' },
    ];
    for (const headers of relayed) {
      const res = await outbox('127.0.0.1', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
      expect(await config('127.0.0.1', headers)).toBe(false);
    }
  });
});

describe('the outbox is unreachable elsewhere', () => {
  for (const [name, env] of [
    ['in production', { NODE_ENV: 'production', DOCUMENT_KEY: 'a'.repeat(64) }],
    ['with SMTP_URL', { NODE_ENV: 'development', SMTP_URL: 'smtp://127.0.0.1:2525' }],
  ] as const) {
    it(`answers 404 ${name}`, async () => {
      const t = await createTestApp({ env });
      try {
        const res = await t.request({ method: 'GET', url: '/api/dev/outbox' });
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toBe('Resource not found.');
        const config = (await t.request({ method: 'GET', url: '/api/config' })).json().data;
        expect(config.dev_outbox).toBe(false);
      } finally {
        await t.close();
      }
    });
  }
});
