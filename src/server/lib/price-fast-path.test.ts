import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PriceCache } from './price-cache.js';
import { priceFastPath } from './price-fast-path.js';
import { proxyTrust, requestIdOf } from './request-id.js';

// The fast path answers only what is already in the cache; everything else reaches the handler
// behind it (Fastify in the app), marked here by a 418.
const cache = new PriceCache();
const fast = priceFastPath(cache, { 'x-frame-options': 'SAMEORIGIN' }, requestIdOf(proxyTrust(false)));
const server = http.createServer((req, res) => { if (!fast(req, res)) { res.writeHead(418); res.end('routed'); } });
let base = '';
const big = { data: Array.from({ length: 100 }, (_, i) => ({ tier: i, percentage: '0.045000' })) };

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

describe('published prices before routing', () => {
  it('leaves a cold cache, and a cache not listening for edits, to the router', async () => {
    expect((await get('/api/fees')).status).toBe(418);
    await cache.get('fees', async () => big);
    expect((await get('/api/fees')).status).toBe(418);
  });

  it('answers a loaded answer with its ETag, security headers and bytes, in br, gzip or as it is', async () => {
    cache.setListening(true);
    const loaded = await cache.get('fees', async () => big);
    await new Promise((r) => setImmediate(r));
    const plain = await get('/api/fees');
    expect(plain.status).toBe(200);
    expect(plain.body.toString()).toBe(loaded.body);
    expect(plain.headers).toMatchObject({
      etag: loaded.etag, 'cache-control': 'no-cache', 'content-type': 'application/json; charset=utf-8',
      'x-frame-options': 'SAMEORIGIN', 'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const br = await get('/api/fees', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'accept-encoding' });
    expect(brotliDecompressSync(br.body).toString()).toBe(loaded.body);
    const gz = await get('/api/fees', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(loaded.body);
  });

  it('answers 304 to a current copy', async () => {
    const { etag } = (await get('/api/fees')).headers;
    const again = await get('/api/fees', { 'if-none-match': `W/${etag as string}` });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('routes other paths, methods, query strings and weighted encodings', async () => {
    expect((await get('/api/rates')).status).toBe(418);
    expect((await get('/api/fees?x=1')).status).toBe(418);
    expect((await get('/api/fees', {}, 'HEAD')).status).toBe(418);
    expect((await get('/api/fees', { 'accept-encoding': 'br;q=0, gzip' })).status).toBe(418);
  });

  it('routes again once an edit clears the cache', async () => {
    cache.invalidate();
    expect((await get('/api/fees')).status).toBe(418);
  });
});
