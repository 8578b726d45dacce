import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Every staff action is written to an append-only audit log (docs/rules/back-office.md#audit): actor, action, object, client
// address, time, before and after; the admin filters it, pages through it and exports it.

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, manager, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager', full_name: 'Mia Manager' }), createUser(t, { role: 'admin' }),
  ]);
});
afterAll(async () => { await t.close(); });

interface Row { action: string; target_type: string; target_id: string | null; ip: string | null; before: Record<string, unknown> | null; after: Record<string, unknown> | null; actor: { profile_id: string } }
const audit = async (query: string, token = admin.token) => {
  const res = await t.request({ method: 'GET', url: `/api/audit?${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Row[]; next_cursor: string | null };
};
const as = (token: string, method: 'POST' | 'PATCH' | 'PUT' | 'GET', url: string, payload?: object) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}), headers: { 'x-forwarded-for': '203.0.113.7' } });

describe('each staff action writes one audit row', () => {
  it('status move, payment, payout, completion and refund: who, from where, before and after', async () => {
    const transfer = await createTransfer(t, sender.id);
    expect((await as(manager.token, 'POST', `/api/transfer-requests/${transfer.id}/payment`, { amount: '104.50', reference: 'STMT-9' })).statusCode).toBe(200);
    expect((await as(manager.token, 'PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'processing', note: 'checked' })).statusCode).toBe(200);
    expect((await as(manager.token, 'POST', `/api/transfer-requests/${transfer.id}/payout`, { reference: 'AIRTEL-9' })).statusCode).toBe(200);
    expect((await as(admin.token, 'PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'completed' })).statusCode).toBe(200);
    // A refused action changes nothing and writes nothing.
    expect((await as(manager.token, 'POST', `/api/transfer-requests/${transfer.id}/payout`, { reference: 'AGAIN' })).statusCode).toBe(409);

    const rows = (await audit(`target_id=${transfer.id}`)).data.reverse();
    expect(rows.map((r) => [r.action, r.actor.profile_id, r.target_type])).toEqual([
      ['transfer_request.payment', manager.id, 'transfer'],
      ['transfer_request.status', manager.id, 'transfer'],
      ['transfer_request.payout', manager.id, 'transfer'],
      ['transfer_request.status', admin.id, 'transfer'],
    ]);
    expect(rows[0]!.before).toMatchObject({ payment_status: 'awaiting', payment_amount: null });
    expect(rows[0]!.after).toMatchObject({ payment_status: 'received', payment_amount: '104.50', payment_reference: 'STMT-9' });
    expect(rows[1]!.after).toMatchObject({ status: 'processing', note: 'checked' });
    expect(rows[3]!.before).toMatchObject({ status: 'processing' });
    expect(rows[3]!.after).toMatchObject({ status: 'completed' });
    // The client's address as the server sees it (the test app trusts its loopback proxy).
    for (const row of rows) expect(row.ip).toBe('203.0.113.7');

    const refunded = await createTransfer(t, sender.id, { paid: true });
    await as(manager.token, 'PATCH', `/api/transfer-requests/${refunded.id}`, { status: 'rejected' });
    await as(manager.token, 'POST', `/api/transfer-requests/${refunded.id}/refund`, { reference: 'RF-1' });
    expect((await audit(`target_id=${refunded.id}`)).data.map((r) => r.action)).toEqual(['transfer_request.refund', 'transfer_request.status']);
  });

  it('a staff member viewing a proof, and the export, are recorded; the sender viewing their own is not', async () => {
    const transfer = await createTransfer(t, sender.id);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d4944415408d763f8ffffff7f0009fb03fdd1838cf00000000049454e44ae426082', 'hex');
    const boundary = '----audit';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.png"\r\nContent-Type: image/png\r\n\r\n`),
      png, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/proof`, token: sender.token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
    expect(upload.statusCode, upload.body).toBe(201);
    const proofId = upload.json().data.id as string;
    await as(sender.token, 'GET', `/api/transfer-requests/${transfer.id}/proofs/${proofId}`);
    await as(manager.token, 'GET', `/api/transfer-requests/${transfer.id}/proofs/${proofId}`);
    const views = (await audit(`action=proof.view&target_id=${proofId}`)).data;
    expect(views.map((v) => [v.actor.profile_id, v.after?.transfer_id])).toEqual([[manager.id, transfer.id]]);

    await as(manager.token, 'GET', '/api/transfer-requests/export.csv?status=pending');
    const [exported] = (await audit(`action=transfer_request.export&actor=${manager.id}`)).data;
    expect(exported?.after).toMatchObject({ status: 'pending' });
  });

  it('role, fee tier and rate changes carry before and after', async () => {
    const someone = await createUser(t);
    await as(admin.token, 'PATCH', `/api/profiles/${someone.id}`, { role: 'manager' });
    const [role] = (await audit(`action=profile.role_update&target_id=${someone.id}`)).data;
    expect([role?.before, role?.after]).toEqual([{ role: 'user' }, { role: 'manager' }]);
    await as(admin.token, 'PATCH', '/api/rates/USD_XAF', { value: '611' });
    const [rate] = (await audit('action=rate.update')).data;
    expect(rate?.after).toMatchObject({ key: 'USD_XAF', value: '611' });
  });

  it('an approval, a note and a threshold edit are recorded; a refused approval writes nothing', async () => {
    const transfer = await createTransfer(t, sender.id, { amount: '1500', paid: true });
    expect((await as(manager.token, 'PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'processing' })).statusCode).toBe(200);
    expect((await as(manager.token, 'POST', `/api/transfer-requests/${transfer.id}/approve`, {})).statusCode).toBe(409);
    expect((await as(admin.token, 'POST', `/api/transfer-requests/${transfer.id}/approve`, {})).statusCode).toBe(200);
    const [approval, ...rest] = (await audit(`action=transfer_request.approve&target_id=${transfer.id}`)).data;
    expect(rest).toEqual([]);
    expect(approval).toMatchObject({ target_type: 'transfer', ip: '203.0.113.7', actor: { profile_id: admin.id }, before: { approved_by: null } });
    expect(approval?.after).toMatchObject({ approved_by: admin.id, status: 'processing' });

    expect((await as(manager.token, 'POST', `/api/transfer-requests/${transfer.id}/notes`, { body: 'Please confirm the number', visibility: 'sender', action_needed: true })).statusCode).toBe(201);
    const [noted] = (await audit(`action=transfer_request.note&target_id=${transfer.id}`)).data;
    expect(noted).toMatchObject({ actor: { profile_id: manager.id }, before: { action_needed: false } });
    expect(noted?.after).toMatchObject({ visibility: 'sender', action_needed: true, body: 'Please confirm the number' });

    expect((await as(admin.token, 'PUT', '/api/approval-thresholds/EUR', { amount: '1500' })).statusCode).toBe(200);
    expect((await as(admin.token, 'PUT', '/api/approval-thresholds/EUR', { amount: 'lots' })).statusCode).toBe(400);
    const thresholds = (await audit('action=approval_threshold.update')).data;
    expect(thresholds).toHaveLength(1);
    expect(thresholds[0]).toMatchObject({ target_type: 'approval_threshold', target_id: 'EUR', before: { amount: '1000.00' }, after: { amount: '1500.00' } });
    await as(admin.token, 'PUT', '/api/approval-thresholds/EUR', { amount: '1000' });
  });

  it('a statement entered and a matching run are recorded for the reconciled account', async () => {
    const entered = await as(admin.token, 'POST', '/api/reconciliation/airtel_gabon/statements', { balance: '0' });
    expect(entered.statusCode, entered.body).toBe(201);
    const [statement] = (await audit('action=reconciliation.statement')).data;
    expect(statement).toMatchObject({ target_type: 'reconciliation', target_id: entered.json().data.statement.id, actor: { profile_id: admin.id } });
    expect(statement?.after).toMatchObject({ account: 'airtel_gabon', lines: 0 });
    expect((await as(admin.token, 'POST', '/api/reconciliation/airtel_gabon/match')).statusCode).toBe(200);
    const [match] = (await audit('action=reconciliation.match')).data;
    expect(match).toMatchObject({ target_id: 'airtel_gabon', after: { matched: 0 } });
  });
});

describe('reading the log', () => {
  it('filters by actor, action and days, pages with a cursor, and is the admin\'s alone', async () => {
    const transfer = await createTransfer(t, sender.id);
    for (const status of ['processing', 'rejected']) await as(manager.token, 'PATCH', `/api/transfer-requests/${transfer.id}`, { status });
    const mine = await audit(`actor=${manager.id}&action=transfer_request.status&limit=1`);
    expect(mine.data).toHaveLength(1);
    expect(mine.data[0]!.after).toMatchObject({ status: 'rejected' });
    const next = await audit(`actor=${manager.id}&action=transfer_request.status&limit=1&cursor=${mine.next_cursor}`);
    expect(next.data[0]!.after).toMatchObject({ status: 'processing' });
    const today = new Date().toISOString().slice(0, 10);
    expect((await audit(`from=${today}&to=${today}&actor=${manager.id}`)).data.length).toBeGreaterThan(1);
    expect((await audit('from=2020-01-01&to=2020-01-31')).data).toEqual([]);
    for (const bad of ['action=transfer.delete', 'actor=nobody', 'from=2025-02-31', 'cursor=-1']) {
      expect((await t.request({ method: 'GET', url: `/api/audit?${bad}`, token: admin.token })).statusCode, bad).toBe(400);
    }
    expect((await t.request({ method: 'GET', url: '/api/audit', token: manager.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/audit', token: sender.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/audit' })).statusCode).toBe(401);
  });

  it('exports the filtered log as CSV, and records the export', async () => {
    const res = await as(admin.token, 'GET', `/api/audit/export.csv?actor=${manager.id}&action=transfer_request.status`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('id,created_at,actor_id,actor_email,actor_name,ip,action,target_type,target_id,before,after');
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.slice(1).every((l) => l.includes(',transfer_request.status,transfer,'))).toBe(true);
    const [recorded] = (await audit('action=audit.export')).data;
    expect(recorded?.after).toEqual({ actor: manager.id, action: 'transfer_request.status' });
  });
});

describe('the database keeps the log append-only', () => {
  it('refuses UPDATE and DELETE, even to the owner', async () => {
    for (const statement of ["update audit_log set action = 'nothing'", 'delete from audit_log']) {
      await expect(t.database.pool.query(statement), statement).rejects.toThrow(/append-only/);
    }
    expect((await audit('limit=1')).data).toHaveLength(1);
  });
});
