// A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise): an id and an expiry,
// the reference rate and margin, either amount asked, and the transfer naming it gets exactly its
// price, once, before it expires.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotes, transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob, admin] = await Promise.all([
    createUser(t, { full_name: 'Alice Sender' }), createUser(t, { full_name: 'Bob Sender' }),
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }),
  ]);
});
afterAll(async () => { await t.close(); });

/** Each quote from an address of its own: the public per-address limit is not what is tested here. */
function quote(payload: Record<string, unknown>, token?: string) {
  return t.request({ method: 'POST', url: '/api/quotes', payload, token, remoteAddress: uniqueAddress() });
}

const GABON = { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 12 34 56' };

function initiate(token: string, body: Record<string, unknown>, key?: string) {
  return t.request({
    method: 'POST', url: '/api/payments/initiate', token, headers: key ? { 'idempotency-key': key } : {},
    payload: { source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '250', currency: 'USD', destination_details: GABON, ...body },
  });
}

describe('POST /api/quotes answers a promise', () => {
  it('250 USD to Gabon: fee, total, rate and payout as before, plus its id, a 30-minute expiry, the reference and the margin', async () => {
    const before = Date.now();
    const res = await quote({ direction: 'USD_XAF', amount: '250' });
    expect(res.statusCode).toBe(200);
    const q = res.json().data;
    // The seeded tier of 100–500 USD to Gabon is 3.9 % (fees page): 9.75 USD; 1 USD = 610 XAF.
    expect(q).toMatchObject({ amount: '250.00', fee: '9.75', total: '259.75', rate: '610', payout: '152500', reference_rate: '610', margin: '0' });
    expect(q.id).toMatch(/^[0-9a-f-]{36}$/);
    const minutes = (Date.parse(q.expires_at) - before) / 60_000;
    expect(minutes).toBeGreaterThan(29.9);
    expect(minutes).toBeLessThan(30.5);
  });

  it('EUR to Gabon: the legal parity 655.957 is the reference, and the quote holds a day', async () => {
    const before = Date.now();
    const q = (await quote({ direction: 'EUR_XAF', amount: '100' })).json().data;
    expect(q).toMatchObject({ rate: '655', payout: '65500', reference_rate: '655.957', margin: '0.001459' });
    expect((Date.parse(q.expires_at) - before) / 3_600_000).toBeCloseTo(24, 1);
  });

  it('is stored, owned by the signed-in sender, unowned when asked signed out', async () => {
    const mine = (await quote({ direction: 'USD_XAF', amount: '250' }, alice.token)).json().data;
    const anyone = (await quote({ direction: 'USD_XAF', amount: '250' })).json().data;
    const rows = await t.database.db.select().from(quotes).where(sql`${quotes.id} in (${mine.id}, ${anyone.id})`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.profile_id]))).toEqual({ [mine.id]: alice.id, [anyone.id]: null });
    expect(rows.find((r) => r.id === mine.id)).toMatchObject({ amount: '250.00', fee: '9.75', total: '259.75', payout: '152500.00', used_at: null });
  });

  it('its insert alone skips the wait for the disk: off inside the insert\'s own transaction, and every connection of the pool waits for the disk afterwards (transfers, audit)', async () => {
    const pool = t.database.pool;
    // What the inserting transaction itself sees, recorded by a trigger on quotes for this test only.
    await pool.query(`
      create table quote_insert_settings (quote_id uuid, synchronous_commit text);
      create function record_quote_insert_setting() returns trigger language plpgsql as $$
        begin insert into quote_insert_settings values (new.id, current_setting('synchronous_commit')); return null; end $$;
      create trigger record_quote_insert_setting after insert on quotes for each row execute function record_quote_insert_setting()`);
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => quote({ direction: 'USD_XAF', amount: '250' })));
      expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      const seen = (await pool.query<{ quote_id: string; synchronous_commit: string }>('select quote_id, synchronous_commit from quote_insert_settings')).rows;
      expect(new Set(seen.map((r) => r.quote_id))).toEqual(new Set(answers.map((r) => r.json().data.id)));
      expect(new Set(seen.map((r) => r.synchronous_commit))).toEqual(new Set(['off']));
    } finally {
      await pool.query(`
        drop trigger record_quote_insert_setting on quotes;
        drop function record_quote_insert_setting();
        drop table quote_insert_settings`);
    }
    // The setting ended with its transaction: no connection keeps it.
    const clients = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
    try {
      const settings = await Promise.all(clients.map(async (c) => (await c.query<{ synchronous_commit: string }>('show synchronous_commit')).rows[0]!.synchronous_commit));
      expect(settings.length).toBeGreaterThan(0);
      expect(new Set(settings)).toEqual(new Set(['on']));
    } finally {
      clients.forEach((c) => c.release());
    }
  });

  it('a signed-in sender over their own limits is refused, and no quote is kept for them', async () => {
    const dan = await createUser(t, { full_name: 'Dan Sender', kyc_level: 1 });
    // 1,500 USD is over level 1's 1,000 EUR for one transfer.
    const res = await quote({ direction: 'USD_XAF', amount: '1500' }, dan.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('limit_exceeded');
    expect(await t.database.db.select().from(quotes).where(eq(quotes.profile_id, dan.id))).toEqual([]);
  });

  it('either amount, not both, not neither', async () => {
    for (const payload of [{ direction: 'USD_XAF' }, { direction: 'USD_XAF', amount: '10', payout: '6100' }]) {
      const res = await quote(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Enter either the amount you send or the amount the recipient gets, not both.');
    }
  });
});

describe('from what the recipient gets: the smallest amount whose payout reaches it', () => {
  // [direction, payout asked, amount expected, payout given]: XAF and RWF in whole units, EUR and USD in cents.
  const cases: [string, string, string, string][] = [
    ['USD_XAF', '100000', '163.94', '100003'], // 163.93 USD gives 99 997 XAF
    ['EUR_XAF', '1000', '1.53', '1002'], // 1.52 EUR gives 996 XAF
    ['XAF_USD', '10', '6097', '10.00'], // 6096 XAF gives 9.99 USD (rounded half up)
    ['XAF_EUR', '100', '65497', '100.00'], // 65496 XAF gives 99.99 EUR
    ['RWF_USD', '25.5', '33144', '25.50'],
    ['USD_RWF', '1301', '1.01', '1313'],
  ];
  it.each(cases)('%s: %s received needs %s (which delivers %s)', async (direction, payout, amount, given) => {
    const res = await quote({ direction, payout });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ amount, payout: given });
  });

  it('a payout with more decimals than its currency is refused on the payout field', async () => {
    const res = await quote({ direction: 'USD_XAF', payout: '100.5' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('payout');
  });
});

describe('POST /api/payments/initiate with quote_id', () => {
  it('gets the quoted price though an admin raised the tier\'s minimum fee and changed the rate since; without a quote, today\'s price', async () => {
    // 50 USD to Gabon: the first tier's minimum fee, 3 USD; 1 USD = 610 XAF.
    const q = (await quote({ direction: 'USD_XAF', amount: '50' }, alice.token)).json().data;
    expect(q).toMatchObject({ fee: '3.00', total: '53.00', payout: '30500' });
    const tier = (await t.request({ method: 'GET', url: '/api/fees' })).json().data
      .find((x: { direction: string; min_fee: string | null }) => x.direction === 'USD_XAF' && x.min_fee !== null);
    expect((await t.request({ method: 'PATCH', url: `/api/fees/${tier.id}`, token: admin.token, payload: { min_fee: '4' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'PATCH', url: '/api/rates/USD_XAF', token: admin.token, payload: { value: '600' } })).statusCode).toBe(200);
    try {
      const res = await initiate(alice.token, { quote_id: q.id, amount: '50' });
      expect(res.statusCode).toBe(201);
      // The transfer names the quote it took: in its row, its answer and the staff's details.
      expect(res.json().data).toMatchObject({ amount: '50.00', fee: '3.00', total: '53.00', rate: '610', payout_amount: '30500.00', quote_id: q.id });
      const [row] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, res.json().data.id));
      expect(Number(row!.rate)).toBe(610);
      expect(row!.quote_id).toBe(q.id);
      const staff = await t.request({ method: 'GET', url: `/api/transfer-requests/${row!.id}`, token: admin.token });
      expect(staff.json().data.quote_id).toBe(q.id);
      const now = await initiate(alice.token, { amount: '50' });
      expect(now.json().data).toMatchObject({ fee: '4.00', total: '54.00', rate: '600', payout_amount: '30000.00', quote_id: null });
    } finally {
      await t.request({ method: 'PATCH', url: `/api/fees/${tier.id}`, token: admin.token, payload: { min_fee: tier.min_fee } });
      await t.request({ method: 'PATCH', url: '/api/rates/USD_XAF', token: admin.token, payload: { value: '610' } });
    }
  });

  it('a quote is used once: a second use is 409 quote_used', async () => {
    const q = (await quote({ direction: 'USD_XAF', amount: '250' }, alice.token)).json().data;
    expect((await initiate(alice.token, { quote_id: q.id })).statusCode).toBe(201);
    const again = await initiate(alice.token, { quote_id: q.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'quote_used', error: 'This price was already used for a transfer. Ask for a new price.' });
  });

  it('two initiations naming one quote at once: one transfer, the other quote_used', async () => {
    const q = (await quote({ direction: 'USD_XAF', amount: '250' }, alice.token)).json().data;
    const answers = await Promise.all(Array.from({ length: 4 }, () => initiate(alice.token, { quote_id: q.id })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const made = await t.database.db.select().from(transferRequests)
      .where(sql`${transferRequests.id} in (${sql.join(answers.filter((a) => a.statusCode === 201).map((a) => sql`${a.json().data.id}`), sql`, `)})`);
    expect(made).toHaveLength(1);
  });

  it('a retry with the same idempotency key answers its first transfer, not quote_used', async () => {
    const q = (await quote({ direction: 'USD_XAF', amount: '250' }, alice.token)).json().data;
    const first = await initiate(alice.token, { quote_id: q.id }, `quote-retry-${q.id}`);
    const retry = await initiate(alice.token, { quote_id: q.id }, `quote-retry-${q.id}`);
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201]);
    expect(retry.json().data.id).toBe(first.json().data.id);
  });

  it('after its expiry: 409 quote_expired with a fresh quote for the same transfer, which then works', async () => {
    const q = (await quote({ direction: 'USD_XAF', amount: '250' }, alice.token)).json().data;
    await t.database.db.update(quotes).set({ expires_at: sql`now() - interval '1 second'` }).where(eq(quotes.id, q.id));
    const res = await initiate(alice.token, { quote_id: q.id });
    expect(res.statusCode).toBe(409);
    const body = res.json();
    expect(body.code).toBe('quote_expired');
    expect(body.error).toBe('This price has expired. Here is a new one: check it, then confirm.');
    expect(body.quote).toMatchObject({ direction: 'USD_XAF', amount: '250.00', fee: '9.75', total: '259.75' });
    expect(body.quote.id).not.toBe(q.id);
    expect(Date.parse(body.quote.expires_at)).toBeGreaterThan(Date.now());
    expect((await initiate(alice.token, { quote_id: body.quote.id })).statusCode).toBe(201);
  });

  it('another sender\'s quote is 404; nothing is used', async () => {
    const q = (await quote({ direction: 'USD_XAF', amount: '250' }, alice.token)).json().data;
    const res = await initiate(bob.token, { quote_id: q.id });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('quote_not_found');
    const unknown = await initiate(bob.token, { quote_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.json().code).toBe('quote_not_found');
    expect((await initiate(alice.token, { quote_id: q.id })).statusCode).toBe(201);
  });

  it('initiations arriving together, each naming its own quote (their quotes read in one statement), each get their own price; another sender\'s among them is 404', async () => {
    const amounts = ['100', '175', '250'];
    const own = await Promise.all(amounts.map(async (amount) => (await quote({ direction: 'USD_XAF', amount }, alice.token)).json().data));
    const bobs = (await quote({ direction: 'USD_XAF', amount: '300' }, bob.token)).json().data;
    const answers = await Promise.all([
      ...own.map((q, i) => initiate(alice.token, { quote_id: q.id, amount: amounts[i] })),
      initiate(alice.token, { quote_id: bobs.id, amount: '300' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 404]);
    expect(answers.slice(0, 3).map((a) => [a.json().data.quote_id, a.json().data.total])).toEqual(own.map((q) => [q.id, q.total]));
  });

  it('a quote made signed out is usable by the first signed-in sender, once', async () => {
    const q = (await quote({ direction: 'USD_XAF', amount: '250' })).json().data;
    expect((await initiate(bob.token, { quote_id: q.id })).statusCode).toBe(201);
    expect((await initiate(alice.token, { quote_id: q.id })).json().code).toBe('quote_used');
  });

  it('a transfer that does not match its quote (amount or channels) is 422 quote_mismatch, and the quote stays usable', async () => {
    const q = (await quote({ direction: 'USD_XAF', amount: '250' }, alice.token)).json().data;
    const amount = await initiate(alice.token, { quote_id: q.id, amount: '251' });
    expect(amount.statusCode).toBe(422);
    expect(amount.json().code).toBe('quote_mismatch');
    const channels = await initiate(alice.token, { quote_id: q.id, source_provider: 'paypal_eur', currency: 'EUR' });
    expect(channels.json().code).toBe('quote_mismatch');
    expect((await initiate(alice.token, { quote_id: q.id, amount: '250.0' })).statusCode).toBe(201);
  });

  it('the sender\'s own limits still apply to a quoted transfer, and a refused one leaves the quote unused', async () => {
    const carol = await createUser(t, { full_name: 'Carol Sender', kyc_level: 1 });
    // 1,500 USD is over level 1's 1,000 EUR for one transfer.
    const q = (await quote({ direction: 'USD_XAF', amount: '1500' })).json().data;
    const res = await initiate(carol.token, { quote_id: q.id, amount: '1500' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('limit_exceeded');
    const [row] = await t.database.db.select().from(quotes).where(eq(quotes.id, q.id));
    expect(row!.used_at).toBeNull();
  });
});

describe('how long quotes hold, per corridor, the admin\'s', () => {
  it('defaults: 30 minutes, a day for EUR↔XAF', async () => {
    const res = await t.request({ method: 'GET', url: '/api/quotes/validity', token: admin.token });
    const minutes = Object.fromEntries(res.json().data.map((v: { direction: string; minutes: number }) => [v.direction, v.minutes]));
    expect(minutes).toMatchObject({ USD_XAF: 30, EUR_XAF: 1440, XAF_EUR: 1440, RWF_EUR: 30 });
    expect((await t.request({ method: 'GET', url: '/api/quotes/validity', token: alice.token })).statusCode).toBe(403);
  });

  it('an edit is audited and the next quote of the corridor holds that long', async () => {
    const res = await t.request({ method: 'PUT', url: '/api/quotes/validity', token: admin.token, payload: { direction: 'USD_RWF', minutes: 5 } });
    expect(res.statusCode).toBe(200);
    try {
      const before = Date.now();
      const q = (await quote({ direction: 'USD_RWF', amount: '100' })).json().data;
      expect((Date.parse(q.expires_at) - before) / 60_000).toBeCloseTo(5, 0);
      const audit = (await t.request({ method: 'GET', url: '/api/audit?action=quote_validity.update', token: admin.token })).json().data;
      expect(audit[0]).toMatchObject({ action: 'quote_validity.update', target_type: 'corridor', target_id: 'USD_RWF', before: { minutes: 30 }, after: { minutes: 5 } });
    } finally {
      await t.request({ method: 'PUT', url: '/api/quotes/validity', token: admin.token, payload: { direction: 'USD_RWF', minutes: 30 } });
    }
  });

  it('refuses what is not a whole number of minutes from 1 to a week, changing nothing', async () => {
    for (const minutes of [0, 10081, 1.5, '30']) {
      const res = await t.request({ method: 'PUT', url: '/api/quotes/validity', token: admin.token, payload: { direction: 'USD_XAF', minutes } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Enter a whole number of minutes from 1 to 10080 (a week).');
    }
  });
});

// The clean-up of expired quotes, and how many are kept: tests/api/quotes-bounds.test.ts.
