import { once } from 'node:events';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';

// A backup is gzip-compressed JSON lines: a header, then for each table a line naming it, its
// columns and its row count followed by one line per row (PostgreSQL's own row_to_json, so
// numbers, times and bytes keep their exact text), then the sequences, then an end line that
// tells a whole file from a cut one. Every line is read in one repeatable-read transaction: the
// file is the database as it stood at one instant, however much the app writes meanwhile. It
// holds every schema the app keeps rows in: its own tables and the job queue's (queued e-mails,
// PayPal voids and refunds are work the app owes).
// (pg_dump would do this too, but none of the server's major version ships here: see
// docs/decisions/010-backups.md.)

export const BACKUP_FORMAT = 'money-transfer-backup';
/** Format 2 added the job queue's tables; format 1 files (the app's tables only) are still read. */
export const BACKUP_VERSION = 2;
export const READABLE_VERSIONS: readonly number[] = [1, 2];

const JOB_QUEUE_SCHEMA = 'graphile_worker';
/**
 * The schemas whose rows are the app's data. Schema journals are not data (the code's migrations
 * are the schema): drizzle's has a schema of its own, graphile-worker's lives beside its tables.
 */
const DATA_SCHEMAS = ['public', JOB_QUEUE_SCHEMA];
const SCHEMA_JOURNALS = [`${JOB_QUEUE_SCHEMA}.migrations`];

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  created_at: string;
  database: string;
  server_version: string;
  /** Hashes of the schema migrations applied, oldest first: the schema the rows fit. */
  migrations: string[];
  /** The job queue's schema revision (graphile-worker's latest migration); absent in format 1. */
  job_queue_migration?: number | null;
}

/** A table of a data schema (format 1 files name public's tables without a schema). */
export interface Table {
  schema: string;
  table: string;
}

export interface TableLine extends Table {
  columns: string[];
  rows: number;
}

export interface SequencesLine {
  /** `schema` is absent in format 1 files, whose sequences are all public's. */
  sequences: Array<{ schema?: string; name: string; value: string | null }>;
}

export interface BackupSummary {
  tables: number;
  rows: number;
}

const FETCH_ROWS = 500;

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const qualified = (t: Table) => `${quoteIdent(t.schema)}.${quoteIdent(t.table)}`;

/** Writes a snapshot of the database at `url` to `file` (through a partial file, renamed at the end). */
export async function writeBackup(url: string, file: string): Promise<BackupSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const partial = `${file}.partial`;
  // Backups hold personal data and password hashes: readable by their owner only.
  const out = createWriteStream(partial, { mode: 0o600 });
  const gzip = createGzip();
  gzip.pipe(out);
  const write = async (value: unknown) => {
    if (!gzip.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`)) await once(gzip, 'drain');
  };
  try {
    await client.query('begin isolation level repeatable read, read only');
    // The first statement fixes the snapshot every later one reads.
    const about = await client.query<{ database: string; version: string }>(
      `select current_database() as database, current_setting('server_version') as version`);
    const header: BackupHeader = {
      format: BACKUP_FORMAT, version: BACKUP_VERSION, created_at: new Date().toISOString(),
      database: about.rows[0]!.database, server_version: about.rows[0]!.version, migrations: await appliedMigrations(client),
      job_queue_migration: await jobQueueMigration(client),
    };
    await write(header);
    let rows = 0;
    const tables = await tablesInLoadOrder(client);
    for (const table of tables) rows += await writeTable(client, table, write);
    // Read after the snapshot was fixed, so never behind the rows it holds.
    const sequences = await client.query<{ schema: string; name: string; value: string | null }>(
      `select schemaname as schema, sequencename as name, last_value::text as value from pg_sequences
       where schemaname = any($1::text[]) order by 1, 2`, [DATA_SCHEMAS]);
    await write({ sequences: sequences.rows } satisfies SequencesLine);
    await write({ end: true, tables: tables.length, rows });
    await client.query('commit');
    gzip.end();
    await finished(out);
    renameSync(partial, file);
    return { tables: tables.length, rows };
  } catch (err) {
    gzip.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw err;
  } finally {
    await client.end();
  }
}

async function writeTable(client: pg.Client, table: Table, write: (value: unknown) => Promise<void>): Promise<number> {
  const columns = await copiedColumns(client, table);
  const count = await client.query<{ n: string }>(`select count(*)::text as n from ${qualified(table)}`);
  const rows = Number(count.rows[0]!.n);
  await write({ ...table, columns, rows } satisfies TableLine);
  const list = columns.map(quoteIdent).join(', ');
  await client.query(`declare backup_rows no scroll cursor for select row_to_json(r)::text as j from (select ${list} from ${qualified(table)}) r`);
  for (;;) {
    const batch = await client.query<{ j: string }>(`fetch ${FETCH_ROWS} from backup_rows`);
    for (const row of batch.rows) await write(row.j);
    if (batch.rows.length < FETCH_ROWS) break;
  }
  await client.query('close backup_rows');
  return rows;
}

/** Stored columns only: generated ones are computed again on restore. */
export async function copiedColumns(client: pg.ClientBase, table: Table): Promise<string[]> {
  const result = await client.query<{ attname: string }>(
    `select attname from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`,
    [qualified(table)]);
  return result.rows.map((r) => r.attname);
}

/** The tables of the data schemas, each after the tables its foreign keys point to, so a restore can load them in file order. */
export async function tablesInLoadOrder(client: pg.ClientBase): Promise<Table[]> {
  const tables = await client.query<Table & { key: string }>(
    `select n.nspname as schema, c.relname as table, n.nspname || '.' || c.relname as key
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = any($1::text[]) and c.relkind in ('r', 'p') and not c.relispartition
       and n.nspname || '.' || c.relname <> all($2::text[])
     order by n.nspname <> 'public', 1, 2`, [DATA_SCHEMAS, SCHEMA_JOURNALS]);
  const refs = await client.query<{ child: string; parent: string }>(
    `select chn.nspname || '.' || ch.relname as child, pan.nspname || '.' || pa.relname as parent from pg_constraint k
     join pg_class ch on ch.oid = k.conrelid join pg_namespace chn on chn.oid = ch.relnamespace
     join pg_class pa on pa.oid = k.confrelid join pg_namespace pan on pan.oid = pa.relnamespace
     where k.contype = 'f' and chn.nspname = any($1::text[]) and k.conrelid <> k.confrelid`, [DATA_SCHEMAS]);
  const byKey = new Map(tables.rows.map((t) => [t.key, { schema: t.schema, table: t.table }]));
  const parents = new Map(tables.rows.map((t) => [t.key, new Set<string>()]));
  for (const r of refs.rows) parents.get(r.child)?.add(r.parent);
  const ordered: Table[] = [];
  while (parents.size > 0) {
    const ready = [...parents].filter(([, ps]) => [...ps].every((p) => !parents.has(p))).map(([key]) => key);
    if (ready.length === 0) throw new Error(`Foreign keys form a cycle among ${[...parents.keys()].join(', ')}; cannot order a restore.`);
    for (const key of ready) {
      ordered.push(byKey.get(key)!);
      parents.delete(key);
    }
  }
  return ordered;
}

/** Hashes recorded by drizzle's migrator, oldest first; none in a database never migrated. */
export async function appliedMigrations(client: pg.ClientBase): Promise<string[]> {
  const exists = await client.query<{ t: string | null }>(`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!exists.rows[0]!.t) return [];
  const result = await client.query<{ hash: string }>('select hash from drizzle.__drizzle_migrations order by created_at, id');
  return result.rows.map((r) => r.hash);
}

/** graphile-worker's latest migration in this database; null when the job queue was never installed. */
export async function jobQueueMigration(client: pg.ClientBase): Promise<number | null> {
  const exists = await client.query<{ t: string | null }>(`select to_regclass('${JOB_QUEUE_SCHEMA}.migrations')::text as t`);
  if (!exists.rows[0]!.t) return null;
  const result = await client.query<{ id: number | null }>(`select max(id) as id from ${JOB_QUEUE_SCHEMA}.migrations`);
  return result.rows[0]!.id;
}
