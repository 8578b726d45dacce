import { loadConfigOrExit } from './config.js';
import { connect, startEmbeddedPostgres } from './db/client.js';
import { migrateDatabase } from './db/migrate.js';
import { seedReferenceData } from './db/seed.js';

// `npm run db:migrate`: bring the configured database to the current schema and seed it.
const config = loadConfigOrExit();
const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres(config.DATA_DIR);
const database = connect(config.DATABASE_URL ?? embedded!.url);
try {
  await migrateDatabase(database, config.MIGRATION_DATABASE_URL);
  await seedReferenceData(database.db);
  console.log('Database migrated and seeded.');
} finally {
  await database.close();
  await embedded?.stop();
}
