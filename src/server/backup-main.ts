import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit } from './config.js';
import { openCommandDatabase } from './db/backup-target.js';
import { writeBackup } from './db/backup.js';

// `npm run db:backup [FILE]`: a consistent, compressed snapshot of the configured database.
try {
  const config = loadConfigOrExit();
  const database = await openCommandDatabase(config);
  try {
    const file = process.argv[2] ?? defaultFile(database.name);
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const summary = await writeBackup(database.url, file);
    const size = statSync(file).size;
    console.log(`Backup written: ${file} (${formatSize(size)}; ${summary.tables} tables, ${summary.rows} rows)`);
  } finally {
    await database.release();
  }
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exitCode = 1;
}

/** backups/<database>-<UTC time>.jsonl.gz, sortable by name. */
function defaultFile(database: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return path.join('backups', `${database}-${stamp}.jsonl.gz`);
}

/** A byte count with one decimal in KiB or MiB, rounded in whole tenths (no float formatting). */
function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [unit, size] = bytes < 1024 ** 2 ? ['KiB', 1024] : ['MiB', 1024 ** 2];
  const tenths = Math.round((bytes * 10) / size);
  return `${Math.floor(tenths / 10)}.${tenths % 10} ${unit}`;
}
