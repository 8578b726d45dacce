// The price of what is being typed (docs/rules/fees-and-rates.md#rates-on-screen): asked at every
// pause in the typing, it is the quote's price but stored nowhere, and counted apart from the
// stored quotes, so a sender typing never uses up what the review's quote needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

let t: TestApp;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  sender = await createUser(t, { full_name: 'Tom Typist', kyc_level: 1 });
});
afterAll(async () => { await t.close(); });

const ask = (url: '/api/quotes' | '/api/quotes/preview', payload: Record<string, unknown>, opts: { token?: string; ip?: string } = {}) =>
  t.request({ method: 'POST', url, payload, token: opts.token, remoteAddress: opts.ip ?? uniqueAddress() });
const storedQuotes = async () => Number((await t.database.pool.query<{ n: string }>('select count(*) as n from quotes')).rows[0]!.n);

describe('POST /api/quotes/preview', () => {
  it('answers the quote\'s price, reference and margin, by amount or by payout, with no id or expiry and nothing stored', async () => {
    const before = await storedQuotes();
    const byAmount = await ask('/api/quotes/preview', { direction: 'EUR_XAF', amount: '100' });
    expect(byAmount.statusCode).toBe(200);
    const price = byAmount.json().data;
    expect(price).toMatchObject({ amount: '100.00', fee: '4.30', total: '104.30', rate: '655', payout: '65500', reference_rate: '655.957', margin: '0.001459' });
    expect(price).not.toHaveProperty('id');
    expect(price).not.toHaveProperty('expires_at');
    const byPayout = (await ask('/api/quotes/preview', { direction: 'USD_XAF', payout: '100000' })).json().data;
    expect(byPayout).toMatchObject({ amount: '163.94', payout: '100003' });
    expect(await storedQuotes()).toBe(before);
    // The quote asked for the same transfer gives the same price, stored.
    const { id, expires_at: expiresAt, ...promised } = (await ask('/api/quotes', { direction: 'EUR_XAF', amount: '100' })).json().data;
    expect(promised).toEqual(price);
    expect([typeof id, typeof expiresAt]).toEqual(['string', 'string']);
    expect(await storedQuotes()).toBe(before + 1);
  });

  it('refuses what a quote refuses: a signed-in sender over their own limits', async () => {
    // 1,500 USD is over level 1's 1,000 EUR for one transfer.
    const res = await ask('/api/quotes/preview', { direction: 'USD_XAF', amount: '1500' }, { token: sender.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('limit_exceeded');
    expect((await ask('/api/quotes/preview', { direction: 'USD_XAF', amount: '1500' })).statusCode).toBe(200);
  });

  // The rule document's numbers, written out: a change to either limit fails here until the rule says it.
  it('is counted apart: an address that used up its 300 quotes still gets typed prices, and the other way round; its own ceiling is 1,200', async () => {
    const ip = '203.0.113.41';
    for (let i = 0; i < 300; i += 1) expect((await ask('/api/quotes', { direction: 'USD_XAF', amount: '100' }, { ip })).statusCode).toBe(200);
    expect((await ask('/api/quotes', { direction: 'USD_XAF', amount: '100' }, { ip })).statusCode).toBe(429);
    expect((await ask('/api/quotes/preview', { direction: 'USD_XAF', amount: '100' }, { ip })).statusCode).toBe(200);

    const typist = '203.0.113.42';
    // Typing without a break asks at most one price every 0.4 s: 150 a minute. Eight such typists behind one address still fit.
    for (let i = 0; i < 1_199; i += 1) {
      expect((await ask('/api/quotes/preview', { direction: 'USD_XAF', amount: String(10 + i) }, { ip: typist })).statusCode).toBe(200);
    }
    expect((await ask('/api/quotes', { direction: 'USD_XAF', amount: '100' }, { ip: typist })).statusCode).toBe(200);
    expect((await ask('/api/quotes/preview', { direction: 'USD_XAF', amount: '100' }, { ip: typist })).statusCode).toBe(200);
    const refused = await ask('/api/quotes/preview', { direction: 'USD_XAF', amount: '100' }, { ip: typist });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
  });
});
