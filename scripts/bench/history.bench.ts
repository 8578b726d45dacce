// Sending-money budgets: the history and dashboard queries of one sender with 10,000
// transfers, in a database of 1,000,000. Runs the app's own repository functions, prints each
// query's plan (EXPLAIN ANALYZE, BUFFERS) and its timings: index scans bounded by the page, no
// sequential scan of transfer_requests or transactions.
// BENCH_DATABASE_URL: an empty PostgreSQL database to fill; otherwise a temporary embedded one.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { connect, startEmbeddedPostgres, type Database } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import * as schema from '@server/db/schema.js';
import { seedReferenceData } from '@server/db/seed.js';
import { encodeCursor } from '@server/lib/cursor.js';
import { countOwnByStatus } from '@server/modules/transfers/repo.js';
import type { AppContext } from '@server/context.js';
import { listOwnRequests, listOwnTransactions, transferDetail } from '@server/modules/transfers/service.js';

const TOTAL = Number(process.env.BENCH_ROWS ?? 1_000_000);
const HEAVY = 10_000;
const SENDERS = 5_000;

const dir = process.env.BENCH_DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-history-'));
const pg = dir ? await startEmbeddedPostgres(dir) : null;
const database: Database = connect(process.env.BENCH_DATABASE_URL ?? pg!.url, 4);
const { pool } = database;

// The repository runs on a drizzle instance that also records each statement, to EXPLAIN it.
let captured: { text: string; params: unknown[] }[] = [];
const db = drizzle(pool, { schema, logger: { logQuery: (text, params) => { captured.push({ text, params }); } } });
/** What the services read of the app: the database and the public URL their links start with. */
const ctx = { db, config: { publicUrl: 'http://localhost:3000' } } as unknown as AppContext;

async function fill(): Promise<string> {
  const t0 = performance.now();
  await runMigrations(database);
  await seedReferenceData(database.db);
  await db.execute(sql`insert into profiles (email, full_name) values ('heavy@example.test', 'Heavy Sender')`);
  await db.execute(sql`insert into profiles (email, full_name) select 'sender' || g || '@example.test', 'Sender ' || g from generate_series(1, ${SENDERS}) g`);
  const [{ id: heavy }] = (await db.execute<{ id: string }>(sql`select id from profiles where email = 'heavy@example.test'`)).rows as [{ id: string }];
  // Rows 1..HEAVY belong to the heavy sender; the rest are spread over the others. A year of
  // dates, a status mix like a live system's (mostly completed), two corridors.
  await db.execute(sql`
    insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, destination_details,
      amount, currency, fee, total, rate, payout_amount, payout_currency, status, payment_status, provider_txn_id, created_at, updated_at)
    select 'MT-' || lpad(g::text, 8, '0'),
      case when g <= ${HEAVY} then ${heavy}::uuid else s.ids[1 + g % ${SENDERS}] end,
      'USD_XAF', 'paypal_usd', 'airtel_gabon',
      jsonb_build_object('recipient_name', 'Recipient ' || g, 'recipient_phone', '+2410' || lpad((g % 10000000)::text, 7, '0')),
      10 + (g % 1990), 'USD', 4.50, 14.50 + (g % 1990), 610, 6100 + (g % 1990) * 610, 'XAF',
      (array['completed','completed','completed','completed','completed','processing','pending','rejected','cancelled'])[1 + g % 9],
      'received', 'CAP-' || g, now() - (g * 31) * interval '1 second', now()
    from generate_series(1, ${TOTAL}::int) g,
      (select array_agg(id order by id) ids from profiles where email <> 'heavy@example.test') s`);
  await db.execute(sql`
    insert into transactions (transfer_request_id, profile_id, direction, amount, currency, status, provider_txn_id, destination_details, metadata, created_at, updated_at)
    select id, profile_id, direction, amount, currency, status, provider_txn_id, destination_details,
      jsonb_build_object('reference', reference, 'recipient_name', destination_details->>'recipient_name'), created_at, updated_at
    from transfer_requests`);
  await db.execute(sql`
    insert into transfer_status_history (transfer_request_id, from_status, to_status, actor_role, created_at)
    select id, null, 'pending', 'owner', created_at from transfer_requests`);
  await db.execute(sql`vacuum analyze`);
  console.log(`  generated ${TOTAL} transfer requests, transactions and history rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return heavy;
}

/** Runs `run` a few times for timings, then EXPLAINs every statement it issued. */
async function measure(label: string, run: () => Promise<unknown>, runs = 9) {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    captured = [];
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(`\n  == ${label}: median ${times[Math.floor(runs / 2)]!.toFixed(2)} ms, max ${times[runs - 1]!.toFixed(2)} ms`);
  const statements = captured;
  let seqScan = false;
  for (const { text, params } of statements) {
    const res = await pool.query(`explain (analyze, buffers, costs off) ${text}`, params);
    for (const row of res.rows as Record<string, string>[]) {
      const line = row['QUERY PLAN']!;
      if (/Seq Scan on (transfer_requests|transactions)\b/.test(line)) seqScan = true;
      console.log(`     ${line}`);
    }
  }
  if (seqScan) {
    console.log('  !! a sequential scan of a large table');
    process.exitCode = 1;
  }
}

try {
  console.log(`history and dashboard: ${TOTAL} transfers, one sender with ${HEAVY}`);
  const heavy = await fill();
  const [mid] = (await db.execute<{ at: string; id: string }>(sql`select created_at::text as at, id from transactions
    where profile_id = ${heavy} order by created_at desc, id desc offset 5000 limit 1`)).rows as [{ at: string; id: string }];
  const deep = encodeCursor({ at: mid.at, id: mid.id });
  const sender = { profile_id: heavy, role: 'user' as const };
  const [one] = (await db.execute<{ id: string }>(sql`select id from transfer_requests where profile_id = ${heavy} limit 1`)).rows as [{ id: string }];

  await measure('history: first page (20)', () => listOwnTransactions(ctx, sender, { limit: 20 }));
  await measure('history: page after 5,000 rows (cursor)', () => listOwnTransactions(ctx, sender, { limit: 20, cursor: deep }));
  await measure('history: status filter (rejected)', () => listOwnTransactions(ctx, sender, { limit: 20, status: 'rejected' }));
  await measure('history: search by amount (1234)', () => listOwnTransactions(ctx, sender, { limit: 20, q: '1234' }));
  await measure('history: search by reference (MT-00000042)', () => listOwnTransactions(ctx, sender, { limit: 20, q: 'MT-00000042' }));
  await measure('transfer requests: first page (20)', () => listOwnRequests(ctx, sender, { limit: 20 }));
  await measure('dashboard: counts by status', () => countOwnByStatus(db, heavy));
  await measure('dashboard: 6 recent transactions', () => listOwnTransactions(ctx, sender, { limit: 6 }));
  await measure('dashboard: up to 6 open requests', () => listOwnTransactions(ctx, sender, { limit: 6, open: true }));
  await measure('details: one transfer with its timeline', () => transferDetail(ctx, sender, one.id));
} finally {
  await database.close();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
