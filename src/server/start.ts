import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { connect, startEmbeddedPostgres, type EmbeddedServer } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import { seedReferenceData } from './db/seed.js';
import { createLogger } from './logger.js';
import { ensureBootstrapAdmin, type BootstrapResult } from './modules/auth/bootstrap-admin.js';
import { resolveSessionSecret } from './session-secret.js';

export interface RunningServer {
  app: FastifyInstance;
  address: string;
  admin: BootstrapResult;
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
  try {
    await migrateDatabase(database, config.MIGRATION_DATABASE_URL);
    await seedReferenceData(database.db);
    const admin = await ensureBootstrapAdmin(database.db, config);
    const app = await buildApp({ config, database, logger, sessionSecret: resolveSessionSecret(config) });
    const address = await app.listen({ port: config.PORT, host: config.HOST });
    return {
      app, address, admin,
      // Stop taking requests and let those in flight finish, then release the database.
      async close() {
        await app.close();
        await database.close();
        await embedded?.stop();
      },
    };
  } catch (err) {
    await database.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    throw err;
  }
}
