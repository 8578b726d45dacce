import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { importListFiles, listUpload, sdnCsv, type SdnRow } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// What is left of the sanctions screening's stale lists and re-screening
// (docs/rules/screening.md#holds-and-alerts): transfers held only because required lists were
// stale are released once no required list is stale any more, whichever way (the list no longer
// required, a longer maximum age, the same list imported again, a new version); a re-screening that fails part way resumes
// where it stopped when retried, everyone screened exactly once more.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, sender] = await Promise.all([
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }),
    createUser(t, { role: 'manager', full_name: 'Mona Manager' }), createUser(t, { full_name: 'Awa Sender' }),
  ]);
});
afterAll(async () => { await t.close(); });

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (token: string, method: Method, url: string, payload?: object) => t.request({ method, url, token, ...(payload ? { payload } : {}) });

/** The upload, answered at once (202); its import (and the re-screening a new version queues) left to the worker. */
function postOfac(rows: SdnRow[]) {
  return t.request({ method: 'POST', url: '/api/screening/lists', token: admin.token, ...listUpload('ofac_sdn', { 'sdn.csv': sdnCsv(rows) }) });
}
/** The upload, then its import once the worker has done it. */
const importOfac = (rows: SdnRow[]) => importListFiles(t, admin.token, 'ofac_sdn', { 'sdn.csv': sdnCsv(rows) });

const LISTED: SdnRow[] = [
  { ent_num: 8101, name: 'ZOLOTAREV, Anatoliy Petrovich', type: 'individual', programs: ['RUSSIA-EO14024'] },
  { ent_num: 8102, name: 'BAKHTIYAROV, Rustam Ilkhamovich', type: 'individual', programs: ['SDGT'] },
];

let nextPhone = 300_000;
async function send(name: string) {
  const res = await call(sender.token, 'POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '100', currency: 'EUR',
    destination_details: { recipient_name: name, recipient_phone: `+24177${nextPhone++}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; on_hold?: boolean };
}
const staffView = async (id: string) => (await call(manager.token, 'GET', `/api/transfer-requests/${id}`)).json().data as { holds: { reason: string }[] };
const onHold = async (id: string) => (await call(sender.token, 'GET', `/api/transfer-requests/${id}`)).json().data.on_hold as boolean;
const process = (id: string) => call(manager.token, 'PATCH', `/api/transfer-requests/${id}`, { status: 'processing' });
const settings = (body: object) => call(admin.token, 'PUT', '/api/screening/lists/ofac_sdn', body);

/** The OFAC list's current version imported 37 hours ago: stale under the default 36 hours. */
async function makeStale() {
  await t.database.pool.query(`update screening_list_versions set imported_at = now() - interval '37 hours', confirmed_at = null
    where id = (select current_version_id from screening_sources where source = 'ofac_sdn')`);
  // Any settings write makes this process read the lists again at once.
  expect((await settings({ required: true, max_age_hours: 36 })).statusCode).toBe(200);
}

describe('transfers held because required lists were stale', () => {
  beforeAll(async () => {
    expect((await importOfac(LISTED)).outcome).toMatchObject({ state: 'done', unchanged: false });
  });

  it('are released when the admin marks the list not required: recipient screened, audited, the transfer moves on', async () => {
    await makeStale();
    const ordinary = await send('Aïcha Moussavou');
    const listed = await send('Anatoliy Petrovich Zolotarev');
    expect(ordinary.on_hold).toBe(true);
    expect((await staffView(ordinary.id)).holds.map((h) => h.reason)).toEqual(['stale_lists']);
    expect((await staffView(listed.id)).holds.map((h) => h.reason).sort()).toEqual(['screening', 'stale_lists']);

    const res = await settings({ required: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ required: false, stale: false });
    expect(await onHold(ordinary.id)).toBe(false);
    expect((await process(ordinary.id)).statusCode).toBe(200);
    // The listed recipient keeps its screening hold: only the stale lists' hold ended.
    expect((await staffView(listed.id)).holds.map((h) => h.reason)).toEqual(['screening']);
    expect((await process(listed.id)).json().code).toBe('compliance_hold');

    const released = await t.database.pool.query(`select released_by, release_note from compliance_holds where transfer_request_id = $1 and reason = 'stale_lists'`, [ordinary.id]);
    expect(released.rows).toEqual([{ released_by: null, release_note: expect.stringMatching(/fresh/) }]);
    const audit = (await call(admin.token, 'GET', '/api/audit?target_type=screening_list&target_id=ofac_sdn')).json().data;
    expect(audit[0]).toMatchObject({ action: 'screening_list.update', before: { required: true }, after: { required: false, holds_released: 2 } });
  });

  it('are released when the maximum age grows past the list\'s age, not while a required list is still stale', async () => {
    await makeStale();
    const transfer = await send('Jean-Baptiste Ndong');
    expect(transfer.on_hold).toBe(true);
    // Still 37 hours old against 36 allowed: stale, still held.
    expect((await settings({ max_age_hours: 36 })).json().data.stale).toBe(true);
    expect(await onHold(transfer.id)).toBe(true);
    expect((await settings({ max_age_hours: 48 })).json().data.stale).toBe(false);
    expect(await onHold(transfer.id)).toBe(false);
    expect((await send('Jean-Baptiste Ndong')).on_hold).toBeUndefined();
  });

  it('are released when the same list is imported again unchanged: the list is current, its age counts from then', async () => {
    await makeStale();
    const transfer = await send('Prisca Ondo');
    expect(transfer.on_hold).toBe(true);
    const again = await importOfac(LISTED);
    expect(again.outcome).toMatchObject({ state: 'done', unchanged: true });
    const ofac = (await call(admin.token, 'GET', '/api/screening/lists')).json().data.lists.find((l: { source: string }) => l.source === 'ofac_sdn');
    expect(ofac).toMatchObject({ stale: false, age_hours: 0 });
    expect(await onHold(transfer.id)).toBe(false);
    expect((await process(transfer.id)).statusCode).toBe(200);
    const audit = (await call(admin.token, 'GET', '/api/audit?target_type=screening_list&target_id=ofac_sdn')).json().data;
    expect(audit[0]).toMatchObject({ action: 'screening_list.import', after: { unchanged: true, holds_released: 1 } });
    expect((await send('Prisca Ondo')).on_hold).toBeUndefined();
  });

  it('are released once a fresh version is imported and everyone re-screened', async () => {
    await settings({ max_age_hours: 36 });
    await makeStale();
    const transfer = await send('Clarisse Mengue');
    expect(transfer.on_hold).toBe(true);
    expect((await importOfac([...LISTED, { ent_num: 8103, name: 'FRESH, Entry', type: 'individual' }])).outcome).toMatchObject({ state: 'done', unchanged: false });
    expect(await onHold(transfer.id)).toBe(false);
    expect((await process(transfer.id)).statusCode).toBe(200);
  });
});

describe('a re-screening that fails part way', () => {
  it('is retried from where it stopped: everyone screened exactly once more, its progress shown meanwhile', async () => {
    const db = t.database.pool;
    // 2,100 senders more: three batches of 1,000.
    await db.query(`insert into profiles (email, full_name, date_of_birth, country, kyc_level)
      select 'many-' || i || '@example.test', 'Ordinary Person ' || i, date '1985-01-01', 'GA', 1 from generate_series(1, 2100) i`);
    const ids = (await db.query<{ id: string }>(`select id from profiles where full_name is not null and closed_at is null order by id`)).rows.map((r) => r.id);
    // One listed sender in the first batch, one in the second.
    const [first, second] = [ids[10]!, ids[1_500]!];
    await db.query(`update profiles set full_name = 'Anatoliy Petrovich Zolotarev', date_of_birth = null where id = $1`, [first]);
    await db.query(`update profiles set full_name = 'Rustam Ilkhamovich Bakhtiyarov', date_of_birth = null where id = $1`, [second]);
    // A real fault: the second listed sender's alert cannot be written until the trigger is dropped.
    await db.query(`create function fail_alert() returns trigger language plpgsql as $$
      begin raise exception 'disk full (test fault)'; end $$`);
    await db.query(`create trigger fail_alert before insert on screening_alerts for each row
      when (new.profile_id = '${second}'::uuid) execute function fail_alert()`);
    // Every value of the job's progress, as written: it must never go back.
    await db.query(`create table rescreen_done_log (at serial, done int)`);
    await db.query(`create function log_done() returns trigger language plpgsql as $$
      begin insert into rescreen_done_log (done) values (new.done); return new; end $$`);
    await db.query(`create trigger log_done after update of done on screening_rescreens for each row execute function log_done()`);

    expect((await postOfac([...LISTED, { ent_num: 8104, name: 'SECOND, Version', type: 'individual' }])).statusCode).toBe(202);
    // The job fails in its second batch and waits for its retry.
    for (let i = 0; ; i++) {
      const { rows } = await db.query(`select attempts, locked_at from graphile_worker.jobs where task_identifier = 'screening_rescreen'`);
      if (rows[0]?.attempts >= 1 && rows[0]?.locked_at === null) break;
      if (i > 400) throw new Error('the re-screening did not fail');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const stopped = (await call(manager.token, 'GET', '/api/screening/rescreen')).json().data;
    expect(stopped).toMatchObject({ done: 1_000, alerts: 1, finished_at: null });
    expect(stopped.total).toBeGreaterThanOrEqual(2_100 + 3);

    await db.query(`drop trigger fail_alert on screening_alerts`);
    await db.query(`update graphile_worker._private_jobs set run_at = now() where task_id = (select id from graphile_worker._private_tasks where identifier = 'screening_rescreen')`);
    await t.jobsDone(20_000);
    const finished = (await call(manager.token, 'GET', '/api/screening/rescreen')).json().data;
    expect(finished).toMatchObject({ total: stopped.total, done: stopped.total, alerts: 2, finished_at: expect.any(String) });
    const done = (await db.query<{ done: number }>(`select done from rescreen_done_log order by at`)).rows.map((r) => r.done);
    // Never back to zero, each batch counted once: 1,000, then the rest from there.
    expect(done.every((d, i) => i === 0 || d > done[i - 1]!)).toBe(true);
    expect(done.at(-1)).toBe(stopped.total);
    const raised = await db.query(`select profile_id, count(*)::int as n from screening_alerts where trigger = 'rescreen' and subject = 'sender' group by profile_id order by profile_id`);
    expect(raised.rows).toEqual([{ profile_id: first, n: 1 }, { profile_id: second, n: 1 }].sort((a, b) => (a.profile_id < b.profile_id ? -1 : 1)));
  });
});
