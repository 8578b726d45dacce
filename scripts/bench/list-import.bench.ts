// Reading the sanctions lists' files (docs/rules/screening.md#list-files): a generated
// 20,000-entry OFAC list (sdn.csv, alt.csv, add.csv) and a 50 MB sdn.csv, read from disk as
// the import streams them. Budget: ≤ 10 s with the process's memory (RSS) under 300 MB.
// Then the product's own import of that list into PostgreSQL (importList: parse, hash, entries
// written in one transaction, the index rebuilt), the same budget; and the re-screening of
// 100,000 people (90,000 senders, 10,000 saved recipients) after a list version changes
// (runRescreen, the durable job's body): budget ≤ 60 s (docs/rules/screening.md#holds-and-alerts).
// BENCH_DATABASE_URL: an empty PostgreSQL database to fill; otherwise a temporary embedded one.
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { connect, startEmbeddedPostgres, type Database } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { seedReferenceData } from '@server/db/seed.js';
import { readList, type ListFiles } from '@server/modules/screening/lists/index.js';
import { importList } from '@server/modules/screening/lists-service.js';
import { runRescreen } from '@server/modules/screening/rescreen.js';
import ordinary from '@core/screening/testdata/ordinary.json';
import { encode, generatedOfac, generatedSdnRow, sdnLine } from '../../tests/support/sanctions-files.js';

const BUDGET_SECONDS = 10;
const BUDGET_RSS_MB = 300;
const RESCREEN_SENDERS = Number(process.env.BENCH_RESCREEN_SENDERS ?? 90_000);
const RESCREEN_SAVED = Number(process.env.BENCH_RESCREEN_SAVED ?? 10_000);
const RESCREEN_BUDGET_SECONDS = 60;
const mb = (bytes: number) => bytes / 1_048_576;

let over = false;
if (process.env.LIST_IMPORT_DIR) {
  // The child: the files are already written.
  const dir = process.env.LIST_IMPORT_DIR;
  await inDatabase(dir);
  process.exit(over ? 1 : 0);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'list-import-'));

async function measure(label: string, input: () => ListFiles, bytes: number) {
  const base = process.memoryUsage().rss;
  let peak = base;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t0 = performance.now();
  const { entries, counts } = readList(input());
  // Entries are handed on and let go, as the import writes them in batches.
  for await (const _ of entries) if (counts.entries % 1000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sample);
  peak = Math.max(peak, process.memoryUsage().rss);
  const ok = seconds <= BUDGET_SECONDS && mb(peak) < BUDGET_RSS_MB;
  if (!ok) over = true;
  console.log(`${label}: ${mb(bytes).toFixed(1)} MB, ${counts.entries} entries, ${counts.names} names in ${seconds.toFixed(2)} s, peak RSS ${mb(peak).toFixed(0)} MB (${mb(base).toFixed(0)} MB before) ${ok ? '(within budget)' : '(OVER BUDGET)'}`);
}

try {
  // 20,000 entries, each with two aliases and an address.
  for (const [name, text] of Object.entries(generatedOfac(20_000))) writeFileSync(path.join(dir, `${name}.csv`), encode(text, 'windows-1252'));
  const size = ['sdn', 'alt', 'add'].reduce((s, n) => s + statSync(path.join(dir, `${n}.csv`)).size, 0);
  const file = (n: string) => createReadStream(path.join(dir, `${n}.csv`));

  await measure('OFAC list of 20,000 entries (sdn.csv, alt.csv, add.csv)', () => ({ source: 'ofac_sdn', files: { sdn: file('sdn'), alt: file('alt'), add: file('add') } }), size);
  // 50 MB of sdn.csv, written in pieces; an accented first entry makes it Windows-1252.
  const big = path.join(dir, 'big-sdn.csv');
  const out = createWriteStream(big);
  out.write(encode(sdnLine({ ent_num: 1, name: 'MÜLLER, José', type: 'individual', programs: ['SDGT'] }) + '\r\n', 'windows-1252'));
  let written = 0;
  for (let i = 0; written < 50 * 1_048_576; i++) {
    const piece = Array.from({ length: 1000 }, (_, k) => sdnLine(generatedSdnRow(i * 1000 + k)) + '\r\n').join('');
    written += piece.length;
    if (!out.write(piece)) await once(out, 'drain');
  }
  out.end('\x1a');
  await once(out, 'finish');

  await measure('sdn.csv of 50 MB', () => ({ source: 'ofac_sdn', files: { sdn: createReadStream(big) } }), statSync(big).size);
  console.log(`budget: ≤ ${BUDGET_SECONDS} s and RSS < ${BUDGET_RSS_MB} MB for each file and the import`);
  // The import into the database in a process of its own, as a server would run it: this one's
  // memory is swollen by making the files.
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: 'inherit', env: { ...process.env, LIST_IMPORT_DIR: dir } });
  if (child.status !== 0) over = true;
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** The import as the product does it, then the re-screening after a new version. */
async function inDatabase(dir: string) {
  const pgDir = process.env.BENCH_DATABASE_URL ? null : mkdtempSync(path.join(os.tmpdir(), 'bench-screening-'));
  const pg = pgDir ? await startEmbeddedPostgres(pgDir) : null;
  const database: Database = connect(process.env.BENCH_DATABASE_URL ?? pg!.url, 4);
  const { db } = database;
  try {
    await runMigrations(database);
    await seedReferenceData(db);
    const uploaded = (names: string[]) => names.map((n) => {
      const p = path.join(dir, `${n}.csv`);
      return { name: `${n}.csv`, open: () => createReadStream(p), sha256: createHash('sha256').update(readFileSync(p)).digest('hex') };
    });

    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    let t0 = performance.now();
    const version = await importList({ db, config: { JOB_MAX_ATTEMPTS: 1 } }, null, 'ofac_sdn', uploaded(['sdn', 'alt', 'add']));
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sample);
    peak = Math.max(peak, process.memoryUsage().rss);
    const ok = seconds <= BUDGET_SECONDS && mb(peak) < BUDGET_RSS_MB;
    if (!ok) over = true;
    console.log(`import into PostgreSQL (importList, index rebuilt): ${version.entries} entries, ${version.names} names in ${seconds.toFixed(2)} s, peak RSS ${mb(peak).toFixed(0)} MB (${mb(base).toFixed(0)} MB before) ${ok ? '(within budget)' : '(OVER BUDGET)'}`);

    // 100,000 people: ordinary names (first and last names mixed across the labelled set's), a
    // birth date and country for senders; a few listed names among them so the job raises alerts.
    const firsts = ordinary.map((o) => o.name.split(' ')[0]!);
    const lasts = ordinary.map((o) => o.name.split(' ').slice(1).join(' '));
    const [F, L] = [JSON.stringify(firsts), JSON.stringify(lasts)];
    await db.execute(sql`insert into profiles (email, full_name, date_of_birth, country, kyc_level)
      select 'p' || g || '@example.test',
        case when g % 3000 = 0 and g < 20000 then 'Given' || g || ' SURNAME' || g else (${F}::jsonb ->> (g % ${firsts.length})) || ' ' || (${L}::jsonb ->> ((g * 7) % ${lasts.length})) end,
        case when g % 3000 = 0 and g < 20000 then null else date '1960-01-01' + (g % 15000) end, 'GA', 1
      from generate_series(1, ${RESCREEN_SENDERS}) g`);
    await db.execute(sql`insert into saved_recipients (profile_id, channel, recipient_name, recipient_phone)
      select id, 'airtel_gabon', (${L}::jsonb ->> ((n * 13) % ${lasts.length})::int) || ' ' || (${F}::jsonb ->> ((n * 3) % ${firsts.length})::int), '+24177' || (100000 + n)
      from (select id, row_number() over (order by id) as n from profiles limit ${RESCREEN_SAVED}) p`);
    await db.execute(sql`analyze`);

    // A new version (one entry more), then the job's body over everyone.
    writeFileSync(path.join(dir, 'sdn2.csv'), encode(readFileSync(path.join(dir, 'sdn.csv'), 'latin1').replace('\x1a', '') + sdnLine(generatedSdnRow(20_000)) + '\r\n\x1a', 'windows-1252'));
    const next = await importList({ db, config: { JOB_MAX_ATTEMPTS: 1 } }, null, 'ofac_sdn', [{ ...uploaded(['sdn2'])[0]!, name: 'sdn.csv' }, ...uploaded(['alt', 'add'])]);
    const created = await db.execute<{ id: string }>(sql`insert into screening_rescreens (version_ids) values (${JSON.stringify([next.id])}::jsonb) returning id`);
    const id = created.rows[0]!.id;
    t0 = performance.now();
    await runRescreen({ db }, { rescreen_id: id });
    const rescreenSeconds = (performance.now() - t0) / 1000;
    const done = (await db.execute<{ total: number; done: number; alerts: number }>(sql`select total, done, alerts from screening_rescreens where id = ${id}::uuid`)).rows[0]!;
    const rescreenOk = rescreenSeconds <= RESCREEN_BUDGET_SECONDS && done.done === RESCREEN_SENDERS + RESCREEN_SAVED;
    if (!rescreenOk) over = true;
    console.log(`re-screening after a list version changed: ${done.done} of ${done.total} people (${RESCREEN_SENDERS} senders, ${RESCREEN_SAVED} saved recipients) against ${next.names} names in ${rescreenSeconds.toFixed(1)} s, ${done.alerts} alerts (budget ≤ ${RESCREEN_BUDGET_SECONDS} s) ${rescreenOk ? '(within budget)' : '(OVER BUDGET)'}`);
  } finally {
    await database.close();
    await pg?.stop();
    if (pgDir) rmSync(pgDir, { recursive: true, force: true });
  }
}
process.exit(over ? 1 : 0);
