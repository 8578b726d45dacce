import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { euCsv, importListFiles, listUpload, unXml } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A poisoned list cannot stop the service (docs/rules/screening.md#bounds): a name or word past
// the matcher's bounds is cut and reported, the import is durable work that the admin follows,
// and a version that fails to import never replaces the one screening now, after a restart too.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager] = await Promise.all([createUser(t, { role: 'admin' }), createUser(t, { role: 'manager' })]);
});
afterAll(async () => { await t.close(); });

/** A restarted server: another app on the same database, with a session signed by its own secret. */
async function restart(): Promise<{ app: TestApp; token: string }> {
  const app = await createTestApp({ sharing: t });
  return { app, token: (await app.tokens.createSession(manager.id, { mfaVerified: true })).token };
}
const search = async (app: TestApp, name: string, token = manager.token) => {
  const res = await app.request({ method: 'POST', url: '/api/screening/search', token, payload: { name } });
  expect(res.statusCode).toBe(200);
  return res.json().data.matches as { list_id: string; name: string; score: number }[];
};

describe('a UN list whose first name is one 16,500-letter word', () => {
  // About 17 KB: the word, then an ordinary listed person.
  const giant = 'A'.repeat(16_500);
  const file = unXml([
    { dataid: 1, first: giant, second: 'KOROLENKO', list_type: 'Al-Qaida', reference: 'QDi.901' },
    { dataid: 2, first: 'HAMID', second: 'ABDULLAH', third: 'AL-ZUBAIDI', list_type: 'Al-Qaida', reference: 'QDi.902' },
  ], []);

  it('is answered at once and imported by the job with the name cut to 500 characters and reported; screening works, after a restart too', async () => {
    expect(file.length).toBeGreaterThan(16_500);
    const posted = await t.request({ method: 'POST', url: '/api/screening/lists', token: admin.token, ...listUpload('un', { 'consolidated.xml': file }) });
    expect(posted.statusCode).toBe(202);
    // Answered before the job has imported anything; the service answers meanwhile.
    const health = await t.request({ method: 'GET', url: '/api/health/live' });
    expect(health.statusCode).toBe(200);
    await t.jobsDone();
    const outcome = (await t.request({ method: 'GET', url: `/api/screening/lists/imports/${posted.json().data.id}`, token: admin.token })).json().data;
    expect(outcome).toMatchObject({ state: 'done', entries_read: 2, names_cut: 1, unchanged: false, error: null });

    const { rows } = await t.database.pool.query<{ longest: number }>(
      `select max(length(n)) as longest from screening_list_entries e, jsonb_array_elements_text(e.names) n where e.version_id = $1`, [outcome.version_id]);
    expect(rows[0]!.longest).toBe(500);
    expect((await search(t, 'Hamid Abdullah al-Zubaidi'))[0]).toMatchObject({ list_id: 'QDi.902' });

    // A restarted server builds its index from the stored version and answers as quickly.
    const restarted = await restart();
    try {
      expect((await search(restarted.app, 'Hamid Abdullah Zubaidi', restarted.token))[0]).toMatchObject({ list_id: 'QDi.902' });
    } finally {
      await restarted.app.close();
    }
  });

  it('the audit row of the import says how many names were cut', async () => {
    const { rows } = await t.database.pool.query(`select after from audit_log where action = 'screening_list.import' and target_id = 'un' order by id desc limit 1`);
    expect(rows[0].after).toMatchObject({ entries: 2, names_cut: 1 });
  });
});

describe('a version that fails to import', () => {
  const good = euCsv([{ id: 501, person: true, programme: 'UKR', names: [{ whole: 'Arkady Semyonovich Volkov' }] }]);

  it('leaves the last good version screening, in this process and after a restart', async () => {
    expect((await importListFiles(t, admin.token, 'eu', { 'eu.csv': good })).outcome).toMatchObject({ state: 'done' });
    const current = (await t.request({ method: 'GET', url: '/api/screening/lists', token: manager.token })).json().data.lists.find((l: { source: string }) => l.source === 'eu').current;

    // A new file whose last row is not the list's format: read, then refused whole.
    const bad = euCsv([
      { id: 502, person: true, programme: 'UKR', names: [{ whole: 'Bogdan Ostapovich Ryabov' }] },
      { id: 503, person: true, programme: 'UKR', names: [{ whole: 'Second Person' }] },
    ]).replace(/;503;/g, ';not-a-number;');
    const { posted, outcome } = await importListFiles(t, admin.token, 'eu', { 'eu.csv': bad });
    expect(posted.statusCode).toBe(202);
    expect(outcome).toMatchObject({ state: 'failed', version_id: null, error: { code: 'list_format_invalid', file: 'eu.csv' } });
    expect(outcome!.error!.message).toMatch(/^eu\.csv, line \d+: .*Nothing was imported\./);

    const after = (await t.request({ method: 'GET', url: '/api/screening/lists', token: manager.token })).json().data.lists.find((l: { source: string }) => l.source === 'eu').current;
    expect(after).toEqual(current);
    const restarted = await restart();
    try {
      expect((await search(restarted.app, 'Arkady Volkov', restarted.token))[0]).toMatchObject({ list_id: '501' });
      expect((await search(restarted.app, 'Bogdan Ryabov', restarted.token)).filter((m) => m.list_id === '502')).toEqual([]);
    } finally {
      await restarted.app.close();
    }
  });

  it('is followed by the admin only: a manager cannot read an import, and an unknown one is 404', async () => {
    const { posted } = await importListFiles(t, admin.token, 'eu', { 'eu.csv': good });
    const id = posted.json().data.id;
    expect((await t.request({ method: 'GET', url: `/api/screening/lists/imports/${id}`, token: manager.token })).statusCode).toBe(403);
    const unknown = await t.request({ method: 'GET', url: '/api/screening/lists/imports/00000000-0000-4000-8000-000000000000', token: admin.token });
    expect(unknown.statusCode).toBe(404);
  });

  it('a job run again after it ended changes nothing', async () => {
    const { posted, outcome } = await importListFiles(t, admin.token, 'eu', { 'eu.csv': euCsv([{ id: 504, person: true, programme: 'UKR', names: [{ whole: 'Third Person' }] }]) });
    expect(outcome).toMatchObject({ state: 'done' });
    const versions = async () => Number((await t.database.pool.query(`select count(*) as n from screening_list_versions where source = 'eu'`)).rows[0].n);
    const before = await versions();
    await t.database.pool.query(`select graphile_worker.add_job('screening_import', json_build_object('import_id', $1::text))`, [posted.json().data.id]);
    await t.jobsDone();
    expect(await versions()).toBe(before);
  });
});

describe('a new version and the re-screening it needs', () => {
  it('are written together: when the re-screening cannot be queued, no version is made; once it can, both are', async () => {
    const db = t.database.pool;
    const current = async () => (await db.query(`select current_version_id from screening_sources where source = 'eu'`)).rows[0].current_version_id as string;
    const before = await current();
    await db.query(`create function fail_rescreen() returns trigger language plpgsql as $$ begin raise exception 'disk full (test fault)'; end $$`);
    await db.query(`create trigger fail_rescreen before insert on screening_rescreens for each row execute function fail_rescreen()`);
    const posted = await t.request({
      method: 'POST', url: '/api/screening/lists', token: admin.token,
      ...listUpload('eu', { 'eu.csv': euCsv([{ id: 601, person: true, programme: 'UKR', names: [{ whole: 'Fourth Person' }] }]) }),
    });
    expect(posted.statusCode).toBe(202);
    // The job fails and waits for its retry.
    await expect.poll(async () => (await db.query(`select attempts, locked_at is null as unlocked from graphile_worker.jobs where task_identifier = 'screening_import'`)).rows,
      { timeout: 20_000, interval: 100 }).toEqual([{ attempts: 1, unlocked: true }]);
    expect(await current()).toBe(before);
    const state = (await t.request({ method: 'GET', url: `/api/screening/lists/imports/${posted.json().data.id}`, token: admin.token })).json().data;
    expect(state).toMatchObject({ state: 'queued', version_id: null });

    await db.query(`drop trigger fail_rescreen on screening_rescreens`);
    await db.query(`update graphile_worker._private_jobs set run_at = now() where task_id = (select id from graphile_worker._private_tasks where identifier = 'screening_import')`);
    await t.jobsDone(20_000);
    const done = (await t.request({ method: 'GET', url: `/api/screening/lists/imports/${posted.json().data.id}`, token: admin.token })).json().data;
    expect(done).toMatchObject({ state: 'done', unchanged: false });
    expect(await current()).toBe(done.version_id);
    const rescreens = await db.query(`select count(*)::int as n from screening_rescreens where version_ids ? $1`, [done.version_id]);
    expect(rescreens.rows[0].n).toBe(1);
  }, 60_000);
});
