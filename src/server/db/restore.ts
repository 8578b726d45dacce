import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../paths.js';
import { appliedMigrations, BACKUP_FORMAT, BACKUP_VERSION, copiedColumns, quoteIdent, tablesInLoadOrder,
  type BackupHeader, type SequencesLine, type TableLine } from './backup.js';
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
 * with it, its rows are replaced. Everything happens in one transaction: a bad or cut file, or
 * rows that no longer fit, leave the database exactly as it was.
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
    await client.query('begin');
    // The app migrating at start waits for the restore, and the other way round.
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
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
    await applyMigrations(client, code.slice(applied.length, header.migrations.length));
    const tables = await tablesInLoadOrder(client);
    if (tables.length > 0) await client.query(`truncate table ${tables.map((t) => `public.${quoteIdent(t)}`).join(', ')}`);
    // Rows go back as they were saved, derived ones included (the status counts): the triggers
    // that keep those would count the loaded transfers a second time. Off until the load is done.
    for (const t of tables) await client.query(`alter table public.${quoteIdent(t)} disable trigger user`);

    let rows = 0;
    let count = 0;
    for (let line = await next(); ; line = await next()) {
      const item = JSON.parse(line) as Partial<TableLine & SequencesLine & { end: true; tables: number; rows: number }>;
      if (item.table !== undefined) {
        rows += await loadTable(client, item as TableLine, tables, next);
        count += 1;
      } else if (item.sequences) {
        for (const s of item.sequences) {
          if (s.value !== null) await client.query('select setval($1::regclass, $2::bigint, true)', [`public.${quoteIdent(s.name)}`, s.value]);
        }
      } else if (item.end) {
        if (item.tables !== count || item.rows !== rows) throw new Error(`${file} is inconsistent: it announces ${item.tables} tables and ${item.rows} rows, holds ${count} and ${rows}.`);
        break;
      }
    }
    for (const t of tables) await client.query(`alter table public.${quoteIdent(t)} enable trigger user`);
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

async function loadTable(client: pg.Client, table: TableLine, known: string[], next: () => Promise<string>): Promise<number> {
  if (!known.includes(table.table)) throw new Error(`The backup holds table ${table.table}, which this database's schema lacks.`);
  const present = new Set(await copiedColumns(client, table.table));
  const missing = table.columns.filter((c) => !present.has(c));
  if (missing.length > 0) throw new Error(`Table ${table.table} lacks the backup's columns ${missing.join(', ')}.`);
  const target = `public.${quoteIdent(table.table)}`;
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
    const r = await client.query<{ any: boolean }>(`select exists (select 1 from public.${quoteIdent(table)}) as any`);
    if (r.rows[0]!.any) holding.push(table);
  }
  return holding;
}

function parseHeader(line: string, file: string): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line) as Partial<BackupHeader>;
  } catch {
    header = {};
  }
  if (header.format !== BACKUP_FORMAT) throw new RestoreRefusedError(`${file} is not a backup made by \`npm run db:backup\`. Nothing was changed.`);
  if (header.version !== BACKUP_VERSION) throw new RestoreRefusedError(`${file} is a backup of format ${header.version}; this release reads format ${BACKUP_VERSION}. Nothing was changed.`);
  return header as BackupHeader;
}

const isPrefix = (a: string[], b: string[]) => a.length <= b.length && a.every((h, i) => h === b[i]);
