import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedPostgres } from './client.js';
import { isAlive } from './stale-postmaster.js';

/** The database a backup or restore command works on. */
export interface CommandDatabase {
  url: string;
  /** Its name, for the default backup file name. */
  name: string;
  /** True when the app's own embedded PostgreSQL was found running on DATA_DIR. */
  appRunning: boolean;
  /** Stops the embedded server if this command started it. */
  release(): Promise<void>;
}

/**
 * DATABASE_URL's database (through the schema owner's URL when one is set: it may read and
 * replace every table), else the embedded one under DATA_DIR: the running app's server when there
 * is one, since a second server cannot open the same data folder, or one started for this command.
 */
export async function openCommandDatabase(config: Config): Promise<CommandDatabase> {
  const external = config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL;
  if (external) return { url: external, name: databaseName(external), appRunning: false, release: async () => {} };
  const running = runningEmbeddedUrl(config.DATA_DIR);
  if (running) return { url: running, name: databaseName(running), appRunning: true, release: async () => {} };
  const embedded = await startEmbeddedPostgres(config.DATA_DIR);
  return { url: embedded.url, name: databaseName(embedded.url), appRunning: false, release: () => embedded.stop() };
}

/**
 * The URL of the embedded PostgreSQL already serving DATA_DIR, or null. postmaster.pid holds the
 * server's pid on its first line and its port on the fourth; the password is the one
 * startEmbeddedPostgres keeps beside the data.
 */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const root = path.resolve(dataDir);
  let lines: string[];
  try {
    lines = readFileSync(path.join(root, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0 || !isAlive(pid)) return null;
  const password = readFileSync(path.join(root, 'postgres-password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/app`;
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
}
