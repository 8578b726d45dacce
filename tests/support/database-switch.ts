import pg from 'pg';
import { inject } from 'vitest';

/**
 * Refuses, then allows again, new connections to a test's database, and ends those open:
 * PostgreSQL gone for every process using it. Connections are allowed again at `cleanups`.
 */
export async function databaseSwitch(databaseUrl: string, cleanups: Array<() => Promise<unknown> | void>) {
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  const name = new URL(databaseUrl).pathname.slice(1);
  const allow = (on: boolean) => admin.query(`alter database ${name} allow_connections ${on}`);
  cleanups.push(async () => {
    await allow(true);
    await admin.end();
  });
  return {
    async down() {
      await allow(false);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    },
    up: () => allow(true),
  };
}
