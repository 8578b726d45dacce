import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { importListFiles, sdnCsv } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// A transfer the checks before the write find something in is written with a `checking` hold,
// ended once the initiation's screening and monitoring have run on it (docs/decisions/035-compliance-holds.md):
// a process killed in between leaves the transfer held, never unscreened, and the scheduled job
// `compliance_checks` runs its checks once the hold is over a minute old.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, sender] = await Promise.all([
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }), createUser(t, { role: 'manager', full_name: 'Mona Manager' }),
    createUser(t, { full_name: 'Awa Sender' }),
  ]);
  // Every hold row ever written, as the statements write them (the initiation deletes its own once done).
  await t.database.pool.query(`create table seen_holds (transfer_request_id uuid, reason text);
    create function remember_hold() returns trigger language plpgsql as $$ begin
      insert into seen_holds values (new.transfer_request_id, new.reason); return null; end $$;
    create trigger remember_hold after insert on compliance_holds for each row execute function remember_hold()`);
  const { outcome } = await importListFiles(t, admin.token, 'ofac_sdn', {
    'sdn.csv': sdnCsv([{ ent_num: 9101, name: 'KAZANTSEV, Borislav Yevgenyevich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 14 Mar 1961.' }]),
  });
  expect(outcome).toMatchObject({ state: 'done' });
});
afterAll(async () => { await t.close(); });

const holdsOf = async (id: string) => (await t.database.pool.query<{ reason: string }>(
  'select reason from compliance_holds where transfer_request_id = $1 and released_at is null order by created_at', [id])).rows.map((r) => r.reason);
const startProcessing = (id: string) => t.request({ method: 'PATCH', url: `/api/transfer-requests/${id}`, token: manager.token, payload: { status: 'processing' } });
/** The state a process killed between the initiation's insert and its checks leaves: the transfer, held `checking` since `secondsAgo`. */
async function interrupted(recipientName: string, secondsAgo: number) {
  const transfer = await createTransfer(t, sender.id, { paid: true, recipient: { recipient_name: recipientName, recipient_phone: '+24177123456' } });
  await t.database.pool.query(`insert into compliance_holds (transfer_request_id, reason, created_at) values ($1, 'checking', now() - make_interval(secs => $2))`,
    [transfer.id, secondsAgo]);
  return transfer;
}
async function runScheduledChecks() {
  await t.database.pool.query(`select graphile_worker.add_job('compliance_checks')`);
  await t.jobsDone();
}

describe('the initiation\'s checking hold', () => {
  const initiate = (recipientName: string) => t.request({ method: 'POST', url: '/api/payments/initiate', token: sender.token, payload: {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '100', currency: 'EUR',
    destination_details: { recipient_name: recipientName, recipient_phone: '+24177123456' },
  } });
  const seenHolds = async (id: string) => (await t.database.pool.query<{ reason: string }>(
    'select reason from seen_holds where transfer_request_id = $1', [id])).rows.map((r) => r.reason).sort();

  it('is not written for a transfer the checks before the write find nothing in: no hold, the answer is not held', async () => {
    const res = await initiate('Jean Ndong');
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    expect(res.json().data.on_hold).toBeUndefined();
    expect(await seenHolds(id)).toEqual([]);
    const staff = (await t.request({ method: 'GET', url: `/api/transfer-requests/${id}`, token: manager.token })).json().data;
    expect(staff.holds).toEqual([]);
  });

  it('is written with a transfer the checks find something in, and ends once they ran: the screening hold stays', async () => {
    const res = await initiate('Borislav Kazantsev');
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    expect(res.json().data.on_hold).toBe(true);
    expect(await seenHolds(id)).toEqual(['checking', 'screening']);
    expect(await holdsOf(id)).toEqual(['screening']);
  });

  it('left by a crash, holds the transfer: staff are refused, the sender sees it being checked', async () => {
    const transfer = await interrupted('Marie Nguema', 5);
    expect([(await startProcessing(transfer.id)).statusCode, (await startProcessing(transfer.id)).json().code]).toEqual([409, 'compliance_hold']);
    const own = (await t.request({ method: 'GET', url: `/api/transfer-requests/${transfer.id}`, token: sender.token })).json().data;
    expect(own.on_hold).toBe(true);
    const staff = (await t.request({ method: 'GET', url: `/api/transfer-requests/${transfer.id}`, token: manager.token })).json().data;
    expect(staff.holds).toEqual([expect.objectContaining({ reason: 'checking' })]);
  });

  it('younger than a minute is left alone by the job (its request may still be running); over a minute, the checks run and release an ordinary transfer', async () => {
    const recent = await interrupted('Paul Mba', 30);
    const old = await interrupted('Sylvie Obame', 61);
    await runScheduledChecks();
    expect(await holdsOf(recent.id)).toEqual(['checking']);
    expect(await holdsOf(old.id)).toEqual([]);
    expect((await startProcessing(old.id)).statusCode).toBe(200);
  });

  it('on a listed recipient, the job screens it: the alert is raised and the transfer stays held for screening', async () => {
    const transfer = await interrupted('Borislav Kazantsev', 120);
    await runScheduledChecks();
    expect(await holdsOf(transfer.id)).toEqual(['screening']);
    const alerts = (await t.request({ method: 'GET', url: '/api/screening/alerts?status=open', token: manager.token })).json().data as { transfer: { id: string } | null; list_id: string }[];
    expect(alerts.filter((a) => a.transfer?.id === transfer.id).map((a) => a.list_id)).toEqual(['9101']);
    expect((await startProcessing(transfer.id)).json().code).toBe('compliance_hold');
  });
});
