import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_STATUSES, type TransferStatus } from '@core/status.js';
import { connect } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { requestCounts } from '@server/modules/admin/repo.js';
import { createUser, type TestUser } from '../support/factories.js';
import { databaseBeforeMigration } from '../support/migrated-before.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// The back office's counts per status come from counts the database keeps up to date
// (docs/decisions/015-fast-start-and-status-counts.md): they must match the transfers exactly.

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
let other: TestUser;
beforeAll(async () => {
  // The app's least-privilege role (docs/database-roles.sql): the triggers write the counts under it.
  t = await createTestApp({ leastPrivilege: true });
  [sender, manager, other] = await Promise.all([createUser(t), createUser(t, { role: 'manager' }), createUser(t, { role: 'manager' })]);
});
afterAll(async () => { await t.close(); });

/** What the back office shows. */
async function shown(): Promise<Record<TransferStatus, number>> {
  const res = await t.request({ method: 'GET', url: '/api/admin/stats', token: manager.token });
  expect(res.statusCode).toBe(200);
  return res.json().data.requests;
}

/** The transfers themselves, counted. */
async function counted(): Promise<Record<TransferStatus, number>> {
  const { rows } = await t.database.db.execute<{ status: TransferStatus; n: number }>(
    sql`select status, count(*)::int as n from transfer_requests group by status`);
  const out = Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, 0])) as Record<TransferStatus, number>;
  for (const r of rows) out[r.status] = r.n;
  return out;
}

/** A staff move; `seen`, the status the staff member saw (as the back office sends it). */
const move = (id: string, status: TransferStatus, token = manager.token, seen?: TransferStatus) =>
  t.request({ method: 'PATCH', url: `/api/transfer-requests/${id}`, token, payload: { status, ...(seen ? { expected_status: seen } : {}) } });

describe('staff status counts', () => {
  it('follow transfers created, moved by staff, cancelled by their sender and removed', async () => {
    expect(await shown()).toEqual({ pending: 0, processing: 0, completed: 0, rejected: 0, cancelled: 0 });
    // The first is paid and paid out, so staff may complete it (docs/rules/money-states.md).
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map((n) => createTransfer(t, sender.id, n === 1 ? { paid: true, paidOut: true } : {})));
    await createTransfer(t, sender.id, { status: 'completed' });
    expect(await shown()).toEqual({ pending: 4, processing: 0, completed: 1, rejected: 0, cancelled: 0 });

    expect((await move(a!.id, 'processing')).statusCode).toBe(200);
    expect((await move(a!.id, 'completed')).statusCode).toBe(200);
    expect((await move(b!.id, 'rejected')).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${c!.id}/cancel`, token: sender.token })).statusCode).toBe(200);
    // A refused move changes nothing.
    expect((await move(c!.id, 'processing')).statusCode).toBe(409);
    expect(await shown()).toEqual({ pending: 1, processing: 0, completed: 2, rejected: 1, cancelled: 1 });

    // Changes that leave the status alone, several rows in one statement, and removals.
    await t.database.db.execute(sql`update transfer_requests set payment_status = 'received' where id = ${d!.id}`);
    await t.database.db.execute(sql`update transfer_requests set status = 'processing' where status = 'pending'`);
    const e = await createTransfer(t, sender.id, { status: 'rejected' });
    expect((await shown()).rejected).toBe(2);
    await t.database.db.execute(sql`delete from transactions where transfer_request_id = ${e.id}`);
    await t.database.db.execute(sql`delete from transfer_requests where id = ${e.id}`);
    expect(await shown()).toEqual({ pending: 0, processing: 1, completed: 2, rejected: 1, cancelled: 1 });
    expect(await shown()).toEqual(await counted());
  });

  it('stay exact under concurrent creations and moves, including two staff moving one transfer at once', async () => {
    const transfers = await Promise.all(Array.from({ length: 30 }, () => createTransfer(t, sender.id)));
    const before = await shown();

    // Every transfer moved at once from both managers to different statuses, each having seen it
    // pending: one of each pair wins, the other is refused (stale), while more transfers are created alongside.
    const results = await Promise.all([
      ...transfers.flatMap((tr) => [
        move(tr.id, 'processing', manager.token, 'pending'),
        move(tr.id, 'rejected', other.token, 'pending'),
      ]),
      ...Array.from({ length: 10 }, () => createTransfer(t, sender.id)),
    ]);
    const codes = results.slice(0, transfers.length * 2).map((r) => ('statusCode' in r ? r.statusCode : 0));
    for (let i = 0; i < transfers.length; i += 1) {
      expect([codes[2 * i], codes[2 * i + 1]].sort()).toEqual([200, 409]);
    }

    const after = await shown();
    expect(after).toEqual(await counted());
    expect(after.pending).toBe(before.pending - 30 + 10);
    expect(after.processing + after.completed + after.rejected).toBe(before.processing + before.completed + before.rejected + 30);
  });
});

describe('the migration that starts keeping the counts', () => {
  it('counts the transfers already there', async () => {
    // A database at the schema before the counts (every migration but the counts' own, as
    // drizzle applies them), holding transfers in every status.
    const { url, client } = await databaseBeforeMigration('CREATE TABLE "transfer_status_counts"');
    try {
      const { rows: [profile] } = await client.query<{ id: string }>(`insert into profiles (email, full_name) values ('old@example.test', 'Old Sender') returning id`);
      await client.query(`
        insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, amount, currency,
          fee, total, rate, payout_amount, payout_currency, status)
        select 'OLD' || g, $1, 'USD_XAF', 'paypal_usd', 'airtel_gabon', 100, 'USD', 4.50, 104.50, 610, 61000, 'XAF',
          (array['pending','processing','completed','completed','completed','rejected','cancelled'])[1 + g % 7]
        from generate_series(1, 20) g`, [profile!.id]);
    } finally {
      await client.end();
    }

    const database = connect(url, 2);
    try {
      await runMigrations(database);
      // Of g = 1..20, g % 7 is 0 twice (pending), 1 three times (processing), 2 to 4 nine times (completed), 5 and 6 three times each.
      expect(await requestCounts(database.db)).toEqual({ pending: 2, processing: 3, completed: 9, rejected: 3, cancelled: 3 });
    } finally {
      await database.close();
    }
  });
});
