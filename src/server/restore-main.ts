import { existsSync } from 'node:fs';
import { loadConfigOrExit } from './config.js';
import { openCommandDatabase } from './db/backup-target.js';
import { restoreBackup } from './db/restore.js';

// `npm run db:restore -- FILE [--force]`: load a backup into the configured database.
const args = process.argv.slice(2);
// `npm run db:restore FILE --force` without `--` hands --force to npm, which passes it on this way.
const force = args.includes('--force') || process.env.npm_config_force === 'true';
const file = args.find((a) => !a.startsWith('--'));
try {
  if (!file) throw new Error('name the backup file: npm run db:restore -- backups/app-….jsonl.gz [--force]');
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const config = loadConfigOrExit();
  const database = await openCommandDatabase(config);
  try {
    if (database.appRunning) {
      throw new Error(`the app is running on DATA_DIR ${config.DATA_DIR}: stop it first, so nothing writes while its data is replaced`);
    }
    const summary = await restoreBackup(database.url, file, { force });
    const after = summary.migratedAfter > 0 ? `, then ${summary.migratedAfter} newer migrations applied` : '';
    console.log(`Restored ${file} into database "${database.name}": ${summary.tables} tables, ${summary.rows} rows${after}.`);
  } finally {
    await database.release();
  }
} catch (err) {
  console.error(`Restore failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
