import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Published prices are kept in memory and cleared by every edit, in this process at commit and in
// every other one by NOTIFY (docs/decisions/016-price-cache-and-scale-out.md).
let one: TestApp;
let other: TestApp;
let admin: TestUser;
beforeAll(async () => {
  one = await createTestApp();
  other = await createTestApp({ sharing: one });
  admin = await createUser(one, { role: 'admin' });
});
afterAll(async () => {
  await other?.close();
  await one?.close();
});

interface Tier { id: string; direction: string; percentage: string; max_amount: string | null }
const fees = (t: TestApp) => t.request({ method: 'GET', url: '/api/fees' });
const topTier = async (t: TestApp, direction: string): Promise<Tier> =>
  ((await fees(t)).json().data as Tier[]).find((x) => x.direction === direction && x.max_amount === null)!;

/** Asks until `check` holds or `ms` have passed; the last answer's failure otherwise. */
async function within<T>(ms: number, ask: () => Promise<T>, check: (value: T) => void): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await ask();
    try {
      check(value);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe('published prices: ETag and 304', () => {
  it('GET /api/fees and /api/rates carry a strong ETag; sent back, it gets 304 with no body', async () => {
    for (const url of ['/api/fees', '/api/rates']) {
      const first = await one.request({ method: 'GET', url });
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toMatch(/^application\/json/);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      expect(first.headers['cache-control']).toBe('no-cache');

      const again = await one.request({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);

      const stale = await one.request({ method: 'GET', url, headers: { 'if-none-match': '"something-else"' } });
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toEqual(first.json());
    }
  });

  it('answers from memory: a change written behind the app\'s back (no NOTIFY) is not seen', async () => {
    const before = await fees(one);
    await one.database.db.execute(sql`update corridors set processing_time = processing_time || ' (quiet)'`);
    try {
      expect((await fees(one)).body).toBe(before.body);
    } finally {
      await one.database.db.execute(sql`update corridors set processing_time = replace(processing_time, ' (quiet)', '')`);
    }
  });
});

describe('an edit is served at once', () => {
  it('in the process that made it: the next GET has the new tier and a new ETag, the old one gets 200', async () => {
    const before = await fees(one);
    const tier = await topTier(one, 'USD_XAF');
    const next = tier.percentage === '0.031000' ? '0.032' : '0.031';
    const res = await one.request({ method: 'PATCH', url: `/api/fees/${tier.id}`, token: admin.token, payload: { percentage: next } });
    expect(res.statusCode).toBe(200);
    const after = await one.request({ method: 'GET', url: '/api/fees', headers: { 'if-none-match': before.headers.etag as string } });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await topTier(one, 'USD_XAF')).percentage).toBe(Number(next).toFixed(6));
  });

  it('a rate edit is served at once by /api/rates', async () => {
    const res = await one.request({ method: 'PATCH', url: '/api/rates/USD_XAF', token: admin.token, payload: { value: '611.5' } });
    expect(res.statusCode).toBe(200);
    const rates = (await one.request({ method: 'GET', url: '/api/rates' })).json().data;
    expect(rates.USD_XAF).toBe('611.5');
  });

  it('by another app on the same database, from its cache, within one second', async () => {
    const tier = await topTier(other, 'EUR_USD');
    // The other app has it cached: a quiet change does not show there.
    const cached = await fees(other);
    const next = tier.percentage === '0.027000' ? '0.028' : '0.027';
    const res = await one.request({ method: 'PATCH', url: `/api/fees/${tier.id}`, token: admin.token, payload: { percentage: next } });
    expect(res.statusCode).toBe(200);
    await within(1_000, () => topTier(other, 'EUR_USD'), (x) => expect(x.percentage).toBe(Number(next).toFixed(6)));
    expect((await fees(other)).headers.etag).not.toBe(cached.headers.etag);

    await one.request({ method: 'PATCH', url: '/api/rates/EUR_XAF', token: admin.token, payload: { value: '655.9' } });
    await within(1_000, () => other.request({ method: 'GET', url: '/api/rates' }), (r) => expect(r.json().data.EUR_XAF).toBe('655.9'));
  });
});

describe('answered before routing once in memory (src/server/lib/price-fast-path.ts)', () => {
  /** A GET over a real connection, as a browser or a load balancer sends it. */
  const overHttp = (base: string, url: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http.get(`${base}${url}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  // Each answer has its own request id (checked below to be there).
  const connectionHeaders = ['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'x-request-id'];
  const comparable = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => !connectionHeaders.includes(k)));

  it('gives the same status, headers and bytes as the route, compressed or not, and 304 alike', async () => {
    await one.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(one.app.server.address() as AddressInfo).port}`;
    for (const url of ['/api/fees', '/api/rates']) {
      for (const headers of [{}, { 'accept-encoding': 'gzip, deflate, br' }] as Record<string, string>[]) {
        const routed = await one.request({ method: 'GET', url, headers });
        const fast = await overHttp(base, url, headers);
        expect(fast.status).toBe(200);
        expect(fast.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        expect(comparable(fast.headers)).toEqual(comparable(routed.headers));
        const body = fast.headers['content-encoding'] === 'br' ? brotliDecompressSync(fast.body) : fast.body;
        expect(body.toString()).toBe((await one.request({ method: 'GET', url })).body);
        const current = await overHttp(base, url, { ...headers, 'if-none-match': routed.headers.etag as string });
        const routed304 = await one.request({ method: 'GET', url, headers: { ...headers, 'if-none-match': routed.headers.etag as string } });
        expect(current.status).toBe(304);
        expect(comparable(current.headers)).toEqual(comparable(routed304.headers));
      }
    }
  });
});
