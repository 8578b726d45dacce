import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { altCsv, sdnCsv } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The sanctions lists fetched from their configured URLs on a schedule
// (docs/rules/screening.md#lists-in-the-product): a real HTTP server on loopback serves OFAC's
// files; the job imports them as an upload would.

const SDN = sdnCsv([
  { ent_num: 7001, name: 'KOVALENKO, Dmitri Arkadyevich', type: 'individual', programs: ['UKRAINE-EO13660'] },
  { ent_num: 7002, name: 'NORTHWIND SHIPPING LLC', programs: ['SDGT'] },
]);
const ALT = altCsv([{ ent_num: 7001, alt_num: 1, name: 'KOWALENKO, Dmitrij' }]);

let status = 200;
const asked: string[] = [];
/** The server's log lines: a URL may carry a key, which never reaches them. */
const logLines: string[] = [];
const KEY = 'k3y-9f8e7d6c5b4a';
let server: Server;
let base: string;
let t: TestApp;
let manager: TestUser;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    asked.push(url.pathname);
    if (url.searchParams.get('key') !== KEY) { res.writeHead(403).end(); return; }
    if (status === 413) {
      // A file announced over the 200 MB a list file may weigh: refused before its body is read.
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': String(200_000_001) });
      res.write(SDN);
      setTimeout(() => res.destroy(), 50);
      return;
    }
    if (status !== 200) { res.writeHead(status).end('unavailable'); return; }
    if (url.pathname === '/ofac/sdn.csv') { res.writeHead(200, { 'content-type': 'text/csv' }).end(SDN); return; }
    if (url.pathname === '/ofac/alt.csv') { res.writeHead(200, { 'content-type': 'text/csv' }).end(ALT); return; }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({
    env: { SCREENING_OFAC_SDN_URL: `${base}/ofac/sdn.csv?key=${KEY}`, SCREENING_OFAC_ALT_URL: `${base}/ofac/alt.csv?key=${KEY}` },
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
  });
  manager = await createUser(t, { role: 'manager' });
});
afterAll(async () => {
  await t.close();
  server.close();
});

const versions = async () => (await t.database.pool.query<{ id: string; entries: number; names: number; imported_by: string | null }>(
  `select id, entries, names, imported_by from screening_list_versions where source = 'ofac_sdn' order by imported_at`)).rows;
const runFetch = () => t.database.pool.query(`select graphile_worker.add_job('screening_fetch', '{}'::json, job_key := 'screening_fetch')`);

describe('the scheduled fetch of the sanctions lists', () => {
  it('imports OFAC sdn.csv and alt.csv from their URLs as a new version, by the system, searchable at once', async () => {
    await runFetch();
    await t.jobsDone(30_000);
    expect(asked.sort()).toEqual(['/ofac/alt.csv', '/ofac/sdn.csv']);
    const rows = await versions();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ entries: 2, names: 3, imported_by: null });
    const overview = (await t.request({ method: 'GET', url: '/api/screening/lists', token: manager.token })).json().data;
    expect(overview.screening_active).toBe(true);
    expect(overview.lists.find((l: { source: string }) => l.source === 'ofac_sdn').current).toMatchObject({ id: rows[0]!.id, entries: 2 });
    // The alias from alt.csv is found.
    const found = await t.request({ method: 'POST', url: '/api/screening/search', token: manager.token, payload: { name: 'Dmitrij Kowalenko' } });
    expect(found.json().data.matches[0]).toMatchObject({ list_id: '7001', source: 'ofac_sdn' });
    const audit = await t.database.pool.query(`select actor_profile_id, after from audit_log where action = 'screening_list.import' order by id`);
    expect(audit.rows).toHaveLength(1);
    expect(audit.rows[0].actor_profile_id).toBeNull();
  });

  it('makes no new version when the files did not change', async () => {
    const before = await versions();
    asked.length = 0;
    await runFetch();
    await t.jobsDone(30_000);
    expect(asked).toHaveLength(2);
    expect(await versions()).toEqual(before);
  });

  it('a server answering 500 leaves the current version and fails the job, to be retried', async () => {
    const before = await versions();
    status = 500;
    try {
      await runFetch();
      await expect.poll(async () => (await t.database.pool.query(
        `select attempts, max_attempts, last_error is not null as failed, run_at > now() as later, locked_at is null as unlocked from graphile_worker.jobs where task_identifier = 'screening_fetch'`,
      )).rows[0], { timeout: 20_000 }).toMatchObject({ attempts: 1, failed: true, later: true, unlocked: true });
      expect(await versions()).toEqual(before);
      // Logged with the list and the reason, never the URL and its key.
      expect(logLines.some((l) => l.includes('sanctions list fetch failed') && l.includes('ofac_sdn') && l.includes('HTTP 500'))).toBe(true);
      expect(logLines.filter((l) => l.includes(KEY) || l.includes('/ofac/'))).toEqual([]);
      const overview = (await t.request({ method: 'GET', url: '/api/screening/lists', token: manager.token })).json().data;
      expect(overview.lists.find((l: { source: string }) => l.source === 'ofac_sdn').current.id).toBe(before[0]!.id);
    } finally {
      status = 200;
    }
  });

  it('refuses a file over 200 MB, leaving the current version', async () => {
    const before = await versions();
    status = 413;
    try {
      logLines.length = 0;
      await runFetch();
      await expect.poll(() => logLines.some((l) => l.includes('sanctions list fetch failed') && l.includes('larger than 200 MB')), { timeout: 20_000 }).toBe(true);
      expect(await versions()).toEqual(before);
    } finally {
      status = 200;
    }
  });

  it('is scheduled only when a list URL is configured', async () => {
    const crons = async (app: TestApp) => (await app.database.pool.query<{ identifier: string }>(
      'select identifier from graphile_worker._private_known_crontabs order by identifier')).rows.map((r) => r.identifier);
    expect(await crons(t)).toContain('screening_fetch');
    const unset = await createTestApp();
    try {
      await expect.poll(() => crons(unset)).toContain('privacy_erasure');
      expect(await crons(unset)).not.toContain('screening_fetch');
    } finally {
      await unset.close();
    }
  });
});
