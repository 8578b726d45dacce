import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { Logger, runMigrations as migrateJobQueue } from 'graphile-worker';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.js';
import { appliedMigrations, BACKUP_FORMAT, BACKUP_VERSION, copiedColumns, jobQueueMigration, qualified, quoteIdent, READABLE_VERSIONS,
  tablesInLoadOrder, type BackupHeader, type SequencesLine, type Table, type TableLine } from './backup.js';
import { connect } from './client.js';
import { MIGRATION_LOCK, runMigrations } from './migrate.js';

/** The restore was not attempted; the database is as it was. */
export class RestoreRefusedError extends Error {}

export interface RestoreSummary {
  tables: number;
  rows: number;
  /** Migrations applied after loading, when the backup came from an older release. */
  migratedAfter: number;
}

const BATCH_ROWS = 500;
const BATCH_CHARS = 8_000_000;

/**
 * Loads a backup into the database at `url`. A database holding rows is refused unless `force`;
 * with it, its rows are replaced. The rows go in in one transaction: a bad or cut file, or rows
 * that no longer fit, leave every row as it was. Only the job queue's empty tables may be left
 * behind: graphile-worker installs them in transactions of its own, as at the app's start.
 */
export async function restoreBackup(url: string, file: string, opts: { force?: boolean } = {}): Promise<RestoreSummary> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const line = await lines.next();
    if (line.done) throw new RestoreRefusedError(`${file} ends early: the backup is incomplete. Nothing was changed.`);
    return line.value;
  };
  const first = await next().catch((err: unknown) => {
    if (err instanceof RestoreRefusedError) throw err;
    throw new RestoreRefusedError(`${file} is not a backup made by \`npm run db:backup\` (${(err as Error).message}). Nothing was changed.`);
  });
  const header = parseHeader(first, file);
  const code = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  if (!isPrefix(header.migrations, code.map((m) => m.hash))) {
    throw new RestoreRefusedError('The backup was made by a newer release of the app (its schema has migrations this code lacks). '
      + 'Restore it with that release. Nothing was changed.');
  }

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let summary: RestoreSummary;
  try {
    // The app migrating at start waits for the restore, and the other way round.
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const name = (await client.query<{ db: string }>('select current_database() as db')).rows[0]!.db;
    const holding = await tablesWithRows(client);
    if (holding.length > 0 && !opts.force) {
      throw new RestoreRefusedError(`Database "${name}" already holds data (rows in ${holding.join(', ')}). `
        + 'Restoring replaces all of it: run the restore again with --force if that is what you want. Nothing was changed.');
    }
    const applied = await appliedMigrations(client);
    if (!isPrefix(applied, header.migrations)) {
      throw new RestoreRefusedError(`Database "${name}" has a newer schema than the backup. Restore into an empty database. Nothing was changed.`);
    }
    if (header.job_queue_migration != null) await installJobQueue(url, header.job_queue_migration);
    await client.query('begin');
    await applyMigrations(client, code.slice(applied.length, header.migrations.length));
    const tables = await tablesInLoadOrder(client);
    if (tables.length > 0) await client.query(`truncate table ${tables.map(qualified).join(', ')}`);
    // Rows go back as they were saved, derived ones included (the status counts): the triggers
    // that keep those would count the loaded transfers a second time. Off until the load is done.
    for (const t of tables) await client.query(`alter table ${qualified(t)} disable trigger user`);

    let rows = 0;
    let count = 0;
    for (let line = await next(); ; line = await next()) {
      const item = JSON.parse(line) as Partial<TableLine & SequencesLine & { end: true; tables: number; rows: number }>;
      if (item.table !== undefined) {
        // Format 1 names public's tables and sequences without their schema.
        rows += await loadTable(client, { schema: 'public', ...item } as TableLine, tables, next);
        count += 1;
      } else if (item.sequences) {
        for (const s of item.sequences) {
          const sequence = qualified({ schema: s.schema ?? 'public', table: s.name });
          if (s.value !== null) await client.query('select setval($1::regclass, $2::bigint, true)', [sequence, s.value]);
        }
      } else if (item.end) {
        if (item.tables !== count || item.rows !== rows) throw new Error(`${file} is inconsistent: it announces ${item.tables} tables and ${item.rows} rows, holds ${count} and ${rows}.`);
        break;
      }
    }
    for (const t of tables) await client.query(`alter table ${qualified(t)} enable trigger user`);
    await client.query('commit');
    summary = { tables: count, rows, migratedAfter: code.length - header.migrations.length };
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
  // A backup from an older release: its rows are in, now bring them to this release's schema.
  if (summary.migratedAfter > 0) {
    const database = connect(url, 2);
    await runMigrations(database).finally(() => database.close());
  }
  return summary;
}

async function loadTable(client: pg.Client, table: TableLine, known: Table[], next: () => Promise<string>): Promise<number> {
  const name = `${table.schema}.${table.table}`;
  if (!known.some((k) => k.schema === table.schema && k.table === table.table)) throw new Error(`The backup holds table ${name}, which this database's schema lacks.`);
  const present = new Set(await copiedColumns(client, table));
  const missing = table.columns.filter((c) => !present.has(c));
  if (missing.length > 0) throw new Error(`Table ${name} lacks the backup's columns ${missing.join(', ')}.`);
  const target = qualified(table);
  const list = table.columns.map(quoteIdent).join(', ');
  const insert = `insert into ${target} (${list}) overriding system value select ${list} from json_populate_recordset(null::${target}, $1::json)`;
  let batch: string[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length > 0) await client.query(insert, [`[${batch.join(',')}]`]);
    batch = [];
    chars = 0;
  };
  for (let i = 0; i < table.rows; i++) {
    const row = await next();
    batch.push(row);
    chars += row.length;
    if (batch.length >= BATCH_ROWS || chars >= BATCH_CHARS) await flush();
  }
  await flush();
  return table.rows;
}

/** drizzle's migrator, stopped at the backup's schema: the same statements and journal rows. */
async function applyMigrations(client: pg.Client, migrations: MigrationMeta[]): Promise<void> {
  await client.query('create schema if not exists drizzle');
  await client.query('create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
  for (const m of migrations) {
    for (const statement of m.sql) await client.query(statement);
    await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [m.hash, m.folderMillis]);
  }
}

async function tablesWithRows(client: pg.Client): Promise<string[]> {
  const holding: string[] = [];
  for (const table of await tablesInLoadOrder(client)) {
    const r = await client.query<{ any: boolean }>(`select exists (select 1 from ${qualified(table)}) as any`);
    if (r.rows[0]!.any) holding.push(table.schema === 'public' ? table.table : `${table.schema}.${table.table}`);
  }
  return holding;
}

/**
 * The job queue's tables, by graphile-worker's own migrations (it runs each in a transaction of
 * its own, so they cannot join the restore's). Its rows fit this release's queue only if the
 * backup's queue is not newer.
 */
async function installJobQueue(url: string, backupRevision: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  // A connection lost while idle fails the next query with its own error: not an unhandled event that ends the restore.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    await migrateJobQueue({ pgPool: pool, logger: new Logger(() => () => {}) });
    const client = await pool.connect();
    const installed = await jobQueueMigration(client).finally(() => client.release());
    if (installed === null || installed < backupRevision) {
      throw new RestoreRefusedError(`The backup's job queue was made by a newer release (revision ${backupRevision}; this release has ${installed}). `
        + 'Restore it with that release. No rows were changed.');
    }
  } finally {
    await pool.end();
  }
}

function parseHeader(line: string, file: string): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line) as Partial<BackupHeader>;
  } catch {
    header = {};
  }
  if (header.format !== BACKUP_FORMAT) throw new RestoreRefusedError(`${file} is not a backup made by \`npm run db:backup\`. Nothing was changed.`);
  if (!READABLE_VERSIONS.includes(header.version as number)) {
    throw new RestoreRefusedError(`${file} is a backup of format ${header.version}; this release reads formats up to ${BACKUP_VERSION}. Nothing was changed.`);
  }
  return header as BackupHeader;
}

const isPrefix = (a: string[], b: string[]) => a.length <= b.length && a.every((h, i) => h === b[i]);
