// Payouts through an operator's rail against the Airtel peer on this machine (docs/rules/payout-rails.md):
// - from the last control clearing (the payment recorded) to the disbursement reaching the
//   operator: p50 and p95 (budget: 2 s at p95);
// - 100 payouts a second offered for 60 s: the rate that reached the operator, and recipients
//   paid twice (budget: 0);
// - the callback endpoint's latency under that load: p99 (budget: 50 ms).
// The product as a deployment runs it: the server (RUN_WORKER=false) and `npm run worker`
// processes (BENCH_WORKERS, 3 by default), each a process of its own, on a temporary embedded
// PostgreSQL; this process holds the peer and records the payments, and a thread of its own posts
// and times the callbacks: half as many a second as payouts, each second's spread over it, as an
// operator posts one as each of its payments ends (BENCH_CALLBACK_BURSTS=1: each second's at once,
// the harsher pattern of the figures before 2026-11-30, where a burst's last waits for the 49 before it).
// BENCH_RATE and BENCH_SECONDS change the load; BENCH_RECORDING how many payments are recorded at once. Figures only: nothing here fails on a budget.
// Beside the wall-clock figures, what a busy machine does not change: the CPU each payout costs the
// server, the workers and PostgreSQL (from /proc), and the statements and transactions it costs
// (pg_stat_statements, pg_stat_database). BENCH_PROFILE=<dir> writes the server's and each worker's --cpu-prof there.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { loadConfig } from '@server/config.js';
import { connect, startEmbeddedPostgres } from '@server/db/client.js';
import { recordPayment } from '@server/modules/transfers/record-payment.js';
import { AirtelPeer } from '../../tests/support/peers/airtel-peer.js';
import { spawnServer } from '../../tests/support/server-process.js';

const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 3);
// Half the payouts get a callback while the load runs (50 a second at 100 payouts a second).
const CALLBACKS_PER_SECOND = Math.max(1, Math.round(RATE / 2));
/** BENCH_LATENCY=0 leaves out the first part (one payout at a time, then tens): for a short profile of the load alone. */
const LATENCY = process.env.BENCH_LATENCY !== '0';

const airtel = await new AirtelPeer().start();
airtel.setFloat('XAF', '1000000000000');
const railEnv = {
  ...airtel.env(), RUN_WORKER: 'false',
};
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-payouts-'));
// pg_stat_statements is loaded at start only: set, then PostgreSQL started again on the same folder.
let postgres = await startEmbeddedPostgres(dataDir);
{
  const { pool: admin } = connect(postgres.url, 1);
  await admin.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
  // Planning timed too (a statement sent unnamed is planned on every run); with BENCH_STATEMENTS,
  // the statements of functions and triggers listed as well (and counted among the statements).
  await admin.query(`alter system set pg_stat_statements.track_planning = on`);
  if (process.env.BENCH_STATEMENTS) await admin.query(`alter system set pg_stat_statements.track = 'all'`);
  await admin.end();
  await postgres.stop();
  postgres = await startEmbeddedPostgres(dataDir);
}
const databaseUrl = postgres.url;
// Profiled with the workers, the server answers the callbacks.
const serverProfile: Record<string, string> = process.env.BENCH_PROFILE ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE}` } : {};
const server = await spawnServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, ...railEnv, ...serverProfile });
if (!server.url) throw new Error(`the server did not start:\n${server.stderr()}`);
const { db, pool } = connect(databaseUrl, 24);
const ctx = { config: loadConfig({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PUBLIC_URL: server.url, ...railEnv }), db };
await pool.query(`update payout_rails set enabled = true where id = 'airtel_gabon'`);
await pool.query('create extension if not exists pg_stat_statements');
/** Senders of the transfers, each sending a few (one sender's 6,000 transfers would share rows no real load shares: their grouped e-mails). */
const SENDERS = 1000;
await pool.query(`insert into profiles (email, full_name, email_verified_at, kyc_level)
  select 'bench.sender' || n || '@example.test', 'Bench Sender ' || n, now(), 3 from generate_series(1, ${SENDERS}) n`);

const workers: ChildProcess[] = [];
async function startWorker(): Promise<void> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/server/worker-main.ts'], {
    // The same mode as the server (spawnServer's: no secrets to set up).
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, PUBLIC_URL: server.url, ...railEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    // Its log is read until it says it started, then only drained (kept, it cost this process a payout's CPU over again).
    let started = false;
    const onData = (chunk: Buffer) => {
      if (started) return;
      output += chunk.toString();
      if (output.includes('"msg":"job worker started"')) {
        started = true;
        output = '';
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before starting:\n${output}`)));
  });
}
for (let i = 0; i < WORKERS; i++) await startWorker();

/** CPU time (user + system) a process has used, in ms, from /proc (Linux; 0 elsewhere). */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** This bench's PostgreSQL: its postmaster and every process it started (backends, WAL writer…), not other sessions' servers. */
function postgresCpuMs(): number {
  const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuMs(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)') && Number(stat.split(') ')[1]!.split(' ')[1]) === postmaster) total += cpuMs(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return total;
}

interface Usage { server: number; workers: number; postgres: number; bench: number; xacts: number }
async function usage(): Promise<Usage> {
  const { rows } = await pool.query(`select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`);
  const own = process.cpuUsage();
  return {
    server: cpuMs(server.child.pid), workers: workers.reduce((sum, w) => sum + cpuMs(w.pid), 0), postgres: postgresCpuMs(),
    bench: (own.user + own.system) / 1000, xacts: Number((rows[0] as { n: string }).n),
  };
}

/**
 * What the payouts reached since `before` cost per payout: CPU of each process (ms), transactions,
 * and statements (the top ones by calls and by time), the bench's own included (it records the payments).
 */
async function costs(label: string, before: Usage, payouts: number): Promise<void> {
  const after = await usage();
  const per = (ms: number) => (ms / Math.max(1, payouts)).toFixed(2);
  const product = after.server - before.server + after.workers - before.workers + after.postgres - before.postgres;
  console.log(`${label}: CPU per payout (${payouts}): server ${per(after.server - before.server)} ms, workers ${per(after.workers - before.workers)} ms,`
    + ` PostgreSQL ${per(after.postgres - before.postgres)} ms; together ${per(product)} ms (budget: well under 20 ms at 100/s on 2 cores);`
    + ` the bench (peer, payments recorded, callbacks) ${per(after.bench - before.bench)} ms`);
  const { rows } = await pool.query(`select calls::int, total_exec_time, plans::int, total_plan_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 150) as query
    from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`);
  const statements = rows as { calls: number; total_exec_time: number; plans: number; total_plan_time: number; query: string }[];
  const calls = statements.reduce((sum, r) => sum + r.calls, 0);
  const time = statements.reduce((sum, r) => sum + r.total_exec_time, 0);
  console.log(`${label}: per payout ${((after.xacts - before.xacts) / Math.max(1, payouts)).toFixed(1)} transactions, ${(calls / Math.max(1, payouts)).toFixed(1)} statements, `
    + `${(time / Math.max(1, payouts)).toFixed(2)} ms executing them`);
  if (process.env.BENCH_STATEMENTS) {
    const top = (order: (a: typeof statements[number], b: typeof statements[number]) => number) => [...statements].sort(order).slice(0, Number(process.env.BENCH_STATEMENTS));
    const line = (r: typeof statements[number]) => `  ${(r.calls / Math.max(1, payouts)).toFixed(2).padStart(6)}/payout ${(r.total_exec_time / Math.max(1, payouts)).toFixed(3).padStart(7)} ms`
      + ` planned ${(r.plans / Math.max(1, payouts)).toFixed(2).padStart(5)}/payout ${(r.total_plan_time / Math.max(1, payouts)).toFixed(3).padStart(6)} ms  ${r.query}`;
    console.log(`${label}: the top statements by time`);
    for (const r of top((a, b) => b.total_exec_time - a.total_exec_time)) console.log(line(r));
    console.log(`${label}: the top statements by calls`);
    for (const r of top((a, b) => b.calls - a.calls)) console.log(line(r));
    console.log(`${label}: the top statements by planning time`);
    for (const r of top((a, b) => b.total_plan_time - a.total_plan_time)) console.log(line(r));
  }
}
const resetStatements = () => pool.query('select pg_stat_statements_reset()');

let serial = 0;
/**
 * `count` $100 transfers not yet paid, each to its own Airtel Gabon number registered under the
 * recipient's name: made ahead, so that the timed part is the payment's recording alone.
 */
async function newTransfers(count: number): Promise<{ id: string; total: string }[]> {
  const from = serial + 1;
  serial += count;
  for (let n = from; n <= serial; n++) airtel.register(`+2417${String(n).padStart(7, '0')}`, { first: 'Marie', last: `Nguema${n}` });
  const { rows } = await db.execute(sql`with made as (
      insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, source_details,
        destination_details, amount, currency, fee, total, rate, payout_amount, payout_currency)
      select ${`BENCH-${randomBytes(3).toString('hex').toUpperCase()}-`} || n, (select id from profiles where email = 'bench.sender' || (1 + n % ${SENDERS}) || '@example.test'), 'USD_XAF', 'paypal_usd', 'airtel_gabon', '{}',
        jsonb_build_object('recipient_name', 'Marie Nguema' || n, 'recipient_phone', '+2417' || lpad(n::text, 7, '0')),
        100, 'USD', 4.5, 104.5, 610, 61000, 'XAF'
      from generate_series(${from}::int, ${serial}::int) n
      returning id, total, profile_id),
    listed as (insert into transactions (transfer_request_id, profile_id, direction, amount, currency, status, destination_details)
      select id, profile_id, 'USD_XAF', 100, 'USD', 'pending', '{}' from made)
    select id, total::text from made`);
  return rows as { id: string; total: string }[];
}

/**
 * Payments recorded at once (BENCH_RECORDING, 8 by default): each holds its connections for its
 * transaction, the rest wait their turn. More when the recording, not the payouts, is what keeps
 * the load from being offered.
 */
const RECORDING = Number(process.env.BENCH_RECORDING ?? 8);
let recording = 0;
const turns: (() => void)[] = [];
async function inTurn(work: () => Promise<void>): Promise<void> {
  if (recording >= RECORDING) await new Promise<void>((resolve) => turns.push(resolve));
  recording += 1;
  try {
    await work();
  } finally {
    recording -= 1;
    turns.shift()?.();
  }
}

/** Records each payment as received (the last control): the moment its payout's clock starts. */
const cleared = new Map<string, number>();
async function clear(rows: { id: string; total: string }[]): Promise<void> {
  await Promise.all(rows.map((row) => inTurn(async () => {
    await recordPayment(ctx, null, row.id, { amount: row.total, reference: `STMT-${row.id.slice(0, 8)}` });
    cleared.set(row.id, Date.now());
  })));
}

/** Waits (up to 2 minutes) until each of these transfers has its attempt. */
async function drained(ids: string[]): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 1000) {
    const { rows } = await pool.query(`select count(*)::int as n from payout_attempts where transfer_id = any($1)`, [ids]);
    if ((rows[0] as { n: number }).n >= ids.length) return;
    await sleep(1000);
  }
}

/** Waits (up to 2 minutes) until none of these transfers' attempts is still open: the operator answered and the books are posted. */
async function settled(ids: string[]): Promise<void> {
  for (let waited = 0; waited < 120_000; waited += 500) {
    const { rows } = await pool.query(`select count(*)::int as n from payout_attempts where transfer_id = any($1) and state in ('submitting', 'pending', 'unknown')`, [ids]);
    if ((rows[0] as { n: number }).n === 0) return;
    await sleep(500);
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each cleared transfer's time to its disbursement reaching the operator, in ms. */
async function reachTimes(ids: string[]): Promise<{ times: number[]; missing: number }> {
  const { rows } = await pool.query(`select transfer_id, reference from payout_attempts where transfer_id = any($1)`, [ids]);
  const arrived = new Map<string, number>();
  for (const r of airtel.calls('POST', '/standard/v2/disbursements')) {
    const id = (r.body as { transaction?: { id?: string } }).transaction?.id;
    if (id && !arrived.has(id)) arrived.set(id, r.at);
  }
  const times: number[] = [];
  for (const r of rows as { transfer_id: string; reference: string }[]) {
    const at = arrived.get(r.reference);
    if (at !== undefined) times.push(at - cleared.get(r.transfer_id)!);
  }
  return { times, missing: ids.length - times.length };
}

// 1. One payout at a time, then in tens: the last control to the operator.
const single: string[] = [];
for (let i = 0; i < (LATENCY ? 40 : 0); i++) {
  const rows = await newTransfers(i < 20 ? 1 : 10);
  await clear(rows);
  single.push(...rows.map((r) => r.id));
  await sleep(250);
}
await drained(single);
const first = await reachTimes(single);
if (LATENCY) console.log(`last control cleared → request at the operator (${single.length} payouts, 1 then 10 at a time): p50 ${percentile(first.times, 50).toFixed(0)} ms, p95 ${percentile(first.times, 95).toFixed(0)} ms, not arrived ${first.missing} (budget: p95 ≤ 2000 ms)`);

// 2. RATE payouts a second for SECONDS, with operator callbacks posted meanwhile.
const sustained: string[] = [];
// The callbacks are posted and timed by a thread of their own: timed on this process's event loop,
// busy recording payments and answering as the peer, each time would also hold whatever this
// process was doing when the answer came in.
const callbackClient = new Worker(`
  const { parentPort, workerData } = require('node:worker_threads');
  // node:http, its connections kept: fetch's own work per request, on a thread of a busy machine,
  // was a large part of what a burst's last callback measured (docs/benchmarks.md#payouts).
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true });
  const times = [];
  let errors = 0;
  parentPort.on('message', async (references) => {
    if (references === null) {
      parentPort.postMessage({ times: times.splice(0), errors });
      errors = 0;
      return;
    }
    await Promise.all(references.map(async (reference, n) => {
      if (!workerData.bursts) await new Promise((resolve) => setTimeout(resolve, (n * 1000) / references.length));
      const started = performance.now();
      const body = JSON.stringify({ transaction: { id: reference, message: 'Transaction is successful.', status_code: 'TS', airtel_money_id: 'MP000000' } });
      const status = await new Promise((resolve) => {
        const req = http.request(workerData.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        });
        req.on('error', () => resolve(null));
        req.end(body);
      });
      times.push(performance.now() - started);
      if (status !== 200) errors += 1;
    }));
    parentPort.postMessage('sent');
  });`, { eval: true, workerData: { url: `${server.url}/api/rails/airtel/callback`, bursts: process.env.BENCH_CALLBACK_BURSTS === '1' } });
/** Has the client thread post these callbacks over a second (or at once); resolves once all are answered (with null: its times and errors so far, which it then forgets). */
const postCallbacks = <T>(references: string[] | null) => new Promise<T>((resolve) => {
  callbackClient.once('message', resolve);
  callbackClient.postMessage(references);
});
// The payouts' transfers made first: the callbacks are timed while the payments are offered, not
// while those are written.
const waiting = await newTransfers(RATE * SECONDS);
// One second's first, not timed: as on a server that has been answering callbacks, its connections
// are open and its callback path compiled before the timing starts.
// (The first part's payouts, or with BENCH_LATENCY=0 references naming none.)
const latest = async () => ((await pool.query(`select reference from payout_attempts order by created_at desc limit ${CALLBACKS_PER_SECOND}`)).rows as { reference: string }[]).map((r) => r.reference);
const warmUp = await latest();
await postCallbacks(warmUp.length > 0 ? warmUp : Array.from({ length: CALLBACKS_PER_SECOND }, (_, n) => `WARM-UP-${n}`));
await postCallbacks<{ times: number[]; errors: number }>(null);
let sending = true;
const callbacks = (async () => {
  while (sending) {
    const tick = Date.now();
    await postCallbacks(await latest());
    await sleep(Math.max(0, 1000 - (Date.now() - tick)));
  }
})();
await resetStatements();
const before = await usage();
const started = Date.now();
let behind = 0;
const clearing: Promise<void>[] = [];
for (let s = 0; s < SECONDS; s++) {
  const tick = Date.now();
  // Ten batches a second, as payments arrive.
  for (let b = 0; b < 10; b++) {
    const rows = waiting.splice(0, RATE / 10);
    clearing.push(clear(rows));
    sustained.push(...rows.map((r) => r.id));
    await sleep(Math.max(0, tick + (b + 1) * 100 - Date.now()));
  }
  if (Date.now() - tick > 1100) behind += 1;
}
const windowEnd = Date.now();
// Payments still being recorded finish (up to 2 minutes more): a backlog says the load was not carried.
await Promise.race([Promise.all(clearing), sleep(120_000)]);
const offeredFor = (windowEnd - started) / 1000;
const inSustained = new Set(sustained);
const recordedInWindow = [...cleared.entries()].filter(([id, at]) => at <= windowEnd && inSustained.has(id)).length;
sending = false;
await callbacks;
const { times: callbackTimes, errors: callbackErrors } = await postCallbacks<{ times: number[]; errors: number }>(null);
await callbackClient.terminate();
await drained(sustained);
const second = await reachTimes(sustained);
// Until the payouts reached settle (their books posted once the operator says succeeded).
await settled(sustained);
await costs('sustained', before, second.times.length);
const arrivals = airtel.calls('POST', '/standard/v2/disbursements').map((r) => r.at).filter((at) => at >= started);
const span = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000;
const paidPerNumber = new Map<string, number>();
for (const p of airtel.payments) paidPerNumber.set(p.msisdn, (paidPerNumber.get(p.msisdn) ?? 0) + 1);
const paidTwice = [...paidPerNumber.values()].filter((n) => n > 1).length;
const requestsPerReference = new Map<string, number>();
for (const r of airtel.calls('POST', '/standard/v2/disbursements')) {
  const id = (r.body as { transaction?: { id?: string } }).transaction?.id ?? '';
  requestsPerReference.set(id, (requestsPerReference.get(id) ?? 0) + 1);
}
console.log(`offered ${sustained.length} payments over ${offeredFor.toFixed(1)} s; recorded within that time: ${recordedInWindow} (${(recordedInWindow / offeredFor).toFixed(1)}/s), all: ${sustained.filter((id) => cleared.has(id)).length}; the generator fell behind in ${behind} of ${SECONDS} seconds`);
console.log(`reached the operator: ${second.times.length} in ${span.toFixed(1)} s = ${(second.times.length / span).toFixed(1)}/s; not arrived after the drain: ${second.missing}; last control → operator p50 ${percentile(second.times, 50).toFixed(0)} ms, p95 ${percentile(second.times, 95).toFixed(0)} ms`);
console.log(`paid twice: ${paidTwice} recipients (of ${paidPerNumber.size} paid); references sent more than once: ${[...requestsPerReference.values()].filter((n) => n > 1).length} (budget: 0)`);
console.log(`callback endpoint under that load: ${callbackTimes.length} callbacks, p50 ${percentile(callbackTimes, 50).toFixed(1)} ms, p99 ${percentile(callbackTimes, 99).toFixed(1)} ms, errors ${callbackErrors} (budget: p99 ≤ 50 ms)`);

for (const worker of workers) {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGTERM');
  await exited;
}
server.child.kill('SIGTERM');
await server.exited;
await pool.end();
await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
await airtel.stop();
process.exit(0);
