import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { startBuiltServer, type E2eServer } from './support/server.js';

const ADMIN = { email: 'crash-admin@example.test', password: 'Granite-Ferry-Lamp-9' };
const ADMIN_ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };

async function call<T>(url: string, method: string, urlPath: string, body?: unknown, token?: string): Promise<{ status: number; json: T }> {
  const res = await fetch(`${url}${urlPath}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as T };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie nobody reaped yet has stopped.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

const postmasterPid = (dataDir: string) => Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

/** Saves recipients from `writers` parallel loops until the server stops answering; returns the ids it acknowledged. */
function writeUntilDown(server: E2eServer, token: string, writers: number, onAck: (count: number) => void): Promise<string[]> {
  const acked: string[] = [];
  let next = 0;
  const loop = async () => {
    for (;;) {
      const n = next++;
      const body = { channel: 'airtel_gabon', recipient_name: `Crash ${n}`, recipient_phone: `+24177${String(n).padStart(6, '0')}` };
      try {
        const res = await call<{ data: { id: string } }>(server.url, 'POST', '/api/recipients', body, token);
        expect(res.status).toBe(201);
        acked.push(res.json.data.id);
        onAck(acked.length);
      } catch (err) {
        if (err instanceof TypeError) return; // the connection failed: the server is down
        throw err;
      }
    }
  };
  return Promise.all(Array.from({ length: writers }, loop)).then(() => acked);
}

describe('server lifecycle', () => {
  it('prints its address and the bootstrap admin on first start, and stops cleanly on SIGTERM', async () => {
    const server = await startBuiltServer({ ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
    expect(server.output()).toContain(`is running at ${server.url}`);
    expect(server.output()).toMatch(/Bootstrap admin: admin@example\.com \/ password: \S{12,}/);

    // A request in flight when SIGTERM arrives still gets its answer: its headers and half its
    // body are sent before the signal, the rest after it.
    const { port } = new URL(server.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    let response = '';
    socket.on('data', (d: Buffer) => { response += d.toString(); });
    const body = JSON.stringify({ direction: 'USD_XAF', amount: '100' });
    socket.write(`POST /api/quotes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 300));
    const pidFile = path.join(server.dataDir, 'postgres', 'postmaster.pid');
    expect(existsSync(pidFile)).toBe(true);
    const stopping = server.stopKeepingData();
    await new Promise((r) => setTimeout(r, 300));
    socket.write(body.slice(10));
    await once(socket, 'end');
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(response).toContain('"total":"104.50"');
    expect(await stopping).toBe(0);
    // The embedded PostgreSQL was shut down, not abandoned.
    expect(existsSync(pidFile)).toBe(false);
    server.removeData();
  });

  it('starts again after kill -9 during writes, with every acknowledged write kept, and never stops a process that is not its own', async () => {
    const first = await startBuiltServer(ADMIN_ENV);
    const { dataDir } = first;
    const bystander = spawn('sleep', ['600'], { stdio: 'ignore' });
    let orphan = 0;
    const servers: E2eServer[] = [first];
    try {
      const login = await call<{ token: string }>(first.url, 'POST', '/api/auth/login', ADMIN);
      expect(login.status).toBe(200);
      const { token } = login.json;
      // A staff session reaches nothing but its own account before two-step sign-in: enrolling verifies it.
      const setup = await call<{ secret: string }>(first.url, 'POST', '/api/auth/mfa/setup', { current_password: ADMIN.password }, token);
      const code = new TOTP({ secret: Secret.fromBase32(setup.json.secret) }).generate();
      expect((await call(first.url, 'POST', '/api/auth/mfa/enable', { code }, token)).status).toBe(200);

      // kill -9 while four writers are busy.
      let killing: Promise<void> | null = null;
      const acked = await writeUntilDown(first, token, 4, (count) => { if (count === 30) killing = first.kill(); });
      await killing;
      expect(acked.length).toBeGreaterThanOrEqual(30);
      // The embedded PostgreSQL outlived it, holding the data folder.
      orphan = postmasterPid(dataDir);
      expect(alive(orphan)).toBe(true);

      const second = await startBuiltServer(ADMIN_ENV, { dataDir });
      servers.push(second);
      expect(second.output()).toContain('is running at');
      expect(alive(orphan)).toBe(false);
      // Every write that was answered is there, and so is the session.
      const list = await call<{ data: Array<{ id: string }> }>(second.url, 'GET', '/api/recipients', undefined, token);
      expect(list.status).toBe(200);
      const saved = new Set(list.json.data.map((r) => r.id));
      expect(acked.filter((id) => !saved.has(id))).toEqual([]);

      // After a crash of the whole machine the lock file may name a process that has nothing to do
      // with PostgreSQL: it is left alone, and the service starts.
      expect(await second.stopKeepingData()).toBe(0);
      const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
      writeFileSync(pidFile, `${bystander.pid}\n${path.join(dataDir, 'postgres')}\n`);
      const third = await startBuiltServer(ADMIN_ENV, { dataDir });
      servers.push(third);
      expect(alive(bystander.pid!)).toBe(true);
      expect((await call<{ data: unknown[] }>(third.url, 'GET', '/api/recipients', undefined, token)).json.data).toHaveLength(saved.size);
    } finally {
      bystander.kill();
      for (const s of servers) await s.stopKeepingData();
      if (orphan && alive(orphan)) process.kill(orphan, 'SIGKILL');
      first.removeData();
    }
  });

  it('refuses to start a second copy on a DATA_DIR in use, saying so, and the first keeps working', async () => {
    const first = await startBuiltServer(ADMIN_ENV);
    try {
      const failure = await startBuiltServer(ADMIN_ENV, { dataDir: first.dataDir }).then(() => null, (err: Error) => err.message);
      expect(failure).toContain(`Failed to start: ${first.dataDir} is in use by another running copy of this service`);
      expect(failure).toContain('Stop that copy first, or give this one another DATA_DIR.');
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
      expect((await call(first.url, 'POST', '/api/auth/login', ADMIN)).status).toBe(200);
    } finally {
      await first.stop();
    }
  });

  it.runIf(process.getuid?.() === 0)('run as root, says plainly that a DATA_DIR under a folder only root can enter cannot work', async () => {
    const closed = mkdtempSync(path.join(os.tmpdir(), 'mt-e2e-closed-'));
    try {
      const failure = await startBuiltServer({}, { dataDir: path.join(closed, 'data') }).then(() => null, (err: Error) => err.message);
      expect(failure).toContain(`Failed to start: DATA_DIR ${closed}/data is inside ${closed} (mode 700), which other users cannot enter.`);
      expect(failure).toContain(`chmod o+x ${closed}`);
      expect(failure).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(closed, { recursive: true, force: true });
    }
  });
});
