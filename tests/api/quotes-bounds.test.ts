// Stored quotes bounded (docs/rules/fees-and-rates.md#a-quote-is-a-promise): at most 20 open quotes
// kept per signed-out address (the oldest open one goes), 100,000 stored in any hour by every caller
// together (QUOTES_PER_HOUR; a small one configured here), and expired quotes deleted within the
// hour by a durable job every 10 minutes, unexpired ones and those a transfer names kept. The
// numbers are the rule's, written here as it writes them.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@server/config.js';
import { quotes } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

let t: TestApp;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  sender = await createUser(t);
});
afterAll(async () => { await t.close(); });

const ask = { direction: 'USD_XAF', amount: '250' };
const quoteFrom = (app: TestApp, remoteAddress: string, token?: string) =>
  app.request({ method: 'POST', url: '/api/quotes', payload: ask, remoteAddress, token });
const stored = async (ids: string[]) => (await t.database.db.select({ id: quotes.id }).from(quotes)
  .where(sql`${quotes.id} = any(${`{${ids.join(',')}}`}::uuid[])`)).map((r) => r.id).sort();
const initiate = (token: string, quoteId: string) => t.request({
  method: 'POST', url: '/api/payments/initiate', token, remoteAddress: uniqueAddress(),
  payload: {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '250', currency: 'USD', quote_id: quoteId,
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 12 34 56' },
  },
});

describe('a signed-out caller keeps at most 20 open quotes per address', () => {
  it('the 21st and 22nd are answered and kept, and the address\'s oldest open ones are not; other addresses and signed-in senders are not touched', async () => {
    const address = uniqueAddress();
    const elsewhere = (await quoteFrom(t, uniqueAddress())).json().data.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 22; i++) {
      const res = await quoteFrom(t, address);
      expect(res.statusCode).toBe(200);
      ids.push(res.json().data.id as string);
    }
    // The 20 newest are kept, the 2 oldest deleted: naming one is 404 quote_not_found.
    expect(await stored(ids)).toEqual(ids.slice(2).sort());
    expect((await initiate(sender.token, ids[0]!)).json().code).toBe('quote_not_found');
    expect(await stored([elsewhere])).toEqual([elsewhere]);

    // A quote used by a transfer is no longer open: it stays, and no longer counts among the 20.
    const used = ids[2]!;
    expect((await initiate(sender.token, used)).statusCode).toBe(201);
    const next = (await quoteFrom(t, address)).json().data.id as string;
    expect(await stored([used, ids[3]!, next])).toEqual([used, ids[3]!, next].sort());
    // 20 open again (ids 3 to 21 and the next): one more, and the oldest open one goes.
    const last = (await quoteFrom(t, address)).json().data.id as string;
    expect(await stored([used, ids[3]!, ids[4]!, next, last])).toEqual([used, ids[4]!, next, last].sort());

    // Signed in, from the same address: every quote kept.
    const mine: string[] = [];
    for (let i = 0; i < 25; i++) mine.push((await quoteFrom(t, address, sender.token)).json().data.id as string);
    expect(await stored(mine)).toHaveLength(25);
  });
});

describe('at most 100,000 quotes stored in any hour, every caller together', () => {
  it('is the default of QUOTES_PER_HOUR', () => {
    expect(loadConfig({}).QUOTES_PER_HOUR).toBe(100_000);
  });

  it('past the ceiling a quote is refused with 429 rate_limited, whoever asks; quotes made over an hour ago do not count', async () => {
    const small = await createTestApp({ env: { QUOTES_PER_HOUR: '5' } });
    try {
      // Stored before this process's first quote: two in the last hour count, one two hours old does not.
      const earlier = await Promise.all([0, 1, 2].map(async () => (await quoteFrom(t, uniqueAddress())).json().data.id as string));
      for (const id of earlier) await small.database.db.insert(quotes).values((await t.database.db.select().from(quotes).where(eq(quotes.id, id)))[0]!);
      await small.database.db.update(quotes).set({ created_at: sql`now() - interval '2 hours'` }).where(eq(quotes.id, earlier[0]!));

      const user = await createUser(small);
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await quoteFrom(small, uniqueAddress()));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      // 2 + 3 = 5 in the last hour: the sixth is refused, signed out or in.
      for (const token of [undefined, user.token]) {
        const refused = await quoteFrom(small, uniqueAddress(), token);
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toMatchObject({ code: 'rate_limited', error: 'Too many attempts. Please try again in 5 minutes.' });
        expect(refused.headers['retry-after']).toBe('300');
      }
      // Nothing was stored for the refused ones; the typed price (stored nowhere) is not bounded.
      expect((await small.database.db.select({ n: sql<number>`count(*)::int` }).from(quotes))[0]!.n).toBe(6);
      expect((await small.request({ method: 'POST', url: '/api/quotes/preview', payload: ask, remoteAddress: uniqueAddress() })).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});

describe('expired quotes are deleted within the hour (quote_cleanup, every 10 minutes)', () => {
  it('deletes expired quotes over an hour old that no transfer names; keeps unexpired ones, the last hour\'s and those a transfer names', async () => {
    const make = async () => (await quoteFrom(t, uniqueAddress())).json().data.id as string;
    const [expired, expiredLongAgo, unexpired, lastHour, named, usedWeekAgo] = await Promise.all([make(), make(), make(), make(), make(), make()]);
    expect((await initiate(sender.token, named!)).statusCode).toBe(201);
    expect((await initiate((await createUser(t)).token, usedWeekAgo!)).statusCode).toBe(201);
    const age = (id: string, created: string, expires: string) => t.database.db.update(quotes)
      .set({ created_at: sql`now() - ${created}::interval`, expires_at: sql`now() - ${expires}::interval` }).where(eq(quotes.id, id));
    await age(expired!, '2 hours', '1 minute');
    await age(expiredLongAgo!, '3 days', '2 days');
    await age(unexpired!, '2 hours', '-1 hour');
    await age(lastHour!, '40 minutes', '10 minutes');
    await age(named!, '2 hours', '1 minute');
    await age(usedWeekAgo!, '9 days', '8 days');

    await t.database.pool.query(`select graphile_worker.add_job('quote_cleanup', '{}'::json)`);
    await t.jobsDone();
    expect(await stored([expired!, expiredLongAgo!, unexpired!, lastHour!, named!, usedWeekAgo!])).toEqual([unexpired!, lastHour!, named!].sort());
    // The transfer's quote is still what it names.
    const { rows } = await t.database.pool.query('select count(*)::int as n from transfer_requests where quote_id = $1', [named]);
    expect(rows[0].n).toBe(1);
    // Scheduled: the job is one of the worker's recurring tasks.
    const crons = await t.database.pool.query('select identifier from graphile_worker._private_known_crontabs');
    expect(crons.rows.map((r: { identifier: string }) => r.identifier)).toContain('quote_cleanup');
  });
});
