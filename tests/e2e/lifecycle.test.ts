import { once } from 'node:events';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBuiltServer } from './support/server.js';

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
});
