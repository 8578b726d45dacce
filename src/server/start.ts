import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { connect, startEmbeddedPostgres, type EmbeddedServer } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import { seedReferenceData } from './db/seed.js';
import { createLogger } from './logger.js';
import { ensureBootstrapAdmin, type BootstrapResult } from './modules/auth/bootstrap-admin.js';
import { newReadiness } from './modules/health/readiness.js';
import { resolveSessionSecret } from './session-secret.js';

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  admin: BootstrapResult;
  /** Settles, with why, when the process can no longer serve (its embedded PostgreSQL stopped under it). */
  fatal: Promise<string>;
  /**
   * Readiness answers 503 at once; SHUTDOWN_DELAY_MS later the server stops taking connections,
   * lets the requests in flight finish, then releases the database.
   */
  close(): Promise<void>;
}

/** Database up (embedded unless DATABASE_URL), migrated and seeded, then the app listening. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = createLogger(config);
  let embedded: EmbeddedServer | null = null;
  if (!config.DATABASE_URL) {
    logger.info({ dataDir: config.DATA_DIR }, 'starting embedded PostgreSQL');
    embedded = await startEmbeddedPostgres(config.DATA_DIR, logger);
  }
  const database = connect(config.DATABASE_URL ?? embedded!.url, 10, logger);
  const readiness = newReadiness();
  let app: FastifyInstance | null = null;
  try {
    await migrateDatabase(database, config.MIGRATION_DATABASE_URL);
    await seedReferenceData(database.db);
    const admin = await ensureBootstrapAdmin(database.db, config);
    app = await buildApp({ config, database, logger, sessionSecret: resolveSessionSecret(config), readiness });
    const address = await listen(app, config);
    const running = app;
    return {
      app: running, address, admin,
      fatal: embedded ? embedded.lost.then((how) => `the embedded PostgreSQL stopped (${how})`) : new Promise<string>(() => {}),
      async close() {
        readiness.draining = true;
        await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DELAY_MS));
        await running.close();
        await database.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    // The app first: its job worker holds pooled connections, which the pool's end would wait for forever.
    await app?.close().catch(() => {});
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}

/** Listens where the configuration says; a port taken by another process is named as such. */
async function listen(app: FastifyInstance, config: Config): Promise<string> {
  try {
    return await app.listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new Error(`port ${config.PORT} on ${config.HOST} is already in use`, { cause: err });
    throw err;
  }
}
