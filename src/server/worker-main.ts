import { loadConfigOrExit } from './config.js';
import { connect } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import { createLogger } from './logger.js';
import { WORKER_PROCESS_JOBS, startWorker } from './worker.js';
import { configuredMailer } from './modules/mail/mailer.js';

// `npm run worker`: the background-job worker alone, for deployments that start their servers
// with RUN_WORKER=false (docs/decisions/014-durable-jobs.md). It needs the servers' DATABASE_URL:
// the embedded database belongs to the one process that started it.

/** Running jobs get 5 s to end at a stop (worker.ts), the pool a few more. */
const STOP_WITHIN_MS = 10_000;

async function main() {
  const config = loadConfigOrExit();
  if (!config.DATABASE_URL) {
    console.error('npm run worker needs DATABASE_URL (the database the servers use).');
    process.exit(1);
  }
  const logger = createLogger(config);
  // Its workers and the connection listening for new jobs.
  const database = connect(config.DATABASE_URL, WORKER_PROCESS_JOBS + 1, logger);
  await migrateDatabase(database, config.MIGRATION_DATABASE_URL);
  const worker = await startWorker({
    config, pool: database.pool, db: database.db, mailer: configuredMailer(config, database.db, logger), log: logger, concurrency: WORKER_PROCESS_JOBS,
  });
  logger.info({ node: process.versions.node }, 'job worker started');

  let stopping = false;
  const stop = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'job worker stopping');
    // Ends whatever the database does meanwhile: a supervisor waits for the exit to start another.
    setTimeout(() => process.exit(1), STOP_WITHIN_MS).unref();
    try {
      await worker.stop();
      await database.close();
      process.exit(code);
    } catch (err) {
      logger.error({ err }, 'job worker shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM', 0));
  process.on('SIGINT', () => void stop('SIGINT', 0));
  // A process whose job worker died takes no more jobs: it ends with an error, so that its
  // supervisor starts it again (a server reports it on /api/health/ready instead).
  void worker.died.then(() => stop('a job worker died', 1));
}

main().catch((err) => {
  console.error('Failed to start the worker:', err instanceof Error ? err.message : err);
  process.exit(1);
});
