import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransferStatus } from '@core/status.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// A sender's pages run one prepared statement per shape (a filter or none, first page or after a
// cursor: docs/decisions/021-signed-in-lists.md), the sender, status, cursor and size bound at
// each call. Every shape, paged to the end, must give exactly the sender's own rows of that
// filter, newest first, whoever ran the same statement before.

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

  it('a search still finds within the sender\'s own rows only', async () => {
    const bobs = made.filter((m) => m.owner === bob.id).map((m) => m.id);
    const res = await t.request({ method: 'GET', url: `/api/transfer-requests?q=${bobs[0]!.slice(0, 8)}`, token: alice.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    const own = await t.request({ method: 'GET', url: `/api/transfer-requests?q=${bobs[0]!.slice(0, 8)}`, token: bob.token });
    expect(own.json().data.map((r: { id: string }) => r.id)).toEqual([bobs[0]]);
  });
});
