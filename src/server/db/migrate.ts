import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Logger, runMigrations as migrateJobQueue } from 'graphile-worker';
import { indexLockedJobs, planJobFunctionsOnce, registerJobKinds } from '../modules/jobs/service.js';
import { MIGRATIONS_DIR } from '../paths.js';
import { connect, type Database } from './client.js';

// An advisory lock lets several processes start at once against one database: one migrates,
// the others wait and then find nothing to do.
export const MIGRATION_LOCK = 726_354_001;

export async function runMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(database.db, { migrationsFolder: MIGRATIONS_DIR });
    // The job queue's own schema (graphile_worker), so jobs can be added before any worker ran.
    await migrateJobQueue({ pgPool: database.pool, logger: new Logger(() => () => {}) });
    await registerJobKinds(database.db);
    await indexLockedJobs(database.db);
    await planJobFunctionsOnce(database.db);
  } catch (err) {
    const code = (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
    if (code === '42501') {
      throw new Error('The database role may not change the schema. Set MIGRATION_DATABASE_URL to the schema owner\'s URL, '
        + 'or run `npm run db:migrate` with it first (README, "Database roles").', { cause: err });
    }
    throw err;
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

/**
 * Migrates through the schema owner's own connection when one is configured (MIGRATION_DATABASE_URL),
 * else through the app's: a least-privilege app role reads and writes rows but owns no tables.
 */
export async function migrateDatabase(database: Database, ownerUrl: string | undefined): Promise<void> {
  if (!ownerUrl) return runMigrations(database);
  // Two connections: one holds the advisory lock while the other migrates.
  const owner = connect(ownerUrl, 2);
  try {
    await runMigrations(owner);
  } finally {
    await owner.close();
  }
}
