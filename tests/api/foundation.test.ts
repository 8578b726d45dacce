import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t.close(); });

describe('foundation', () => {
  it('reports the database as reachable', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'reachable' });
  });

  it('gives pages a CSP that allows no plugins, no <base> and only their own scripts', async () => {
    const csp = String((await t.request({ method: 'GET', url: '/api/docs/' })).headers['content-security-policy']);
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values.join(' ')]));
    expect(directives).toMatchObject({ 'object-src': "'none'", 'base-uri': "'none'", 'script-src': "'self'", 'default-src': "'self'" });
  });

  it('sends the API\'s security headers on every API answer: public, signed in, refused and unknown', async () => {
    const user = await createUser(t);
    const answers = await Promise.all([
      t.request({ method: 'GET', url: '/api/fees' }),
      t.request({ method: 'GET', url: '/api/profiles/me', token: user.token }),
      t.request({ method: 'GET', url: '/api/profiles/me' }),
      t.request({ method: 'GET', url: '/api/no-such-thing' }),
      t.request({ method: 'GET', url: '/api' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 401, 404, 404]);
    // Kept by no cache unless the route says so: the published prices are revalidated by their ETag.
    expect(answers.map((r) => r.headers['cache-control'])).toEqual(['no-cache', 'no-store', 'no-store', 'no-store', 'no-store']);
    for (const res of answers) {
      // Nothing may load, run or frame an answer opened as a page; page-only headers are not sent.
      expect(res.headers).toMatchObject({
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'", 'x-frame-options': 'DENY',
        'x-content-type-options': 'nosniff', 'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'cross-origin-resource-policy': 'same-origin',
      });
      for (const pageOnly of ['cross-origin-opener-policy', 'referrer-policy', 'x-dns-prefetch-control', 'x-xss-protection', 'cross-origin-embedder-policy']) {
        expect(res.headers).not.toHaveProperty(pageOnly);
      }
    }
  });

  it('sends helmet\'s page headers on pages and files: the readable docs and translations', async () => {
    const answers = await Promise.all([
      t.request({ method: 'GET', url: '/api/docs/' }),
      t.request({ method: 'GET', url: '/locales/en/common.json' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'x-frame-options': 'SAMEORIGIN', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains', 'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(res.headers['content-security-policy']).toContain("object-src 'none'");
      expect(res.headers).not.toHaveProperty('cross-origin-embedder-policy');
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().error).toBe('Resource not found.');
  });

  it('serves the seeded fee tiers and corridors', async () => {
    const res = await t.request({ method: 'GET', url: '/api/fees' });
    expect(res.statusCode).toBe(200);
    const { data, corridors } = res.json();
    expect(corridors).toHaveLength(12);
    expect(data).toHaveLength(36);
    const usdXaf = data.filter((tier: { direction: string }) => tier.direction === 'USD_XAF');
    expect(usdXaf.map((x: { percentage: string }) => x.percentage)).toEqual(['0.045000', '0.039000', '0.032000']);
    expect(usdXaf[0].min_fee).toBe('3.00');
    expect(corridors.find((c: { direction: string }) => c.direction === 'XAF_USD')).toMatchObject({ min_amount: '3000.00', max_amount: '1200000.00' });
  });

  it('serves the seeded rates with their inverses and update time', async () => {
    const res = await t.request({ method: 'GET', url: '/api/rates' });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ USD_XAF: '610', USD_RWF: '1300', EUR_XAF: '655', EUR_RWF: '1400' });
    expect(Number.isNaN(Date.parse(data.updatedAt))).toBe(false);
  });

  it('quotes 100 USD to Gabon at the spec price: 4.50 fee, 104.50 total, 61,000 XAF', async () => {
    const res = await t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: '100' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ amount: '100.00', fee: '4.50', total: '104.50', payout: '61000', currency: 'USD', payout_currency: 'XAF' });
  });

  it('quotes 0 with no fee and refuses an unreadable amount with the spec message', async () => {
    const zero = await t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: '0' } });
    expect(zero.statusCode).toBe(200);
    expect(zero.json().data).toMatchObject({ fee: '0.00', total: '0.00' });
    const bad = await t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: '12.345' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Enter a valid amount greater than zero.');
  });

  it('refuses a bare user id as the bearer credential', async () => {
    const user = await createUser(t);
    const ok = await t.request({ method: 'GET', url: '/api/health', token: user.token });
    expect(ok.statusCode).toBe(200);
    // One character of the signature changed, away from its end (the last base64url character
    // carries bits the decoding drops, so changing it may change nothing).
    const at = user.token.length - 5;
    const tampered = await t.tokens.authenticate(`${user.token.slice(0, at)}${user.token[at] === 'A' ? 'B' : 'A'}${user.token.slice(at + 1)}`);
    expect(tampered).toBeNull();
    expect(await t.tokens.authenticate(user.user_id)).toBeNull();
    expect(await t.tokens.authenticate(user.token)).toMatchObject({ profile_id: user.id, role: 'user' });
  });
});
