import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connect, startEmbeddedPostgres, type EmbeddedServer } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { seedReferenceData } from '@server/db/seed.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
    /** Names of this run's databases start with it, so a run cleans up only its own. */
    testDatabasePrefix: string;
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL server for the run: the embedded one by default, or TEST_DATABASE_URL's when
 * TEST_DB_TARGET=external. A template database is migrated and seeded once; every test file
 * clones it (fast in PostgreSQL) and so starts from a fresh, known state.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedServer | null = null;
  let tmpDir: string | null = null;
  let adminUrl: string;
  if (process.env.TEST_DB_TARGET === 'external') {
    if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DB_TARGET=external needs TEST_DATABASE_URL');
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    tmpDir = mkdtempSync(path.join(os.tmpdir(), 'mt-test-pg-'));
    embedded = await startEmbeddedPostgres(tmpDir);
    adminUrl = embedded.url;
  }
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const template = `mt_template_${runId}`;
  // Runs may share one server (TEST_DATABASE_URL): each drops only the databases it made.
  const prefix = `mt_test_${runId}_`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const templateUrl = withDatabase(adminUrl, template);
  const database = connect(templateUrl, 2);
  await runMigrations(database);
  await seedReferenceData(database.db);
  await database.close();

  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('templateDatabase', template);
  project.provide('testDatabasePrefix', prefix);
  console.log(`API tests on PostgreSQL: ${embedded ? 'embedded' : 'TEST_DATABASE_URL'}`);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1) or datname = $2`, [prefix, template]);
    for (const { datname } of leftovers.rows) await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.end();
    await embedded?.stop();
    if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
