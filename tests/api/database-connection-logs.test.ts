import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Database } from '@server/db/client.js';
import { createLogger } from '@server/logger.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A connection the database drops (a restart, a failover, an administrator) is logged and the
// process goes on; the line says what PostgreSQL said, never the connection's own details.

const lines: string[] = [];
const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } });

let t: TestApp;
let database: Database;
beforeAll(async () => {
  t = await createTestApp();
  // The server's own logger, as `npm start` builds it, writing to memory.
  database = connect(t.database.url, 2, createLogger({ LOG_LEVEL: 'info' }, sink));
});
afterAll(async () => {
  await database?.close();
  await t?.close();
});

describe('a database connection lost while idle', () => {
  it("is logged with PostgreSQL's message and code, not the connection's cancel key or host; the pool goes on", async () => {
    const { rows: [own] } = await database.pool.query<{ pid: number }>('select pg_backend_pid() as pid');
    await t.database.pool.query('select pg_terminate_backend($1)', [own!.pid]);
    await expect.poll(() => lines.find((l) => l.includes('idle database connection lost')), { timeout: 10_000 }).toBeDefined();
    const line = JSON.parse(lines.find((l) => l.includes('idle database connection lost'))!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 40, err: 'terminating connection due to administrator command', code: '57P01' });
    for (const detail of ['secretKey', 'processID', 'connectionParameters', '127.0.0.1']) expect(lines.join('')).not.toContain(detail);
    expect((await database.pool.query('select 1 as ok')).rows).toEqual([{ ok: 1 }]);
  });
});
