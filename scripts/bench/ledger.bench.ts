// The books' budget (docs/rules/money-states.md#ledger): ledger balances and the reconciliation view under 50 ms at
// 1,000,000 transfers. Seeds the transfers, their ledger entries (payment for every paid one;
// payout and fee for the completed ones, each entry balanced per currency and checked by the
// database's deferred trigger at each batch's commit) and a statement per provider account whose
// lines hold every book line older than 30 days (matched) plus 1,000 lines the books lack; then
// times the services behind GET /api/ledger/balances, GET /api/reconciliation and
// GET /api/reconciliation/{account}, and prints the plan of the view's slowest query.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PROVIDER_ACCOUNTS } from '@core/ledger.js';
import { connect, startEmbeddedPostgres } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { seedReferenceData } from '@server/db/seed.js';
import { balances } from '@server/modules/ledger/service.js';
import { accountView, importStatement, summaries } from '@server/modules/reconciliation/service.js';

const SIZE = Number(process.env.BENCH_LEDGER_SIZE ?? 1_000_000);
const BATCH = 100_000;
const SENDERS = 2_000;
const BUDGET_MS = 50;

// BENCH_DATA_DIR keeps the generated data between runs (generating the books takes minutes).
const keep = process.env.BENCH_DATA_DIR;
const dir = keep ?? mkdtempSync(path.join(os.tmpdir(), 'bench-ledger-'));
const pg = await startEmbeddedPostgres(dir);
const database = connect(pg.url, 8);
const { db } = database;

/** Transfers lo..hi and their entries, in one transaction: the deferred trigger checks every entry at commit. */
async function seedBatch(lo: number, hi: number) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, destination_details,
        amount, currency, fee, total, rate, payout_amount, payout_currency, status, payment_status, payment_amount, payout_status, created_at, updated_at)
      select 'L' || lpad(g::text, 9, '0'), s.ids[1 + g % ${SENDERS}], d.direction, d.source, d.destination,
        jsonb_build_object('recipient_name', 'Recipient ' || g, 'recipient_phone', '+2417' || lpad(g::text, 7, '0')),
        d.amount, d.currency, d.fee, d.amount + d.fee, d.rate, d.payout, d.payout_currency, st.status,
        case when st.paid then 'received' else 'awaiting' end, case when st.paid then d.amount + d.fee end,
        case when st.status = 'completed' then 'sent' else 'not_sent' end,
        now() - (${SIZE} - g) * interval '1 minute' * 525600 / ${SIZE}, now()
      from generate_series(${lo}::int, ${hi}::int) g
      cross join (select array_agg(id order by id) ids from profiles) s
      cross join lateral (select case when g % 10 in (3, 7) then 1 when g % 10 = 5 then 2 else 0 end as corridor) c
      cross join lateral (select * from (values
        (0, 'USD_XAF', 'paypal_usd', 'airtel_gabon', 100 + (g % 1900)::numeric, 'USD', 4.50, 610::numeric, (100 + (g % 1900)) * 610::numeric, 'XAF'),
        (1, 'EUR_RWF', 'paypal_eur', 'mobile_rwanda', 100 + (g % 1900)::numeric, 'EUR', 4.50, 1500::numeric, (100 + (g % 1900)) * 1500::numeric, 'RWF'),
        (2, 'EUR_USD', 'bank_france', 'paypal_usd', 100 + (g % 1900)::numeric, 'EUR', 3.00, 1.08::numeric, (100 + (g % 1900)) * 1.08::numeric, 'USD')
      ) v(corridor, direction, source, destination, amount, currency, fee, rate, payout, payout_currency) where v.corridor = c.corridor) d
      cross join lateral (select (array['pending','processing','completed','completed','completed','rejected','cancelled'])[1 + g % 7] as status,
        (g % 7) between 1 and 4 as paid) st`);
    const [first] = (await tx.execute<{ id: string }>(sql`select coalesce(max(id), 0)::text as id from ledger_entries`)).rows;
    await tx.execute(sql`
      insert into ledger_entries (transfer_request_id, kind, reference, created_at)
      select t.id, k.kind, case k.kind when 'payment' then 'IN-' || t.reference when 'payout' then 'OUT-' || t.reference end, t.created_at
      from transfer_requests t
      cross join lateral (values ('payment', 1), ('payout', 2), ('fee', 3)) k(kind, n)
      where t.reference between ${`L${String(lo).padStart(9, '0')}`} and ${`L${String(hi).padStart(9, '0')}`}
        and (k.kind = 'payment' and t.payment_status = 'received' or k.kind <> 'payment' and t.status = 'completed')
      order by t.created_at, k.n`);
    await tx.execute(sql`
      insert into ledger_lines (entry_id, account, currency, amount)
      select e.id, v.account, v.currency, v.amount
      from ledger_entries e join transfer_requests t on t.id = e.transfer_request_id
      cross join lateral (select * from (values
        ('payment', t.source_provider, t.currency, t.total), ('payment', 'customer_funds', t.currency, -t.total),
        ('payout', 'customer_funds', t.currency, t.amount), ('payout', 'fx', t.currency, -t.amount),
        ('payout', 'fx', t.payout_currency, t.payout_amount), ('payout', t.destination_provider, t.payout_currency, -t.payout_amount),
        ('fee', 'customer_funds', t.currency, t.fee), ('fee', 'fee_revenue', t.currency, -t.fee)
      ) x(kind, account, currency, amount) where x.kind = e.kind) v
      where e.id > ${first!.id}::bigint
      order by e.id`);
  });
}

/**
 * One statement per provider account, a month behind the books: every book line but the newest
 * 8% of the account (about 30 days of a year), matched, and 1,000 lines the books lack.
 */
async function seedStatements() {
  await db.execute(sql`
    insert into reconciliation_statements (account, currency, as_of, balance, filename)
    select b.account, b.currency, now() - interval '30 days', sum(b.debits - b.credits), 'bench.csv'
    from ledger_balances b where b.account in ('paypal_usd', 'paypal_eur', 'airtel_gabon', 'mobile_rwanda', 'bank_france')
    group by b.account, b.currency`);
  await db.execute(sql`
    insert into statement_lines (statement_id, account, posted_on, reference, description, amount, ledger_line_id)
    select s.id, l.account, e.created_at, e.reference, 'bench', l.amount, l.id
    from ledger_lines l join ledger_entries e on e.id = l.entry_id
    join reconciliation_statements s on s.account = l.account and s.currency = l.currency
    join (select account, percentile_disc(0.92) within group (order by id) as last_id from ledger_lines group by account) cut
      on cut.account = l.account and l.id <= cut.last_id
    order by l.id`);
  await db.execute(sql`
    insert into statement_lines (statement_id, account, posted_on, reference, description, amount)
    select s.id, s.account, now() - (g || ' days')::interval, 'FEE-' || g, 'Provider fee', -(1 + g % 9)
    from reconciliation_statements s cross join generate_series(1, 1000) g`);
}

async function time(label: string, run: () => Promise<unknown>, runs = 9): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(runs / 2)]!;
  console.log(`    ${label.padEnd(42)} median ${median.toFixed(1)} ms, max ${times[runs - 1]!.toFixed(1)} ms  ${median < BUDGET_MS ? 'met' : 'NOT MET'}`);
  return median;
}

try {
  await runMigrations(database);
  await seedReferenceData(db);
  const [have] = (await db.execute<{ n: number; senders: number }>(sql`
    select (select count(*)::int from transfer_requests) as n, (select count(*)::int from profiles) as senders`)).rows;
  if (!have!.senders) {
    await db.execute(sql`insert into profiles (email, full_name) select 'sender' || g || '@example.test', 'Sender ' || g from generate_series(1, ${SENDERS}) g`);
  }
  if (have!.n < SIZE) {
    const started = performance.now();
    for (let lo = have!.n + 1; lo <= SIZE;) {
      // A small first batch, then statistics: the balance trigger's lookups by entry plan on a
      // table known to be large (on an empty one they would scan it, once per line).
      const hi = Math.min(lo + (lo === 1 ? 2_000 : BATCH) - 1, SIZE);
      const t0 = performance.now();
      await seedBatch(lo, hi);
      await db.execute(sql`analyze transfer_requests, ledger_entries, ledger_lines`);
      console.log(`  transfers ${lo.toLocaleString('en-US')}-${hi.toLocaleString('en-US')} with their entries: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      lo = hi + 1;
    }
    console.log(`  generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const [statements] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from reconciliation_statements`)).rows;
  if (statements!.n === 0) {
    const t0 = performance.now();
    await seedStatements();
    await db.execute(sql`vacuum analyze`);
    console.log(`  statements generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  const [sizes] = (await db.execute<Record<string, number>>(sql`select
    (select count(*)::int from transfer_requests) as transfers, (select count(*)::int from ledger_entries) as entries,
    (select count(*)::int from ledger_lines) as lines, (select count(*)::int from statement_lines) as statement_lines,
    (select count(*)::int from statement_lines where ledger_line_id is not null) as matched`)).rows;
  console.log(`\n=== ${sizes!.transfers!.toLocaleString('en-US')} transfers: ${sizes!.entries!.toLocaleString('en-US')} entries, ` +
    `${sizes!.lines!.toLocaleString('en-US')} lines, ${sizes!.statement_lines!.toLocaleString('en-US')} statement lines (${sizes!.matched!.toLocaleString('en-US')} matched) ===`);

  // The running balances equal the sum of the lines, and every currency sums to zero (not timed).
  const [check] = (await db.execute<{ drift: number; unbalanced: number }>(sql`select
    (select count(*)::int from (select account, currency, sum(amount) s from ledger_lines group by 1, 2) l
      join (select account, currency, sum(debits - credits) s from ledger_balances group by 1, 2) b using (account, currency) where b.s <> l.s) as drift,
    (select count(*)::int from (select currency from ledger_balances group by 1 having sum(debits - credits) <> 0) z) as unbalanced`)).rows;
  console.log(`  books: ${check!.drift === 0 ? 'running balances equal the lines' : `${check!.drift} balances DIFFER from the lines`}, ` +
    `${check!.unbalanced === 0 ? 'every currency sums to zero' : `${check!.unbalanced} currencies DO NOT sum to zero`}`);

  console.log('\n  budget: under 50 ms each (median of 9, after one warm-up call)');
  const results: number[] = [];
  results.push(await time('GET /api/ledger/balances', () => balances(db)));
  results.push(await time('GET /api/reconciliation (every account)', () => summaries(db)));
  for (const account of PROVIDER_ACCOUNTS) {
    results.push(await time(`GET /api/reconciliation/${account}`, () => accountView(db, account, 50)));
  }
  const met = results.every((ms) => ms < BUDGET_MS);

  console.log('\n  not in the budget (writes):');
  const csv = ['date,reference,description,amount', ...Array.from({ length: 1000 }, (_, i) => `2026-01-01,NEW-${i},Bench,${i + 1}`)].join('\n');
  const [admin] = (await db.execute<{ id: string }>(sql`select id from profiles limit 1`)).rows;
  const t0 = performance.now();
  const imported = await importStatement(db, { profile_id: admin!.id, role: 'admin', ip: null }, 'paypal_usd', { text: csv, filename: 'bench.csv' }, {});
  console.log(`    CSV import of 1,000 lines with matching    ${(performance.now() - t0).toFixed(0)} ms (${imported.matched} matched, every unmatched line of the account tried)`);

  console.log(`\n  ledger balances and reconciliation view: ${met ? 'met' : 'not met'} (under ${BUDGET_MS} ms at ${sizes!.transfers!.toLocaleString('en-US')} transfers)`);
} finally {
  await database.close();
  await pg.stop();
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
