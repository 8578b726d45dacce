import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferStatus } from '@core/status.js';
import { transactions, transferNotes, transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// A sender's pages run one prepared statement per shape (a filter or none, first page or after a
// cursor: docs/decisions/021-signed-in-lists.md), the pages asked for together read by one
// statement (docs/decisions/025-batched-sender-pages.md). Every shape, paged to the end, must give
// exactly the sender's own rows of that filter, newest first, whoever ran the same statement
// before or beside it.

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
const made: { owner: string; id: string; status: TransferStatus; at: number }[] = [];

const STATUSES: TransferStatus[] = ['pending', 'completed', 'processing', 'rejected', 'completed', 'cancelled', 'pending'];

beforeAll(async () => {
  t = await createTestApp();
  [alice, bob] = await Promise.all([createUser(t), createUser(t)]);
  const start = Date.parse('2026-11-01T10:00:00Z');
  // Interleaved in time, so a wrong sender bound in any shape would show up between the right rows.
  for (let i = 0; i < 16; i++) {
    const owner = i % 4 === 3 ? bob : alice;
    const status = STATUSES[i % STATUSES.length]!;
    const at = start + i * 60_000;
    const row = await createTransfer(t, owner.id, { status, created_at: new Date(at) });
    made.push({ owner: owner.id, id: row.id, status, at });
  }
});
afterAll(async () => { await t.close(); });

/** Every page of `url` with `query`, two rows a page: the request ids in the order answered. */
async function pageThrough(user: TestUser, url: string, query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await t.request({ method: 'GET', url: `${url}?limit=2${query ? `&${query}` : ''}${cursor ? `&cursor=${cursor}` : ''}`, token: user.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { data: { id: string; transfer_request_id?: string }[]; next_cursor: string | null };
    ids.push(...body.data.map((r) => r.transfer_request_id ?? r.id));
    cursor = body.next_cursor;
    expect(++pages).toBeLessThan(20);
  } while (cursor);
  return ids;
}

const expected = (user: TestUser, keep: (status: TransferStatus) => boolean) =>
  made.filter((m) => m.owner === user.id && keep(m.status)).sort((a, b) => b.at - a.at).map((m) => m.id);

const SHAPES: { query: string; keep: (status: TransferStatus) => boolean }[] = [
  { query: '', keep: () => true },
  { query: 'status=completed', keep: (s) => s === 'completed' },
  { query: 'status=pending', keep: (s) => s === 'pending' },
  { query: 'open=true', keep: (s) => s === 'pending' || s === 'processing' },
];

describe('a sender\'s pages, every shape', () => {
  for (const url of ['/api/transfer-requests', '/api/transactions']) {
    for (const { query, keep } of SHAPES) {
      it(`GET ${url}${query ? `?${query}` : ''}: the sender's own rows of the filter, newest first, to the last page`, async () => {
        for (const user of [alice, bob, alice]) {
          const want = expected(user, keep);
          expect(want.length).toBeGreaterThan(0);
          expect(await pageThrough(user, url, query)).toEqual(want);
        }
      });
    }
  }

  it('pages asked for together, of several senders, shapes and sizes, are each answered as if alone', async () => {
    const asks = [alice, bob].flatMap((user) => ['/api/transfer-requests', '/api/transactions'].flatMap((path) =>
      SHAPES.flatMap(({ query }) => ['2', '3'].map((limit) => ({ user, url: `${path}?limit=${limit}${query ? `&${query}` : ''}` })))));
    const ask = (user: TestUser, url: string) => t.request({ method: 'GET', url, token: user.token }).then((r) => r.json());
    // Alone, one after the other: each first page and the page after it.
    const alone: { user: TestUser; url: string; answer: unknown }[] = [];
    for (const { user, url } of asks) {
      const first = await ask(user, url);
      alone.push({ user, url, answer: first });
      if (first.next_cursor) alone.push({ user, url: `${url}&cursor=${first.next_cursor}`, answer: await ask(user, `${url}&cursor=${first.next_cursor}`) });
    }
    expect(alone.length).toBeGreaterThan(40);
    const together = await Promise.all(alone.map(({ user, url }) => ask(user, url)));
    expect(together).toEqual(alone.map((a) => a.answer));
  });

  it('pages of one shape asked for together are read by a few statements', async () => {
    const url = '/api/transfer-requests?limit=2';
    const users = Array.from({ length: 20 }, (_, i) => (i % 2 ? bob : alice));
    const alone = [];
    for (const user of users) alone.push((await t.request({ method: 'GET', url, token: user.token })).json());
    // Counted as the pool is asked to run them (the batched statement names its batch's rows q).
    const pool = t.database.pool;
    const query = pool.query.bind(pool);
    let statements = 0;
    pool.query = ((config: unknown, ...rest: unknown[]) => {
      if (String((config as { text?: unknown } | null)?.text).includes('as q(batch_profile')) statements++;
      return (query as (...args: unknown[]) => unknown)(config, ...rest);
    }) as typeof pool.query;
    try {
      const together = await Promise.all(users.map((user) => t.request({ method: 'GET', url, token: user.token })));
      expect(together.map((r) => r.json())).toEqual(alone);
    } finally {
      pool.query = query;
    }
    // Batched, not one statement a page: how many batches depends on how the pages' reads arrive
    // behind their sessions' own batched lookups (3 to 5 seen), never one per request.
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(10);
  });

  it('a search still finds within the sender\'s own rows only', async () => {
    const bobs = made.filter((m) => m.owner === bob.id).map((m) => m.id);
    const res = await t.request({ method: 'GET', url: `/api/transfer-requests?q=${bobs[0]!.slice(0, 8)}`, token: alice.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    const own = await t.request({ method: 'GET', url: `/api/transfer-requests?q=${bobs[0]!.slice(0, 8)}`, token: bob.token });
    expect(own.json().data.map((r: { id: string }) => r.id)).toEqual([bobs[0]]);
  });
});

// The pages read their rows without drizzle's mapping (db/prepared.ts rowsOf): every field must
// still come out as the detail, read through drizzle, answers it: timestamps (set and null),
// decimals, JSON, booleans, the action message.
describe('a sender\'s page answers each field as the detail does', () => {
  it('GET /api/transfer-requests and /api/transactions: dates, decimals, nulls and the message', async () => {
    const carol = await createUser(t);
    const at = new Date('2026-11-02T08:30:15.123Z');
    const row = await createTransfer(t, carol.id, { paid: true, paidOut: true, created_at: at, provider_txn_id: 'CAP-1' });
    const db = t.database.db;
    await db.update(transferRequests).set({
      refunded_at: new Date('2026-11-03T09:00:00.456Z'), refund_reference: 'RF-1', action_needed: true, payment_flagged: true,
    }).where(eq(transferRequests.id, row.id));
    await db.update(transactions).set({ metadata: { channel: 'test' } }).where(eq(transactions.transfer_request_id, row.id));
    await db.insert(transferNotes).values({ transfer_request_id: row.id, author_role: 'admin', visibility: 'sender', action_needed: true, body: 'Send the receipt' });

    const detail = (await t.request({ method: 'GET', url: `/api/transfer-requests/${row.id}`, token: carol.token })).json().data;
    const [listed] = (await t.request({ method: 'GET', url: '/api/transfer-requests', token: carol.token })).json().data;
    expect(Object.keys(listed).length).toBeGreaterThan(30);
    for (const [key, value] of Object.entries(listed)) expect([key, value]).toEqual([key, detail[key]]);
    expect(listed).toMatchObject({
      created_at: '2026-11-02T08:30:15.123Z', payment_recorded_at: '2026-11-02T08:30:15.123Z', payout_sent_at: '2026-11-02T08:30:15.123Z',
      refunded_at: '2026-11-03T09:00:00.456Z', amount: '100.00', payment_flagged: true, action_message: 'Send the receipt', version: 1,
      fee_tier_id: expect.any(String), provider_order_id: null,
    });
    expect(listed.updated_at).not.toBe(listed.created_at);

    const [transaction] = (await t.request({ method: 'GET', url: '/api/transactions', token: carol.token })).json().data;
    const [stored] = await db.select().from(transactions).where(eq(transactions.transfer_request_id, row.id));
    expect(transaction).toEqual({
      id: stored!.id, transfer_request_id: row.id, created_at: '2026-11-02T08:30:15.123Z', updated_at: stored!.updated_at.toISOString(),
      direction: detail.direction, amount: detail.amount, currency: detail.currency, status: detail.status, provider_txn_id: null,
      destination_details: detail.destination_details, metadata: { channel: 'test' },
      ...Object.fromEntries(['reference', 'source_provider', 'destination_provider', 'fee', 'total', 'rate', 'payout_amount', 'payout_currency',
        'payout_reference', 'payment_status', 'payment_amount', 'payment_reference', 'payout_status', 'refund_reference', 'tracking_url',
        'action_needed', 'action_message', 'payment_recorded_at', 'has_proof'].map((key) => [key, detail[key]])),
    });
  });
});
