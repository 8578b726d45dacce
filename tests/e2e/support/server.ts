import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@server/lib/free-port.js';

export interface E2eServer {
  url: string;
  dataDir: string;
  output: () => string;
  /** SIGTERM, as a process manager would; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGTERM but keep DATA_DIR for inspection; removeData() afterwards. */
  stopKeepingData(): Promise<number | null>;
  /** SIGKILL, as a crash or `kill -9` would: nothing is cleaned up, DATA_DIR stays. */
  kill(): Promise<void>;
  removeData(): void;
}

/**
 * Starts the BUILT server (`npm run build` first) as `npm start` would, on a fresh embedded
 * PostgreSQL in a temporary DATA_DIR (or on `dataDir`, to start again on the same data), and waits
 * until it answers. A fresh one starts on a copy of this build's migrated template.
 */
export async function startBuiltServer(env: Record<string, string> = {}, opts: { dataDir?: string } = {}): Promise<E2eServer> {
  if (opts.dataDir || 'ADMIN_EMAIL' in env || 'ADMIN_PASSWORD' in env) return spawnBuiltServer(env, opts.dataDir);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mt-e2e-'));
  const copied = spawnSync('cp', ['-a', `${await templateDataDir()}/.`, dataDir], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`copying the e2e data template failed: ${copied.stderr}`);
  return spawnBuiltServer(env, dataDir);
}

/**
 * A DATA_DIR this build has already initialised, migrated and seeded (its PostgreSQL stopped
 * cleanly), made once and copied for each fresh server: initdb and the migrations are most of a
 * first start. Keyed by the build's stamp, so a new build makes a new one; servers given their own
 * bootstrap admin start from nothing, as a first start does. Files running at once make it once.
 */
async function templateDataDir(): Promise<string> {
  const stamp = createHash('sha1').update(readFileSync('dist/.build-stamp')).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `mt-e2e-template-${stamp}`);
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(dir)) return dir;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A maker that died leaves its lock: past two minutes it is taken over.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (existsSync(dir)) return dir;
    const server = await spawnBuiltServer({});
    if ((await server.stopKeepingData()) !== 0) throw new Error(`the e2e data template's server did not stop cleanly:\n${server.output()}`);
    renameSync(server.dataDir, dir);
    // Earlier builds' templates, left by earlier runs (an hour old: another checkout's run may be copying a newer one).
    for (const name of readdirSync(os.tmpdir())) {
      const other = path.join(os.tmpdir(), name);
      const old = Date.now() - (statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 3_600_000;
      if (name.startsWith('mt-e2e-template-') && other !== dir && !name.endsWith('.lock') && old) rmSync(other, { recursive: true, force: true });
    }
    return dir;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function spawnBuiltServer(env: Record<string, string>, givenDataDir?: string): Promise<E2eServer> {
  const port = await freePort();
  const dataDir = givenDataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mt-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'production', LOG_LEVEL: 'warn', DOCUMENT_KEY: 'e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0e2e0',
      PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: url,
      ADMIN_EMAIL: 'admin@example.test', ADMIN_PASSWORD: 'Bootstrap-Staff-Key-1', SUPPORT_EMAIL: 'help@example.test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => { log += d.toString(); });
  child.stderr?.on('data', (d: Buffer) => { log += d.toString(); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // Two minutes: a busy machine (several test files and their databases starting at once) can take one.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      // Not left running with its database: asked to stop (it stops its PostgreSQL), killed if it will not,
      // and its data removed unless the caller gave the folder.
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 15_000))]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
      if (!givenDataDir) rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`server did not start within 2 minutes:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stopKeepingData = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  const removeData = () => rmSync(dataDir, { recursive: true, force: true });
  return {
    url,
    dataDir,
    output: () => log,
    stopKeepingData,
    removeData,
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      const code = await stopKeepingData();
      removeData();
      return code;
    },
  };
}
