// The bank rail (docs/rules/bank-rail.md; figures in docs/benchmarks.md#bank-rail), its budgets:
// - a 10,000-transfer pain.001.001.09 payment file written (the sepa package, exact control sums)
//   in under 2 s, and "create bank file" of 10,000 ready transfers as a whole in under 2 s;
// - a 50,000-line camt.053 read streaming and matched (one transaction, each line looked up by its
//   bank reference and matched) in under 10 s with the importing process's memory under 300 MB.
//   The import is measured as deployed: in a process of its own, apart from the bench's setting
//   up, running this file compiled as `npm run build:server` compiles the server (esbuild, one ESM
//   bundle) under the node flags `npm start` gives the server (server-node-flags.ts), not tsx.
//   BANK_BENCH_PROFILE set: the time each kind of SQL statement took in it, the commit's included.
// The statement is a business day's: most lines match (debits settling payouts in our bank files,
// returns of some of them, senders' credits naming transfers awaiting a bank payment), the rest
// are others' credits and debits that name nothing of ours. What each kind came to is printed.
// On a temporary embedded PostgreSQL, migrated and seeded. Figures are printed; a budget missed
// is said, and the run exits 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { getHeapSpaceStatistics } from 'node:v8';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverNodeFlags } from './server-node-flags.js';
import { build } from 'esbuild';
import pg from 'pg';
import { loadConfig } from '@server/config.js';
import { connect, startEmbeddedPostgres } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { seedReferenceData } from '@server/db/seed.js';
import { createBankFile, importBankStatement } from '@server/modules/bank/service.js';
import { writePain001 } from '@server/modules/bank/pain001.js';

const FILE_TRANSFERS = 10_000;
/** BANK_BENCH_LINES: a smaller statement (its kinds in the same shares) to compare changes quickly; its budget is the full one's. */
const SCALE = Number(process.env.BANK_BENCH_LINES ?? 50_000) / 50_000;
/** The statement's lines of each kind, in this order (returns name payouts settled earlier in it). */
const LINES = { settled: 30_000 * SCALE, payments: 8_000 * SCALE, returned: 2_000 * SCALE, unmatched: 10_000 * SCALE };
const STATEMENT_LINES = LINES.settled + LINES.payments + LINES.returned + LINES.unmatched;
/** Today's bank file, and the payouts already in an earlier one when it is made: with today's, what the statement settles. */
const TODAY_FILE = Math.min(FILE_TRANSFERS, LINES.settled);
const EARLIER_FILE = LINES.settled - TODAY_FILE;
const missed: string[] = [];

const debtor = { iban: 'FR7630004000031234567890143', bic: 'BNPAFRPP', name: 'Money Transfer SAS' };
const reference = (prefix: string, n: number) => `MT-${prefix}${String(n).padStart(6, '0')}`;
/** The payout of transfer n of the files (as inserted below: 10 to 909 euros). */
const payout = (n: number) => `${10 + (n % 900)}.00`;

// ---- the statement: built as it is read, never whole ----
const entry = (i: number, credit: boolean, amount: string, e2e: string | null, remittance: string | null, reason: string | null) =>
  `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-11-28</Dt></BookgDt>`
  + `<AcctSvcrRef>BNK-${i}</AcctSvcrRef><NtryDtls><TxDtls><Refs><EndToEndId>${e2e ?? 'NOTPROVIDED'}</EndToEndId></Refs>`
  + `${remittance ? `<RmtInf><Ustrd>${remittance}</Ustrd></RmtInf>` : ''}${reason ? `<RtrInf><Rsn><Cd>${reason}</Cd></Rsn></RtrInf>` : ''}</TxDtls></NtryDtls></Ntry>`;
/** Line i of the statement, by the kind its place gives it. */
function line(i: number): string {
  let n = i;
  if (n < LINES.settled) return entry(i, false, payout(n + 1), reference('BENCH', n + 1), null, null);
  n -= LINES.settled;
  if (n < LINES.payments) return entry(i, true, `${11 + ((n + 1) % 900)}.00`, null, `Virement ${reference('PAY', n + 1)} Awa Diallo`, null);
  n -= LINES.payments;
  if (n < LINES.returned) return entry(i, true, payout(n + 1), reference('BENCH', n + 1), null, 'AC04');
  n -= LINES.returned;
  // Others' credits (some quoting a reference no transfer has) and the account's own debits.
  return n % 4 === 3 ? entry(i, false, `${1 + (n % 500)}.${String(n % 100).padStart(2, '0')}`, `SUPPLIER-${n}`, null, null)
    : entry(i, true, `${1 + (n % 5000)}.${String(n % 100).padStart(2, '0')}`, null, n % 4 === 0 ? `Virement MT-NONE${n}` : `Facture ${n} loyer`, null);
}
/** The statement as the upload would bring it: 64 KB pieces, never whole in memory. */
async function* statement(): AsyncGenerator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><GrpHdr><MsgId>STMT-BENCH-1</MsgId><CreDtTm>2026-11-28T18:00:00</CreDtTm></GrpHdr><Stmt><Id>S-1</Id><Acct><Id><IBAN>${debtor.iban}</IBAN></Id></Acct>`;
  let piece = '';
  for (let i = 0; i < STATEMENT_LINES; i++) {
    piece += line(i);
    if (piece.length > 64_000) { yield piece; piece = ''; }
  }
  yield `${piece}</Stmt></BkToCstmrStmt></Document>`;
}
/**
 * The import as the server runs it, in a process of its own (this file again, BANK_BENCH_IMPORT
 * set): its memory is the importing process's, not the bench's with its setting up (30,000
 * transfers made, two bank files written) still in its heap.
 */
/** BANK_BENCH_PROFILE set: the time each kind of SQL statement took in the import, summed, printed after it (the commit's deferred checks are the COMMIT's). */
function profileStatements(): () => void {
  const spent = new Map<string, { ms: number; calls: number }>();
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function timed(this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text ?? '?';
    const key = text.replace(/\s+/g, ' ').trim().slice(0, 110);
    const started = performance.now();
    const result = query.apply(this, args);
    if (result instanceof Promise) {
      void result.finally(() => {
        const row = spent.get(key) ?? { ms: 0, calls: 0 };
        spent.set(key, { ms: row.ms + performance.now() - started, calls: row.calls + 1 });
      }).catch(() => undefined);
    }
    return result;
  } as typeof pg.Client.prototype.query;
  return () => {
    for (const [key, { ms, calls }] of [...spent].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) console.error(`${ms.toFixed(0).padStart(7)} ms ${String(calls).padStart(5)}× ${key}`);
  };
}

async function importInChild(url: string, actorId: string) {
  const printProfile = process.env.BANK_BENCH_PROFILE ? profileStatements() : null;
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: os.tmpdir(), NODE_ENV: 'test', BANK_IBAN: debtor.iban, BANK_BIC: debtor.bic, BANK_ACCOUNT_NAME: debtor.name });
  const database = connect(url, 4);
  try {
    (globalThis as { gc?: () => void }).gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    /** At the peak: the young generation's committed size (its two semi-spaces) and the rest of the JS heap. */
    let peakHeap = { young: 0, rest: 0 };
    const sampler = setInterval(() => {
      const rss = process.memoryUsage().rss;
      if (rss <= peak) return;
      peak = rss;
      const spaces = getHeapSpaceStatistics();
      const young = spaces.filter((s) => s.space_name.startsWith('new_')).reduce((sum, s) => sum + s.space_size, 0);
      peakHeap = { young, rest: spaces.reduce((sum, s) => sum + s.space_size, 0) - young };
    }, 20);
    const started = performance.now();
    const result = await importBankStatement({ config, db: database.db }, { profile_id: actorId, role: 'manager', ip: null }, statement(), 'bench.xml');
    const ms = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const { settled, payments, returned, unmatched } = result;
    printProfile?.();
    console.log(JSON.stringify({ ms, baseline, peak, peakHeap, kinds: { settled, payments, returned, unmatched } }));
  } finally {
    await database.pool.end();
  }
}

/**
 * This file compiled as scripts/build-server.mjs compiles the server (one ESM bundle, packages
 * left in node_modules), so the import is measured as deployed, not through tsx. Written under
 * node_modules/.cache, where the bundle finds the project's packages and root.
 */
async function compiledBench(): Promise<string> {
  const outfile = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../node_modules/.cache/bank-bench/bank.bench.mjs');
  await build({ entryPoints: [fileURLToPath(import.meta.url)], outfile, bundle: true, platform: 'node', target: 'node24', format: 'esm', packages: 'external', tsconfig: 'tsconfig.json', logLevel: 'warning' });
  return outfile;
}

if (process.env.BANK_BENCH_IMPORT) {
  const { url, actorId } = JSON.parse(process.env.BANK_BENCH_IMPORT) as { url: string; actorId: string };
  await importInChild(url, actorId);
  process.exit(0);
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-bank-'));
const postgres = await startEmbeddedPostgres(dataDir);
const database = connect(postgres.url, 4);
try {
  await runMigrations(database);
  await seedReferenceData(database.db);
  const { rows } = await database.pool.query(`insert into profiles (email, full_name, email_verified_at, role)
    values ('bench.staff@example.test', 'Bench Staff', now(), 'manager') returning id`);
  const actor = { profile_id: rows[0].id as string, role: 'manager' as const, ip: null };
  const sender = (await database.pool.query(`insert into profiles (email, full_name, email_verified_at)
    values ('awa.diallo@example.test', 'Awa Diallo', now()) returning id`)).rows[0].id as string;
  const admin = { ...actor, role: 'admin' as const };
  const config = loadConfig({ DATABASE_URL: postgres.url, DATA_DIR: dataDir, NODE_ENV: 'test', BANK_IBAN: debtor.iban, BANK_BIC: debtor.bic, BANK_ACCOUNT_NAME: debtor.name });
  const ctx = { config, db: database.db };
  await database.pool.query(`update payout_rails set enabled = true where id = 'sepa_france'`);

  /** Transfers first to last paid in, to a French account, ready for a bank file. */
  const insertReady = (first: number, last: number) => database.pool.query(`insert into transfer_requests (reference, profile_id, direction, source_provider,
      destination_provider, source_details, destination_details, amount, currency, fee, total, rate, payout_amount, payout_currency, status, payment_status,
      payment_amount, created_at, updated_at)
    select 'MT-BENCH' || lpad(g::text, 6, '0'), $1, 'EUR_EUR', 'paypal_eur', 'bank_france', '{}',
      jsonb_build_object('account_holder', 'Bénéficiaire ' || g, 'recipient_name', 'Bénéficiaire ' || g, 'iban', 'FR7630006000011234567890189'),
      10 + g % 900, 'EUR', 1, 11 + g % 900, 1, 10 + g % 900, 'EUR', 'pending', 'received', 11 + g % 900, now(), now()
    from generate_series($2::int, $3::int) g`, [sender, first, last]);

  // ---- "create bank file" as the admin asks it: 10,000 transfers ready, each locked and checked,
  // moved to processing with its timeline step, its attempt written, the XML written, one job for the e-mails.
  // Yesterday's file, still unpaid, holds the statement's other payouts. ----
  if (EARLIER_FILE > 0) {
    await insertReady(1, EARLIER_FILE);
    await createBankFile(ctx, admin);
  }
  await insertReady(EARLIER_FILE + 1, LINES.settled);
  const created = performance.now();
  const made = await createBankFile(ctx, admin);
  const createMs = performance.now() - created;
  console.log(`"create bank file" of ${made.count.toLocaleString('en')} transfers (locks, checks, attempts, status moves, the e-mails' job, XML): ${createMs.toFixed(0)} ms (budget 2,000 ms)`);
  if (made.count !== TODAY_FILE) missed.push('bank file count');
  if (createMs >= 2000) missed.push('bank file creation');

  // Senders paying by bank transfer: their transfers await the money their credits bring.
  await database.pool.query(`insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, source_details,
      destination_details, amount, currency, fee, total, rate, payout_amount, payout_currency, status, payment_status, created_at, updated_at)
    select 'MT-PAY' || lpad(g::text, 6, '0'), $1, 'EUR_USD', 'bank_france', 'paypal_usd', '{}', jsonb_build_object('recipient_email', 'payee' || g || '@example.test'),
      10 + g % 900, 'EUR', 1, 11 + g % 900, 1, 10 + g % 900, 'USD', 'pending', 'awaiting', now(), now()
    from generate_series(1, ${LINES.payments}) g`, [sender]);
  await database.pool.query('analyze');

  const child = spawnSync(process.execPath, ['--expose-gc', ...serverNodeFlags(), await compiledBench()], {
    env: { ...process.env, BANK_BENCH_IMPORT: JSON.stringify({ url: postgres.url, actorId: actor.profile_id }) }, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`the import's process ended with ${child.status}`);
  const { ms: statementMs, baseline, peak, peakHeap, kinds } = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as {
    ms: number; baseline: number; peak: number; peakHeap: { young: number; rest: number }; kinds: Record<keyof typeof LINES, number>;
  };
  console.log(`camt.053 of ${STATEMENT_LINES.toLocaleString('en')} lines matched: ${statementMs.toFixed(0)} ms (budget 10,000 ms); `
    + `the importing process's memory ${(peak / 2 ** 20).toFixed(0)} MB at its peak, ${((peak - baseline) / 2 ** 20).toFixed(0)} MB above its start (budget 300 MB); `
    + `at the peak its JS heap held ${(peakHeap.young / 2 ** 20).toFixed(0)} MB of young generation and ${(peakHeap.rest / 2 ** 20).toFixed(0)} MB else`);
  console.log(`  its lines: ${Object.entries(kinds).map(([kind, count]) => `${kind} ${count.toLocaleString('en')} (expected ${LINES[kind as keyof typeof LINES].toLocaleString('en')})`).join(', ')}`);
  if (Object.entries(kinds).some(([kind, count]) => count !== LINES[kind as keyof typeof LINES])) missed.push('statement outcomes');
  if (statementMs >= 10_000) missed.push('statement time');
  if (peak >= 300 * 2 ** 20) missed.push('statement memory');
} finally {
  await database.pool.end();
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
// ---- the payment file ----
const transfers = Array.from({ length: FILE_TRANSFERS }, (_, i) => ({
  endToEndId: `MT-BENCH${String(i).padStart(6, '0')}`, amount: `${1 + (i * 7919) % 99_999}.${String(i % 100).padStart(2, '0')}`,
  creditorName: `Bénéficiaire ${i} Dupré`, creditorIban: 'FR7630006000011234567890189', creditorBic: null, remittance: `Awa Diallo MT-BENCH${i}`,
}));
const fileStarted = performance.now();
const xml = writePain001('BF-BENCH-1', new Date(), new Date(), debtor, transfers);
const fileMs = performance.now() - fileStarted;
console.log(`pain.001.001.09 of ${FILE_TRANSFERS.toLocaleString('en')} transfers: ${fileMs.toFixed(0)} ms, ${(xml.length / 1e6).toFixed(1)} MB (budget 2,000 ms)`);
if (fileMs >= 2000) missed.push('payment file');

console.log(missed.length ? `bank budgets missed: ${missed.join(', ')}` : 'bank budgets: met');
process.exit(missed.length ? 1 : 0);
