import { randomBytes } from 'node:crypto';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import pg from 'pg';
import { inject } from 'vitest';
import { MIGRATIONS_DIR } from '@server/paths.js';
import { withDatabase } from './database-global-setup.js';

/**
 * A new database holding every migration before the first one whose SQL contains `marker`,
 * applied and recorded as drizzle applies them, for a test of what that migration does to the
 * rows already there. Resolves with its URL and a client on it (the caller ends the client).
 */
export async function databaseBeforeMigration(marker: string): Promise<{ url: string; client: pg.Client }> {
  const name = `${inject('testDatabasePrefix')}before_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = withDatabase(inject('adminDatabaseUrl'), name);
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR });
  const upTo = migrations.findIndex((m) => m.sql.some((s) => s.includes(marker)));
  if (upTo <= 0) throw new Error(`no migration after the first contains ${marker}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('create schema drizzle');
  await client.query('create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)');
  for (const m of migrations.slice(0, upTo)) {
    for (const statement of m.sql) await client.query(statement);
    await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [m.hash, m.folderMillis]);
  }
  return { url, client };
}
