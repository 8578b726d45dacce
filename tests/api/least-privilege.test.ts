import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrateDatabase } from '@server/db/migrate.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A deployment can run the app as the least-privilege role of docs/database-roles.sql: every
// screen's work goes through, and what only the schema owner may do is refused by PostgreSQL.

let t: TestApp;
let sender: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp({ leastPrivilege: true });
  [sender, admin] = await Promise.all([createUser(t), createUser(t, { role: 'admin' })]);
});
afterAll(async () => { await t.close(); });

const sqlError = async (statement: string) => {
  try {
    await t.database.pool.query(statement);
    return null;
  } catch (err) {
    return (err as { code?: string }).code;
  }
};

describe('the app as a least-privilege database role', () => {
  it('is no superuser and owns nothing', async () => {
    const { rows } = await t.database.pool.query<{ rolsuper: boolean; rolcreatedb: boolean; owned: number }>(
      `select rolsuper, rolcreatedb, (select count(*)::int from pg_tables where tableowner = current_user) as owned
         from pg_roles where rolname = current_user`);
    expect(rows[0]).toEqual({ rolsuper: false, rolcreatedb: false, owned: 0 });
  });

  it('does a sender\'s and staff\'s work: price, send, move, write to each other, edit a fee and a threshold, change a role', async () => {
    const quote = await t.request({ method: 'POST', url: '/api/quotes', payload: { direction: 'USD_XAF', amount: '100' } });
    expect(quote.json().data.total).toBe('104.50');
    const created = await t.request({
      method: 'POST', url: '/api/payments/initiate', token: sender.token,
      payload: {
        source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
        destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    const moved = await t.request({ method: 'PATCH', url: `/api/transfer-requests/${id}`, token: admin.token, payload: { status: 'processing' } });
    expect(moved.statusCode).toBe(200);
    const noted = await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/notes`, token: admin.token,
      payload: { body: 'Please send the proof again', visibility: 'sender', action_needed: true } });
    expect(noted.statusCode).toBe(201);
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/messages`, token: sender.token, payload: { body: 'Sent' } })).statusCode).toBe(201);
    expect((await t.request({ method: 'PUT', url: '/api/approval-thresholds/USD', token: admin.token, payload: { amount: '900' } })).statusCode).toBe(200);
    const tier = (await t.request({ method: 'GET', url: '/api/fees' })).json().data.find((x: { direction: string }) => x.direction === 'RWF_EUR');
    const edited = await t.request({ method: 'PATCH', url: `/api/fees/${tier.id}`, token: admin.token,
      payload: { percentage: '0.035' } });
    expect(edited.statusCode).toBe(200);
    const promoted = await t.request({ method: 'PATCH', url: `/api/profiles/${sender.id}`, token: admin.token, payload: { role: 'manager' } });
    expect(promoted.statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/transfer-requests', token: admin.token })).json().data).toHaveLength(1);
  });

  it('cannot change the schema or rewrite history (42501: insufficient privilege)', async () => {
    expect(await sqlError('drop table profiles')).toBe('42501');
    expect(await sqlError('create table intruder (id int)')).toBe('42501');
    expect(await sqlError('alter table profiles add column intruder int')).toBe('42501');
    expect(await sqlError(`update audit_log set action = 'forged'`)).toBe('42501');
    expect(await sqlError('delete from transfer_status_history')).toBe('42501');
    expect(await sqlError(`update transfer_notes set body = 'forged'`)).toBe('42501');
    expect(await sqlError('delete from transfer_notes')).toBe('42501');
    expect(await sqlError('create role intruder')).toBe('42501');
  });

  it('migrates only through the owner\'s URL, and says so when given the app role alone', async () => {
    await expect(migrateDatabase(t.database, undefined)).rejects.toThrow(/Set MIGRATION_DATABASE_URL to the schema owner's URL/);
    const owner = new URL(inject('adminDatabaseUrl'));
    const ownerUrl = new URL(t.database.url);
    ownerUrl.username = owner.username;
    ownerUrl.password = owner.password;
    await expect(migrateDatabase(t.database, ownerUrl.toString())).resolves.toBeUndefined();
  });
});
