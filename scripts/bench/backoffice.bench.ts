// Back-office budgets: the staff list, the counts by status and the CSV export over 10,000 and
// 1,000,000 transfer requests on a fresh embedded PostgreSQL. Prints the query plans (EXPLAIN ANALYZE),
// page timings, and the export's duration and peak memory, which must stay flat as rows grow.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import type { AppContext } from '@server/context.js';
import { connect, startEmbeddedPostgres } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { seedReferenceData } from '@server/db/seed.js';
import { StaffFilterSchema, type StaffFilter } from '@core/api/admin.js';
import { decodeCursor } from '@server/lib/cursor.js';
import { dailyVolume, requestCounts } from '@server/modules/admin/repo.js';
import { prepareFilter, staffRows } from '@server/modules/transfers/repo.js';
import { exportLines } from '@server/modules/transfers/export-transfers.js';
import { listStaffRequests } from '@server/modules/transfers/list-staff-transfers.js';

// A forced collection shows the memory the export really holds, apart from garbage not yet collected.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const SIZES = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
const SENDERS = 2_000;

// BENCH_DATA_DIR keeps the generated data between runs (generating 1,000,000 rows takes minutes).
const keep = process.env.BENCH_DATA_DIR;
const dir = keep ?? mkdtempSync(path.join(os.tmpdir(), 'bench-backoffice-'));
const pg = await startEmbeddedPostgres(dir);
const database = connect(pg.url, 4);
const { db, pool } = database;
/** What the services read of the app: the database and the public URL their links start with. */
const ctx = { db, config: { publicUrl: 'http://localhost:3000' } } as unknown as AppContext;

/**
 * Adds requests up to `total`, spread over the last 365 days, corridors mixed. As in a running back
 * office, only the last three hours' requests are still open (pending or processing); older ones
 * are closed (completed, rejected or cancelled).
 */
async function growTo(total: number, have: number) {
  const started = performance.now();
  await db.execute(sql`
    insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, destination_details,
      amount, currency, fee, total, rate, payout_amount, payout_currency, status, created_at, updated_at)
    select 'B' || lpad(g::text, 9, '0'),
      s.ids[1 + g % ${SENDERS}],
      'USD_XAF', 'paypal_usd', 'airtel_gabon',
      jsonb_build_object('recipient_name', 'Recipient ' || g, 'recipient_phone', '+2417' || lpad(g::text, 7, '0')),
      100 + (g % 1900), 'USD', 4.50, 104.50 + (g % 1900), 610, 61000, 'XAF',
      case when g % 525600 < 180 then (array['pending','processing'])[1 + g % 2]
        else (array['completed','completed','completed','rejected','cancelled'])[1 + g % 5] end,
      now() - (g % 525600) * interval '1 minute', now()
    from generate_series(${have + 1}::int, ${total}::int) g, (select array_agg(id order by id) ids from profiles) s`);
  // A corridor mix without a second pass over the sender lookup.
  await db.execute(sql`update transfer_requests set direction = 'EUR_RWF', currency = 'EUR', source_provider = 'paypal_eur', destination_provider = 'mobile_rwanda'
    where reference > ${`B${String(have).padStart(9, '0')}`} and right(reference, 1) in ('3', '7')`);
  await db.execute(sql`vacuum analyze transfer_requests`);
  console.log(`  generated ${total - have} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function explain(label: string, filter: StaffFilter, cursor?: string) {
  const { sql: text, params } = staffRows(db, await prepareFilter(db, filter), cursor ? decodeCursor(cursor) : null, 25).toSQL();
  const res = await pool.query(`explain (analyze, buffers, costs off) ${text}`, params as unknown[]);
  const lines = res.rows.map((r: Record<string, string>) => r['QUERY PLAN']);
  console.log(`\n  -- ${label}`);
  for (const line of lines) console.log(`     ${line}`);
}

async function timePage(filter: StaffFilter, cursor?: string, runs = 7): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await listStaffRequests(ctx, { ...filter, cursor, limit: 25 });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return `median ${times[Math.floor(runs / 2)]!.toFixed(1)} ms, max ${times[runs - 1]!.toFixed(1)} ms`;
}

/** Reads the whole export as the HTTP reply would, sampling memory while it streams. */
async function measureExport(filter: StaffFilter) {
  gc();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let liveHeap = 0;
  const sample = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 20);
  const t0 = performance.now();
  let bytes = 0;
  let chunks = 0;
  for await (const chunk of exportLines(ctx, filter)) {
    bytes += Buffer.byteLength(chunk);
    // Every 5 batches, what is still held once garbage is gone.
    if (++chunks % 5 === 0) {
      gc();
      liveHeap = Math.max(liveHeap, process.memoryUsage().heapUsed - base.heapUsed);
    }
  }
  clearInterval(sample);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return { seconds: ((performance.now() - t0) / 1000).toFixed(1), size: mb(bytes), liveHeap: mb(Math.max(0, liveHeap)), peakRss: mb(peakRss), baseRss: mb(base.rss) };
}

const all = StaffFilterSchema.parse({});
const pending = StaffFilterSchema.parse({ status: 'pending' });
const corridor = StaffFilterSchema.parse({ direction: 'EUR_RWF', sort: 'oldest' });
const lastMonth = StaffFilterSchema.parse({ from: new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10) });
const search = StaffFilterSchema.parse({ q: 'Recipient 4242' });
const senderSearch = StaffFilterSchema.parse({ q: 'sender42@' });
const referenceSearch = StaffFilterSchema.parse({ q: 'B000424242' });
const needsApproval = StaffFilterSchema.parse({ needs_approval: 'true' });
const late = StaffFilterSchema.parse({ late: 'true' });
// Oldest first, as staff work a queue: the open requests are the newest, so a walk from the oldest
// end of an index of every request passes all the closed ones first.
const needsApprovalOldest = StaffFilterSchema.parse({ needs_approval: 'true', sort: 'oldest' });
const lateOldest = StaffFilterSchema.parse({ late: 'true', sort: 'oldest' });

/** The staff status counts' budget, at every size. */
const STATUS_COUNTS_BUDGET_MS = 50;
const statusCountsMs = new Map<number, number>();
let countsExact = true;

try {
  await runMigrations(database);
  await seedReferenceData(db);
  const [count] = (await db.execute<{ n: number; senders: number }>(sql`select (select count(*)::int from transfer_requests) as n, (select count(*)::int from profiles) as senders`)).rows;
  if (!count!.senders) {
    await db.execute(sql`insert into profiles (email, full_name) select 'sender' || g || '@example.test', 'Sender ' || g from generate_series(1, ${SENDERS}) g`);
  }
  let have = count!.n;
  for (const size of SIZES) {
    console.log(`\n=== ${size.toLocaleString('en-US')} transfer requests ===`);
    if (have > size) {
      console.log(`  skipped: the kept data already holds ${have} rows`);
      continue;
    }
    if (have < size) await growTo(size, have);
    have = size;

    // A cursor 40 pages deep, as a staff member scrolling far would send.
    let deep: string | undefined;
    for (let i = 0; i < 40; i += 1) deep = (await listStaffRequests(ctx, { ...all, cursor: deep, limit: 25 })).next_cursor ?? undefined;

    await explain('first page, newest first', all);
    await explain('pending only', pending);
    await explain('one corridor, oldest first', corridor);
    await explain('page 41 (cursor)', all, deep);
    await explain('search: recipient name', search);
    await explain('search: sender e-mail', senderSearch);
    await explain('needs approval (four-eyes)', needsApproval);
    await explain('late (open past the corridor\'s delivery window)', late);
    await explain('needs approval, oldest first', needsApprovalOldest);

    console.log('\n  staff list, 25 rows:');
    console.log(`    first page           ${await timePage(all)}`);
    console.log(`    pending              ${await timePage(pending)}`);
    console.log(`    corridor, oldest     ${await timePage(corridor)}`);
    console.log(`    last 30 days         ${await timePage(lastMonth)}`);
    console.log(`    page 41 (cursor)     ${await timePage(all, deep)}`);
    console.log(`    search: recipient    ${await timePage(search)}`);
    console.log(`    search: sender       ${await timePage(senderSearch)}`);
    console.log(`    search: reference    ${await timePage(referenceSearch)}`);
    console.log(`    needs approval       ${await timePage(needsApproval)}`);
    console.log(`    late                 ${await timePage(late)}`);
    console.log(`    needs approval, old  ${await timePage(needsApprovalOldest)}`);
    console.log(`    late, oldest first   ${await timePage(lateOldest)}`);

    // Counts by status, read from the counts the triggers keep (docs/decisions/015-fast-start-and-status-counts.md),
    // checked against counting the rows themselves (not timed).
    const countTimes: number[] = [];
    let counts: Awaited<ReturnType<typeof requestCounts>> | undefined;
    for (let i = 0; i < 7; i += 1) {
      const t0 = performance.now();
      counts = await requestCounts(db);
      countTimes.push(performance.now() - t0);
    }
    countTimes.sort((a, b) => a - b);
    const truth = (await db.execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from transfer_requests group by status`)).rows;
    const exact = truth.every((r) => counts![r.status as keyof typeof counts] === r.n);
    const countsMs = countTimes[3]!;
    statusCountsMs.set(size, countsMs);
    const t2 = performance.now();
    await dailyVolume(db, 30);
    console.log(`\n  stats: counts by status median ${countsMs.toFixed(1)} ms, max ${countTimes[6]!.toFixed(1)} ms (${exact ? 'equal to' : 'DIFFERENT FROM'} count(*) per status); ` +
      `30-day volume per corridor ${(performance.now() - t2).toFixed(1)} ms`);
    if (!exact) countsExact = false;

    const full = await measureExport(all);
    console.log(`\n  CSV export, every row: ${full.size} in ${full.seconds} s; live heap above the start at most ${full.liveHeap} ` +
      `(sampled after GC every 5 batches of 500); RSS ${full.baseRss} at start, ${full.peakRss} at peak`);
  }
  const measured = [...statusCountsMs.values()];
  const met = countsExact && measured.length > 0 && Math.max(...measured) < STATUS_COUNTS_BUDGET_MS;
  console.log(`\n  status counts: ${met ? 'met' : 'not met'} (under ${STATUS_COUNTS_BUDGET_MS} ms at every size and exact; ` +
    `${SIZES.map((n) => `${n.toLocaleString('en-US')}: ${statusCountsMs.get(n)?.toFixed(1) ?? '-'} ms`).join(', ')})`);
} finally {
  await database.close();
  await pg.stop();
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
