// Backups: a database with senders, transfers, their history and proofs goes to a file and comes
// back into an empty database with every row of every table the same.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeBackup } from '@server/db/backup.js';
import { restoreBackup, RestoreRefusedError } from '@server/db/restore.js';
import { auditLog, paymentProofs, savedRecipients, transferStatusHistory } from '@server/db/schema.js';
import { withDatabase } from '../support/database-global-setup.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

let t: TestApp;
let dir: string;
let backupFile: string;
/** What the backup holds: the source's contents read as it was written. */
let backedUp: Awaited<ReturnType<typeof contents>>;
const created: string[] = [];

/** A database for this file's restores; the global teardown drops this run's leftovers. */
async function newDatabase(template?: string): Promise<string> {
  const name = `${inject('testDatabasePrefix')}restore_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  created.push(name);
  return withDatabase(inject('adminDatabaseUrl'), name);
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Every table of the app and of its job queue with its row count and a digest of all its rows
 * (public's by their name, the queue's by schema.name), and every sequence's position.
 */
async function contents(url: string) {
  const tables = await query<{ name: string }>(url,
    `select case when schemaname = 'public' then tablename else schemaname || '.' || tablename end as name from pg_tables
     where schemaname in ('public', 'graphile_worker') and tablename <> 'migrations' order by 1`);
  const out: Record<string, { rows: number; md5: string | null }> = {};
  for (const { name } of tables) {
    const [row] = await query<{ rows: number; md5: string | null }>(url,
      `select count(*)::int as rows, md5(string_agg(t::text, ',' order by t::text)) as md5 from ${name.includes('.') ? name : `public."${name}"`} t`);
    out[name] = row!;
  }
  const sequences = await query<{ sequencename: string; last_value: string | null }>(url,
    `select schemaname || '.' || sequencename as sequencename, last_value::text from pg_sequences where schemaname in ('public', 'graphile_worker') order by 1`);
  const migrations = await query<{ hash: string }>(url, 'select hash from drizzle.__drizzle_migrations order by id');
  return { tables: out, sequences, migrations: migrations.map((m) => m.hash) };
}

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(path.join(os.tmpdir(), 'mt-backup-test-'));
  backupFile = path.join(dir, 'app.jsonl.gz');
  const db = t.database.db;
  const sender = await createUser(t, { full_name: 'Aïcha "Ndong"\nMba', address: 'Quartier Louis, BP 1\\2' });
  const staff = await createUser(t, { role: 'admin' });
  const pending = await createTransfer(t, sender.id, { amount: '123.45' });
  const completed = await createTransfer(t, sender.id, { direction: 'XAF_EUR', amount: '250000', status: 'completed', provider_txn_id: 'OP-778' });
  await createTransfer(t, sender.id, { direction: 'EUR_RWF', amount: '1999.99', status: 'rejected' });
  await db.insert(transferStatusHistory).values([
    { transfer_request_id: completed.id, from_status: 'pending', to_status: 'processing', actor_profile_id: staff.id, actor_role: 'admin' },
    { transfer_request_id: completed.id, from_status: 'processing', to_status: 'completed', actor_profile_id: staff.id, actor_role: 'admin', note: 'paid, ref 42 — «ok»' },
  ]);
  // Every byte value, so an encoding slip anywhere would show.
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  await db.insert(paymentProofs).values({ transfer_request_id: pending.id, profile_id: sender.id, filename: 'reçu.png', mime_type: 'image/png', size: bytes.length, sha256: 'x'.repeat(64), data: bytes });
  await db.insert(savedRecipients).values({ profile_id: sender.id, channel: 'bank_france', recipient_name: 'Jean Dupont', iban: 'FR7630006000011234567890189' });
  // The fixtures' own jobs (their e-mails) done first: the queue holds only the job below while it is copied.
  await t.jobsDone();
  // A job waiting in the queue (an e-mail due tomorrow): the queue's rows are data too.
  await t.database.pool.query(`select graphile_worker.add_job('mail', '{"mail_id": "later"}'::json, run_at => now() + interval '1 day')`);
  await db.insert(auditLog).values({ actor_profile_id: staff.id, action: 'status', target_type: 'transfer', target_id: completed.id, before: { status: 'pending' }, after: { status: 'completed', amounts: [1.5, '2.50'] } });
});

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

describe('backup and restore', () => {
  it('round-trips every row of every table into an empty database', async () => {
    const summary = await writeBackup(t.database.url, backupFile);
    expect(statSync(backupFile).size).toBeGreaterThan(0);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const before = await contents(t.database.url);
    backedUp = before;
    expect(summary.rows).toBe(Object.values(before.tables).reduce((n, x) => n + x.rows, 0));
    // The fixture really filled the tables the comparison is about.
    for (const table of ['profiles', 'sessions', 'transfer_requests', 'transactions', 'transfer_status_history', 'payment_proofs', 'saved_recipients', 'audit_log', 'fee_tiers', 'rates',
      'graphile_worker._private_jobs', 'graphile_worker._private_tasks']) {
      expect(before.tables[table]?.rows, table).toBeGreaterThan(0);
    }

    const empty = await newDatabase();
    const restored = await restoreBackup(empty, backupFile);
    expect(restored).toEqual({ tables: Object.keys(before.tables).length, rows: summary.rows, migratedAfter: 0 });
    expect(await contents(empty)).toEqual(before);

    // Sequences carry on past the restored rows instead of colliding with them.
    const [next] = await query<{ id: string }>(empty, `insert into audit_log (action, target_type) values ('test', 'test') returning id::text`);
    expect(Number(next!.id)).toBeGreaterThan(Number(before.sequences.find((s) => s.sequencename === 'public.audit_log_id_seq')!.last_value));
  });

  it('refuses a database that holds rows unless forced, and then replaces them', async () => {
    // A migrated and seeded database: it holds fee tiers and rates but none of the backup's senders.
    const target = await newDatabase(inject('templateDatabase'));
    const seeded = await contents(target);
    const refusal = restoreBackup(target, backupFile);
    await expect(refusal).rejects.toThrow(RestoreRefusedError);
    await expect(refusal).rejects.toThrow(/already holds data \(rows in .*fee_tiers.*\).*--force.*Nothing was changed/);
    expect(await contents(target)).toEqual(seeded);

    // Compared with what the backup holds, not with the source as it is now: the source's worker
    // goes on after the backup was written (in one run its job queue's sequence moved by two).
    await restoreBackup(target, backupFile, { force: true });
    expect(await contents(target)).toEqual(backedUp);
  }, 90_000);

  it('leaves the database untouched when the file is cut short or is not a backup', async () => {
    const target = await newDatabase();
    const cut = path.join(dir, 'cut.jsonl.gz');
    // The header and part of the first table, as a full disk during the backup would leave it.
    const lines = gunzipSync(readFileSync(backupFile)).toString().split('\n');
    writeFileSync(cut, gzipSync(lines.slice(0, 4).join('\n')));
    await expect(restoreBackup(target, cut)).rejects.toThrow(/ends early.*incomplete/);
    expect(await query(target, `select 1 from pg_tables where schemaname = 'public'`)).toEqual([]);

    const junk = path.join(dir, 'junk.gz');
    writeFileSync(junk, 'not a backup');
    await expect(restoreBackup(target, junk)).rejects.toThrow(/is not a backup made by `npm run db:backup`/);
  });

  it('still loads a file of format 1, which held the app\'s tables only', async () => {
    // The format-1 file of the same database: no job queue, tables and sequences named without schema.
    const v1 = path.join(dir, 'v1.jsonl.gz');
    const out: string[] = [];
    let skip = 0;
    let tables = 0;
    let rows = 0;
    for (const line of gunzipSync(readFileSync(backupFile)).toString().trimEnd().split('\n')) {
      if (skip > 0) { skip -= 1; continue; }
      const item = JSON.parse(line) as Record<string, unknown>;
      if (item.format) {
        const { job_queue_migration: _queue, ...header } = item;
        out.push(JSON.stringify({ ...header, version: 1 }));
      } else if (item.table !== undefined) {
        const { schema, ...table } = item as { schema: string; rows: number };
        if (schema !== 'public') { skip = table.rows; continue; }
        tables += 1;
        rows += table.rows;
        out.push(JSON.stringify(table));
      } else if (item.sequences) {
        const sequences = (item.sequences as Array<{ schema: string; name: string; value: string | null }>)
          .filter((q) => q.schema === 'public').map(({ name, value }) => ({ name, value }));
        out.push(JSON.stringify({ sequences }));
      } else if (item.end) {
        out.push(JSON.stringify({ end: true, tables, rows }));
      } else {
        out.push(line);
      }
    }
    writeFileSync(v1, gzipSync(`${out.join('\n')}\n`));
    const target = await newDatabase();
    expect(await restoreBackup(target, v1)).toMatchObject({ tables, rows });
    const publicOnly = (c: Awaited<ReturnType<typeof contents>>) =>
      Object.fromEntries(Object.entries(c.tables).filter(([name]) => !name.includes('.')));
    expect(publicOnly(await contents(target))).toEqual(publicOnly(await contents(t.database.url)));
  });

  it('is one instant of the database while the app keeps writing', async () => {
    // A writer commits pairs of rows in two tables; a backup that read the tables at different
    // instants would hold more rows of one than of the other.
    const writer = new pg.Client({ connectionString: t.database.url });
    await writer.connect();
    let writing = true;
    let pairs = 0;
    const loop = (async () => {
      while (writing && pairs < 5000) {
        await writer.query('begin');
        await writer.query(`insert into audit_log (action, target_type, target_id) values ('pair', 'test', $1)`, [String(pairs)]);
        await writer.query(`insert into mail_outbox ("to", subject, text, html) values ('a@example.test', $1, '', '')`, [`pair ${pairs}`]);
        await writer.query('commit');
        pairs += 1;
      }
    })();
    while (pairs < 20) await new Promise((r) => setTimeout(r, 5));
    const file = path.join(dir, 'busy.jsonl.gz');
    await writeBackup(t.database.url, file);
    writing = false;
    await loop;
    await writer.end();

    const target = await newDatabase();
    await restoreBackup(target, file);
    const [counts] = await query<{ audit: number; mail: number }>(target,
      `select (select count(*)::int from audit_log where action = 'pair') as audit, (select count(*)::int from mail_outbox where subject like 'pair %') as mail`);
    expect(counts!.audit).toBeGreaterThanOrEqual(20);
    expect(counts!.mail).toBe(counts!.audit);
  });
});
