import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
 * until it answers.
 */
export async function startBuiltServer(env: Record<string, string> = {}, opts: { dataDir?: string } = {}): Promise<E2eServer> {
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'mt-e2e-'));
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

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`server did not start within 60 s:\n${log}`);
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
