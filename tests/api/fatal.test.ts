import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitWithin, killServer, spawnServer, type ServerProcess } from '../support/server-process.js';
import { createTestApp } from '../support/test-app.js';

// A server that cannot serve ends with a non-zero code and one line saying why, so its supervisor
// (systemd, a container runtime) starts it again, instead of hanging or answering 500 forever.

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => {});
});

const spawned = async (env: Record<string, string>): Promise<ServerProcess> => {
  const server = await spawnServer(env);
  cleanups.push(() => killServer(server));
  return server;
};

const lines = (text: string) => text.split('\n').filter((l) => l.trim() !== '');

describe('fatal conditions end the process', () => {
  it('a port already in use: exits non-zero with one line naming the port', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const { port } = taken.address() as AddressInfo;
    const db = await createTestApp({ env: { RUN_WORKER: 'false' } });
    cleanups.push(() => db.close());

    const server = await spawned({ PORT: String(port), DATABASE_URL: db.database.url, ADMIN_EMAIL: 'admin@example.test', ADMIN_PASSWORD: 'admin-password-1' });
    const ended = await exitWithin(server, 30_000);
    expect(ended?.code, server.stderr()).toBe(1);
    expect(lines(server.stderr())).toEqual([`Failed to start: port ${port} on 127.0.0.1 is already in use`]);
  }, 60_000);

  it('its embedded PostgreSQL killed with kill -9: exits non-zero with one line saying so', async () => {
    // Run as root, the embedded PostgreSQL runs as `postgres`, which must reach DATA_DIR.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mt-fatal-'));
    chmodSync(dataDir, 0o755);
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const server = await spawned({ DATA_DIR: dataDir, ADMIN_EMAIL: 'admin@example.test', ADMIN_PASSWORD: 'admin-password-1' });
    expect(server.url, server.stdout() + server.stderr()).not.toBe('');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    const postmaster = Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(postmaster, 'SIGKILL');
    const ended = await exitWithin(server, 15_000);
    expect(ended?.code, server.stderr()).toBe(1);
    expect(lines(server.stderr())).toEqual(['Stopping: the embedded PostgreSQL stopped (killed by SIGKILL).']);
  }, 90_000);
});
