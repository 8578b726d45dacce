import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, profiles, savedRecipients, transferRequests } from '@server/db/schema.js';
import { eraseExpiredAccounts } from '@server/modules/privacy/service.js';
import { insertTransfer } from '@server/modules/transfers/initiation-statement.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';
import { uniqueAddress } from './auth-fixtures.js';

// A sender's own data (docs/rules/your-data.md): the download of everything held about them,
// the closure of their account, and the erasure of what was kept once its 5 years are over.

let t: TestApp;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [manager, admin] = await Promise.all([createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
});
afterAll(async () => { await t?.close(); });

const request = (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: object) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}), headers: { 'x-forwarded-for': uniqueAddress() } });
const close = (user: TestUser, payload: object = { current_password: user.password }) => request('POST', '/api/profiles/me/close', user.token, payload);
const profileOf = async (id: string) => (await t.database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!;
const transferOf = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const auditOf = async (action: string, id: string) => (await t.database.pool.query(
  'select actor_profile_id, action from audit_log where action = $1 and target_id = $2', [action, id])).rows;

/** Starts a $100 USD → Airtel Gabon transfer the way the sender's screen does. */
async function initiate(user: TestUser) {
  const res = await request('POST', '/api/payments/initiate', user.token, {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; reference: string; total: string };
}

describe('GET /api/profiles/me/export', () => {
  it('is a download of what the sender entered: profile, recipients, transfers, sign-ins; no secrets; audited', async () => {
    const sender = await createUser(t, { full_name: 'Awa Mbina' });
    expect((await request('PATCH', '/api/profiles/me', sender.token, { address: '4 rue Ngoye', city: 'Libreville', country: 'GA', phone: '+241 66 11 22 33' })).statusCode).toBe(200);
    expect((await request('POST', '/api/recipients', sender.token, { channel: 'airtel_gabon', recipient_name: 'Paul Obame', recipient_phone: '+241 77 65 43 21', label: 'Cousin' })).statusCode).toBe(201);
    const transfer = await initiate(sender);

    const res = await request('GET', '/api/profiles/me/export', sender.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    expect(data.profile).toMatchObject({ email: sender.email, full_name: 'Awa Mbina', address: '4 rue Ngoye', city: 'Libreville', country: 'GA', date_of_birth: '1990-04-12' });
    expect(data.recipients).toEqual([expect.objectContaining({ label: 'Cousin', recipient_name: 'Paul Obame', recipient_phone: '+24177654321' })]);
    expect(data.transfers).toEqual([expect.objectContaining({
      reference: transfer.reference, amount: '100.00', currency: 'USD', total: transfer.total,
      destination_details: expect.objectContaining({ recipient_name: 'Jean Ndong' }),
      timeline: [expect.objectContaining({ to_status: 'pending' })], proofs: [],
    })]);
    expect(data.transfers[0].travel_rule).toBeTruthy();
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.sessions[0]).toHaveProperty('started_at');
    // Secrets held about the account are never in it.
    expect(res.body).not.toMatch(/password_hash|totp_secret|tracking_token|idempotency_hash/);
    expect(await auditOf('profile.export', sender.id)).toEqual([{ actor_profile_id: sender.id, action: 'profile.export' }]);
  });

  it('is the signed-in caller\'s own only', async () => {
    expect((await request('GET', '/api/profiles/me/export')).statusCode).toBe(401);
  });
});

describe('POST /api/profiles/me/close', () => {
  it('is refused with 409 naming the unfinished transfer, nothing changed', async () => {
    const sender = await createUser(t);
    const transfer = await initiate(sender);
    const res = await close(sender);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'close_open_transfers', transfers: [{ id: transfer.id, reference: transfer.reference, status: 'pending' }] });
    expect(res.json().error).toContain(transfer.reference);
    expect((await request('GET', '/api/profiles/me', sender.token)).statusCode).toBe(200);
    expect((await profileOf(sender.id)).closed_at).toBeNull();
  });

  it('is refused with 409 while money is owed back on a finished transfer', async () => {
    const sender = await createUser(t);
    const owed = await createTransfer(t, sender.id, { status: 'cancelled', paid: true });
    await t.database.db.update(transferRequests).set({ payment_status: 'refund_due' }).where(eq(transferRequests.id, owed.id));
    const res = await close(sender);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'close_money_owed', transfers: [{ reference: owed.reference, payment_status: 'refund_due' }] });
    expect((await profileOf(sender.id)).closed_at).toBeNull();
  });

  it('is refused with a wrong or missing password, nothing changed', async () => {
    const sender = await createUser(t);
    await request('POST', '/api/recipients', sender.token, { channel: 'airtel_gabon', recipient_name: 'Paul Obame', recipient_phone: '+241 77 65 43 21' });
    const wrong = await close(sender, { current_password: 'not-the-password-1' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().code).toBe('current_password_wrong');
    expect((await close(sender, {})).json().code).toBe('current_password_required');
    expect((await request('GET', '/api/recipients', sender.token)).json().data).toHaveLength(1);
    expect((await profileOf(sender.id)).closed_at).toBeNull();
  });

  it('asks an account without a password for a mailed code, then closes it and erases its e-mails', async () => {
    const sender = await createUser(t);
    await t.database.db.update(profiles).set({ password_hash: null }).where(eq(profiles.id, sender.id));
    const first = await close(sender, {});
    expect(first.statusCode).toBe(403);
    expect(first.json().code).toBe('reauth_code_sent');
    await t.jobsDone();
    const mailed = await t.database.pool.query<{ text: string }>('select text from mail_outbox where "to" = $1 order by id desc', [sender.email]);
    const code = /\b(\d{6})\b/.exec(mailed.rows[0]!.text)![1]!;
    // The export lists the e-mail the account was sent.
    expect((await request('GET', '/api/profiles/me/export', sender.token)).json().emails).toEqual([expect.objectContaining({ to: sender.email })]);

    expect((await close(sender, { current_code: code })).statusCode).toBe(200);
    expect((await t.database.pool.query('select 1 from mail_outbox where "to" = $1', [sender.email])).rows).toEqual([]);
  });

  it('is refused for a staff account, which an admin manages', async () => {
    const res = await close(manager);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('close_staff_account');
  });

  it('ends every session, stops sign-in, erases what no law needs, keeps the transfers and the books balanced', async () => {
    const sender = await createUser(t, { full_name: 'Marie Leclerc' });
    const other = await t.tokens.createSession(sender.id);
    await request('POST', '/api/recipients', sender.token, { channel: 'airtel_gabon', recipient_name: 'Paul Obame', recipient_phone: '+241 77 65 43 21' });
    // A transfer paid, paid out and completed: three entries in the books.
    const transfer = await initiate(sender);
    expect((await request('POST', `/api/transfer-requests/${transfer.id}/payment`, manager.token, { amount: transfer.total, reference: 'STMT-CLOSE-1' })).statusCode).toBe(200);
    expect((await request('POST', `/api/transfer-requests/${transfer.id}/payout`, manager.token, { reference: 'AIRTEL-CLOSE-1' })).statusCode).toBe(200);
    expect((await request('PATCH', `/api/transfer-requests/${transfer.id}`, manager.token, { status: 'completed' })).statusCode).toBe(200);
    const before = await transferOf(transfer.id);
    const entriesBefore = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transfer_request_id, transfer.id));
    expect(entriesBefore.length).toBeGreaterThan(0);

    const res = await close(sender);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Your account is closed. We keep only what the law requires, for 5 years.');

    // Signed out everywhere, and signing in again is impossible.
    expect((await request('GET', '/api/profiles/me', sender.token)).statusCode).toBe(401);
    expect((await request('GET', '/api/profiles/me', other.token)).statusCode).toBe(401);
    const login = await request('POST', '/api/auth/login', undefined, { email: sender.email, password: sender.password });
    expect(login.statusCode).toBe(401);
    // Erased at once: saved recipients, contact, password; the address is free for a new account.
    expect(await t.database.db.select().from(savedRecipients).where(eq(savedRecipients.profile_id, sender.id))).toEqual([]);
    const closed = await profileOf(sender.id);
    expect(closed).toMatchObject({ password_hash: null, phone: null, email_verified_at: null, full_name: 'Marie Leclerc', date_of_birth: '1990-04-12' });
    expect(closed.email).not.toBe(sender.email);
    expect(closed.closed_at).toBeInstanceOf(Date);
    // Kept: the transfer with its money facts, its ledger entries, and the books balanced.
    const after = await transferOf(transfer.id);
    expect(after).toMatchObject({ amount: before.amount, fee: before.fee, total: before.total, rate: before.rate, payout_amount: before.payout_amount, status: 'completed', tracking_token: null });
    expect(after.travel_rule).toEqual(before.travel_rule);
    expect(await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transfer_request_id, transfer.id))).toEqual(entriesBefore);
    const balances = await request('GET', '/api/ledger/balances', admin.token);
    for (const total of balances.json().data.totals as { currency: string; sum: string }[]) expect(Number(total.sum), total.currency).toBe(0);
    expect(await auditOf('profile.close', sender.id)).toEqual([{ actor_profile_id: sender.id, action: 'profile.close' }]);
  });
});

describe('the retention job', () => {
  it('waits for an initiation under way, which then blocks it; a request signed in before it closed creates nothing after', async () => {
    const sender = await createUser(t, { full_name: 'Claire Mbadinga' });
    // An initiation of this sender is being written: its transaction holds the sender's lock.
    const held = await t.database.pool.connect();
    try {
      await held.query('begin');
      await held.query('select pg_advisory_xact_lock(26, hashtext($1))', [sender.id]);
      const closing = close(sender);
      // The closure waits on that lock (seen in pg_locks, not guessed with a sleep) ...
      for (;;) {
        const { rows } = await t.database.pool.query(`select 1 from pg_locks where locktype = 'advisory' and not granted
          and database = (select oid from pg_database where datname = current_database())`);
        if (rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      // ... while the initiation writes its transfer and commits.
      await held.query(`insert into transfer_requests (reference, profile_id, direction, source_provider, destination_provider, destination_details,
          amount, currency, fee, total, rate, payout_amount, payout_currency)
        values ($1, $2, 'USD_XAF', 'paypal_usd', 'airtel_gabon', '{}', 100, 'USD', 4.5, 104.5, 610, 61000, 'XAF')`, [`MT-RACE${sender.id.slice(0, 4).toUpperCase()}`, sender.id]);
      await held.query('commit');
      const refused = await closing;
      expect(refused.statusCode).toBe(409);
      expect(refused.json().code).toBe('close_open_transfers');
    } finally {
      held.release();
    }

    // Another sender closes; a request of theirs already signed in reaches the insert afterwards.
    const gone = await createUser(t, { full_name: 'Eric Nzamba' });
    expect((await close(gone)).statusCode).toBe(200);
    const reference = `MT-LATE${gone.id.slice(0, 4).toUpperCase()}`;
    const late = insertTransfer(t.database.db, {
      reference, profile_id: gone.id, direction: 'USD_XAF', source_provider: 'paypal_usd', source_details: {},
      destination_provider: 'airtel_gabon', destination_details: { recipient_name: 'Jean Ndong' },
      amount: '50.00', currency: 'USD', fee: '3.00', total: '53.00', rate: '600', payout_amount: '30000', payout_currency: 'XAF',
      fee_tier_id: null, idempotency_key: null, idempotency_hash: null, travel_rule: null,
    }, { direction: 'USD_XAF', amount: '50.00', destination_details: {}, metadata: { reference } },
    { kind: 'mail', payload: { note: reference }, maxAttempts: 1 }, () => null);
    await expect(late).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(await t.database.db.select().from(transferRequests).where(eq(transferRequests.profile_id, gone.id))).toEqual([]);
  });

  it('erases the kept data of an account closed more than 5 years ago and leaves one closed 4 years ago alone', async () => {
    const [old, recent] = await Promise.all([createUser(t, { full_name: 'Old Closed' }), createUser(t, { full_name: 'Recent Closed' })]);
    const oldTransfer = await createTransfer(t, old.id, { status: 'completed', paid: true, paidOut: true });
    const recentTransfer = await createTransfer(t, recent.id, { status: 'completed', paid: true, paidOut: true });
    expect((await close(old)).statusCode).toBe(200);
    expect((await close(recent)).statusCode).toBe(200);
    // The clock moved: closed 5 years and a day ago, and 4 years ago.
    await t.database.db.execute(sql`update profiles set closed_at = now() - interval '5 years 1 day' where id = ${old.id}`);
    await t.database.db.execute(sql`update profiles set closed_at = now() - interval '4 years' where id = ${recent.id}`);

    expect(await eraseExpiredAccounts({ db: t.database.db, log: pino({ level: 'silent' }) })).toBeGreaterThanOrEqual(1);

    const erased = await profileOf(old.id);
    expect(erased).toMatchObject({ full_name: null, date_of_birth: null, address: null, city: null, country: null });
    expect(erased.erased_at).toBeInstanceOf(Date);
    const erasedTransfer = await transferOf(oldTransfer.id);
    expect(erasedTransfer).toMatchObject({ destination_details: {}, travel_rule: null, amount: oldTransfer.amount, total: oldTransfer.total, status: 'completed' });
    expect(await auditOf('profile.erase', old.id)).toEqual([{ actor_profile_id: null, action: 'profile.erase' }]);

    expect(await profileOf(recent.id)).toMatchObject({ full_name: 'Recent Closed', date_of_birth: '1990-04-12', erased_at: null });
    expect((await transferOf(recentTransfer.id)).destination_details).toEqual(recentTransfer.destination_details);
    // Done once: a second pass finds nothing of theirs.
    await eraseExpiredAccounts({ db: t.database.db, log: pino({ level: 'silent' }) });
    expect(await auditOf('profile.erase', old.id)).toHaveLength(1);
  });

  it('erases the numbers and names of the payouts through an operator with the recipient\'s details, the money facts kept', async () => {
    const old = await createUser(t, { full_name: 'Payout Closed' });
    const paid = await createTransfer(t, old.id, { status: 'completed', paid: true, paidOut: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } });
    const reference = crypto.randomUUID();
    const nameCheck = { outcome: 'close', recipient_name: 'Marie Nguema', registered_name: 'Marie Ngema', score: 0.93, checked_at: new Date().toISOString() };
    await t.database.pool.query(`insert into payout_attempts (transfer_id, seq, rail, reference, state, operator_id, amount, currency, msisdn, name_check, steps)
      values ($1, 1, 'airtel_gabon', $2, 'succeeded', 'MP000001', $3, 'XAF', '+24177123456', $4, $5)`, [paid.id, reference, paid.payout_amount, nameCheck,
      JSON.stringify([{ at: new Date().toISOString(), call: 'disburse', http_status: 200, operator_code: 'DP00900001001', message: 'Paid XAF to +24177123456 Marie Ngema', state: 'succeeded' }])]);
    await t.database.pool.query(`insert into payout_name_holds (transfer_id, rail, name_check, decision, reason) values ($1, 'airtel_gabon', $2, 'pay_anyway', 'Same person, checked by phone')`, [paid.id, nameCheck]);
    await t.database.pool.query(`insert into rail_callbacks (operator, reference, body) values ('airtel', $1, $2)`,
      [reference, { transaction: { id: reference, message: 'Paid XAF 61000 to +24177123456', status_code: 'TS' } }]);

    // The sender's download shows the payout: the number paid and the names compared, no call log.
    const exported = (await request('GET', '/api/profiles/me/export', old.token)).json();
    expect(exported.transfers[0].payouts).toEqual([expect.objectContaining({
      rail: 'airtel_gabon', state: 'succeeded', reference, operator_id: 'MP000001', amount: paid.payout_amount, currency: 'XAF',
      msisdn: '+24177123456', name_check: expect.objectContaining({ recipient_name: 'Marie Nguema', registered_name: 'Marie Ngema' }),
    })]);
    expect(exported.transfers[0].payouts[0]).not.toHaveProperty('steps');

    expect((await close(old)).statusCode).toBe(200);
    await t.database.db.execute(sql`update profiles set closed_at = now() - interval '5 years 1 day' where id = ${old.id}`);
    await eraseExpiredAccounts({ db: t.database.db, log: pino({ level: 'silent' }) });

    const [attempt] = (await t.database.pool.query('select * from payout_attempts where reference = $1', [reference])).rows;
    expect(attempt).toMatchObject({ msisdn: '', state: 'succeeded', operator_id: 'MP000001', amount: paid.payout_amount, currency: 'XAF',
      name_check: { outcome: 'close', recipient_name: '', registered_name: null, score: 0.93 } });
    expect(attempt.steps).toEqual([expect.objectContaining({ call: 'disburse', operator_code: 'DP00900001001', message: null, state: 'succeeded' })]);
    const [hold] = (await t.database.pool.query('select * from payout_name_holds where transfer_id = $1', [paid.id])).rows;
    expect(hold.name_check).toMatchObject({ outcome: 'close', recipient_name: '', registered_name: null });
    const [callback] = (await t.database.pool.query('select * from rail_callbacks where reference = $1', [reference])).rows;
    expect(callback.body).toEqual({});
    const everything = JSON.stringify([attempt, hold, callback]);
    expect(everything).not.toMatch(/77123456|Nguema|Ngema/);
  });

  it('is scheduled with the job queue', async () => {
    const { rows } = await t.database.pool.query('select identifier from graphile_worker._private_known_crontabs');
    expect(rows.map((r: { identifier: string }) => r.identifier)).toContain('privacy_erasure');
  });
});

describe('as the least-privilege database role of a deployment', () => {
  it('closes an account and erases it after retention without changing an append-only table', async () => {
    const lp = await createTestApp({ leastPrivilege: true });
    try {
      const sender = await createUser(lp, { full_name: 'Least Privilege' });
      const transfer = await createTransfer(lp, sender.id, { status: 'completed', paid: true, paidOut: true });
      const closed = await lp.request({ method: 'POST', url: '/api/profiles/me/close', token: sender.token, payload: { current_password: sender.password } });
      expect(closed.statusCode).toBe(200);
      await lp.database.db.execute(sql`update profiles set closed_at = now() - interval '6 years' where id = ${sender.id}`);
      expect(await eraseExpiredAccounts({ db: lp.database.db, log: pino({ level: 'silent' }) })).toBe(1);
      const [row] = await lp.database.db.select().from(transferRequests).where(eq(transferRequests.id, transfer.id));
      expect(row).toMatchObject({ destination_details: {}, total: transfer.total });
    } finally {
      await lp.close();
    }
  });
});
