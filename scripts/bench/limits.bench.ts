// Know-your-sender budget (docs/decisions/030-know-your-sender.md): what checking a sender's
// limits adds to an initiation, in a database of 1,000,000 transfers, for a sender with 10,000
// (300 of them in the last year): the lock and the read of the sender's running totals
// (sender_daily_totals, at most 365 rows per currency) in the initiation's transaction, against the
// same transaction without them, plus what the triggers keeping the totals add to inserting a
// transfer. Budget: at most 1 ms added (median), and the read an index scan of
// sender_daily_totals' primary key (docs/decisions/034-sender-daily-totals.md).
// BENCH_DATABASE_URL: an empty PostgreSQL database to fill; otherwise a temporary embedded one.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { connect, startEmbeddedPostgres, type Database } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { seedReferenceData } from '@server/db/seed.js';
import { countedUsage, lockSenders } from '@server/db/shared-sql/sender-usage.js';

const TOTAL = Number(process.env.BENCH_ROWS ?? 1_000_000);
const HEAVY = 10_000;
const RECENT = 300;
const SENDERS = 5_000;
const RUNS = 2_000;
const BUDGET_MS = 1;

const dir = process.env.BENCH_DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-limits-'));
const pg = dir ? await startEmbeddedPostgres(dir) : null;
const database: Database = connect(process.env.BENCH_DATABASE_URL ?? pg!.url, 4);
const { db, pool } = database;

async function fill(): Promise<string> {
  const t0 = performance.now();
  await runMigrations(database);
  await seedReferenceData(db);
  await db.execute(sql`insert into profiles (email, full_name) values ('heavy@example.test', 'Heavy Sender')`);
  await db.execute(sql`insert into profiles (email, full_name) select 'sender' || g || '@example.test', 'Sender ' || g from generate_series(1, ${SENDERS}) g`);
  const [{ id: heavy }] = (await db.execute<{ id: string }>(sql`select id from profiles where email = 'heavy@example.test'`)).rows as [{ id: string }];
  // The heavy sender's first RECENT transfers are spread over the last year, the rest over the
  // nine before; everyone else's over the last year. Mostly completed, some cancelled or rejected.
  await db.execute(sql`
    insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider,
      amount, currency, fee, total, rate, payout_amount, payout_currency, status, created_at)
    select 'MT-' || lpad(g::text, 8, '0'),
      case when g <= ${HEAVY} then ${heavy}::uuid else s.ids[1 + g % ${SENDERS}] end,
      'USD_XAF', 'paypal_usd', 'airtel_gabon', 10 + (g % 1990), 'USD', 4.50, 14.50 + (g % 1990), 610, 6100, 'XAF',
      (array['completed','completed','completed','completed','completed','processing','pending','rejected','cancelled'])[1 + g % 9],
      case when g <= ${RECENT} then now() - g * interval '1 day' * 364 / ${RECENT}
        when g <= ${HEAVY} then now() - interval '366 days' - g * interval '8 hours'
        else now() - (g % 31_536_000) * interval '1 second' end
    from generate_series(1, ${TOTAL}::int) g,
      (select array_agg(id order by id) ids from profiles where email <> 'heavy@example.test') s`);
  await db.execute(sql`vacuum analyze`);
  console.log(`  generated ${TOTAL} transfer requests in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return heavy;
}

/** Median and 99th percentile of RUNS runs of `run`, in ms. */
async function timings(run: () => Promise<unknown>): Promise<{ median: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(RUNS / 2)]!, p99: times[Math.floor(RUNS * 0.99)]! };
}

try {
  console.log(`limits: ${TOTAL} transfers, one sender with ${HEAVY} (${RECENT} in the last year)`);
  const heavy = await fill();
  const ids = JSON.stringify([heavy]);
  const plan = await pool.query(`explain (analyze, buffers, costs off)
    select profile_id, currency, coalesce(sum(amount) filter (where day >= (now() at time zone 'UTC')::date - 29), 0), sum(amount)
    from sender_daily_totals
    where profile_id in (select sender.id::uuid from jsonb_array_elements_text($1::jsonb) as sender(id))
      and day >= (now() at time zone 'UTC')::date - 364
    group by profile_id, currency having sum(transfers) > 0`, [ids]);
  const lines = (plan.rows as Record<string, string>[]).map((row) => row['QUERY PLAN']!);
  for (const line of lines) console.log(`     ${line}`);
  if (!lines.some((line) => /Index (Only )?Scan using sender_daily_totals_profile_id_currency_day_pk/.test(line))) {
    console.log('  !! the totals are not read through sender_daily_totals_profile_id_currency_day_pk');
    process.exitCode = 1;
  }
  const [{ n: totalsRows }] = (await pool.query<{ n: number }>(
    `select count(*)::int as n from sender_daily_totals where profile_id = $1 and day >= (now() at time zone 'UTC')::date - 364`, [heavy])).rows as [{ n: number }];
  console.log(`  rows read for the heavy sender: ${totalsRows}`);

  // The triggers' share of an insert: one transfer inserted (and rolled back) with and without them.
  const insertOne = () => db.transaction(async (tx) => {
    await tx.execute(sql`insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider,
      amount, currency, fee, total, rate, payout_amount, payout_currency, status)
      values ('MT-B' || substr(md5(random()::text), 1, 10), ${heavy}::uuid, 'USD_XAF', 'paypal_usd', 'airtel_gabon', 100, 'USD', 4.50, 104.50, 610, 61000, 'XAF', 'pending')`);
    tx.rollback();
  }).catch(() => undefined);
  const withTriggers = await timings(insertOne);
  await pool.query('alter table transfer_requests disable trigger sender_daily_totals_insert');
  const withoutTriggers = await timings(insertOne);
  await pool.query('alter table transfer_requests enable trigger sender_daily_totals_insert');
  const triggerCost = Math.max(0, withTriggers.median - withoutTriggers.median);
  console.log(`  insert with the totals' trigger: median ${withTriggers.median.toFixed(3)} ms; without: ${withoutTriggers.median.toFixed(3)} ms`);

  const bare = await timings(() => db.transaction(async (tx) => { await tx.execute(sql`select 1`); }));
  const checked = await timings(() => db.transaction(async (tx) => {
    await lockSenders(tx, [heavy]);
    await countedUsage(tx, [heavy]);
    await tx.execute(sql`select 1`);
  }));
  const added = checked.median - bare.median + triggerCost;
  console.log(`\n  transaction alone: median ${bare.median.toFixed(3)} ms, p99 ${bare.p99.toFixed(3)} ms`);
  console.log(`  with lock and totals: median ${checked.median.toFixed(3)} ms, p99 ${checked.p99.toFixed(3)} ms`);
  console.log(`  added by the limit check (lock, totals read, trigger): ${added.toFixed(3)} ms (budget ${BUDGET_MS} ms)`);
  if (added > BUDGET_MS) {
    console.log('  !! over budget');
    process.exitCode = 1;
  }
} finally {
  await database.close();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
