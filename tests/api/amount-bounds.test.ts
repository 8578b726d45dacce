import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// An amount of a megabyte ("1." and zeros up to the body limit) once held the event loop for
// minutes: every endpoint that reads an amount refuses it at once, and nothing changes.

let t: TestApp;
let sender: TestUser;
let admin: TestUser;
let tierId: string;
beforeAll(async () => {
  t = await createTestApp();
  [sender, admin] = await Promise.all([createUser(t), createUser(t, { role: 'admin' })]);
  tierId = (await t.request({ method: 'GET', url: '/api/fees' })).json().data[0].id;
});
afterAll(async () => { await t.close(); });

// Just under the 1,000,000-byte body limit once wrapped in JSON, so the amount itself is read.
const HUGE = `1.${'0'.repeat(990_000)}`;

interface Case { name: string; method: 'POST' | 'PATCH'; url: () => string; token: () => string | undefined; body: object }

const CASES: Case[] = [
  { name: 'POST /api/quotes amount', method: 'POST', url: () => '/api/quotes', token: () => undefined, body: { direction: 'USD_XAF', amount: HUGE } },
  {
    name: 'POST /api/payments/initiate amount', method: 'POST', url: () => '/api/payments/initiate', token: () => sender.token,
    body: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: HUGE, currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 12 34 56' },
    },
  },
  ...(['percentage', 'min_amount', 'max_amount', 'min_fee'] as const).flatMap((field): Case[] => [
    {
      name: `POST /api/fees ${field}`, method: 'POST', url: () => '/api/fees', token: () => admin.token,
      body: { direction: 'RWF_EUR', percentage: '0.02', min_amount: '2000000', max_amount: '3000000', [field]: HUGE },
    },
    {
      name: `PATCH /api/fees/:id ${field}`, method: 'PATCH', url: () => `/api/fees/${tierId}`, token: () => admin.token,
      body: { [field]: HUGE },
    },
  ]),
  { name: 'PATCH /api/rates/:key value', method: 'PATCH', url: () => '/api/rates/USD_XAF', token: () => admin.token, body: { value: HUGE } },
];

describe('a megabyte amount is refused at once by every endpoint that reads one', () => {
  it.each(CASES)('$name: 400 at once (the old parser took minutes), nothing changed', async ({ method, url, token, body }) => {
    const fees = (await t.request({ method: 'GET', url: '/api/fees' })).body;
    const rates = (await t.request({ method: 'GET', url: '/api/rates' })).json().data;
    const started = performance.now();
    const res = await t.request({ method, url: url(), token: token(), payload: body });
    const elapsed = performance.now() - started;
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual(expect.any(String));
    // It did not hang (the defect held the loop for minutes); how long it takes: npm run bench -- amount-bounds.
    expect(elapsed).toBeLessThan(5_000);
    expect((await t.request({ method: 'GET', url: '/api/fees' })).body).toBe(fees);
    expect((await t.request({ method: 'GET', url: '/api/rates' })).json().data).toEqual(rates);
  });

  it('leaves the server free: health answers while huge amounts arrive', async () => {
    const floods = Array.from({ length: 5 }, () => t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: HUGE } }));
    const health = await t.request({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    for (const res of await Promise.all(floods)) expect(res.statusCode).toBe(400);
  });
});
