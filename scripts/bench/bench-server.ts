// The product's server for the benches that time it under a failure (Redis gone, a mail server
// stalled, a huge amount): started as `npm start` starts it, over HTTP, on a temporary embedded
// PostgreSQL of its own (BENCH_DATABASE_URL: an empty database to use instead), with one sender.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@server/config.js';
import { connect, startEmbeddedPostgres, type Database } from '@server/db/client.js';
import { freePort } from '@server/lib/free-port.js';
import { hashPassword } from '@server/modules/auth/password.js';
import { startServer } from '@server/start.js';

export interface BenchServer {
  url: string;
  database: Database;
  sender: { email: string; password: string };
  close(): Promise<void>;
}

export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const pg = process.env.BENCH_DATABASE_URL ? null : await startEmbeddedPostgres(dir);
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? pg!.url;
  const port = await freePort();
  const server = await startServer(loadConfig({
    DATABASE_URL: databaseUrl, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent',
    PUBLIC_URL: `http://127.0.0.1:${port}`, TRUST_PROXY: 'true', MAIL_FROM: 'Bench <no-reply@example.test>', ...env,
  }));
  const database = connect(databaseUrl, 2);
  const sender = { email: 'bench.sender@example.test', password: 'Bench-sender-pass-9' };
  await database.pool.query(
    `insert into profiles (email, full_name, password_hash, email_verified_at, kyc_level) values ($1, 'Bench Sender', $2, now(), 3)`,
    [sender.email, await hashPassword(sender.password)]);
  return {
    url: `http://127.0.0.1:${port}`, database, sender,
    async close() {
      await server.close();
      await database.close();
      await pg?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Milliseconds `run` took. */
export async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** "median 12 ms, max 40 ms" of a list of times. */
export function spread(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`;
}
