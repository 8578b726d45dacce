import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { importListFiles, sdnCsv, type SdnRow } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A transfer held by sanctions screening, as its sender, its recipient and staff read it
// (docs/rules/screening.md#what-the-sender-sees, docs/rules/back-office.md#held-transfers): one
// state in every place the sender looks (the dashboard's and history's list, its own page, the
// tracking page), the queue's hold flag and filter, and a confirmed match closed out by two staff
// members (docs/rules/screening.md#closing-out-a-confirmed-match).

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
  const listed: SdnRow[] = [{ ent_num: 9101, name: 'VOLKANOV, Radomir Stepanovich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 1960.' }];
  const { outcome } = await importListFiles(t, admin.token, 'ofac_sdn', { 'sdn.csv': sdnCsv(listed) });
  expect(outcome).toMatchObject({ state: 'done' });
});
afterAll(async () => { await t.close(); });

type Method = 'GET' | 'POST';
const call = (token: string | undefined, method: Method, url: string, payload?: object) => t.request({ method, url, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });

let nextPhone = 310_000;
async function send(name: string) {
  const res = await call(sender.token, 'POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '100', currency: 'EUR',
    destination_details: { recipient_name: name, recipient_phone: `+24177${nextPhone++}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; reference: string; tracking_url: string; on_hold?: boolean };
}
const tracking = async (url: string) => (await call(undefined, 'GET', `/api/track/${url.split('/t/')[1]}`)).json().data;
const listed = async (transferId: string) => {
  const rows = (await call(sender.token, 'GET', '/api/transactions?limit=50')).json().data as { transfer_request_id: string; on_hold?: boolean; status: string }[];
  return rows.find((r) => r.transfer_request_id === transferId);
};
const staffRows = async (query = '') => (await call(manager.token, 'GET', `/api/transfer-requests?limit=100${query}`)).json().data as { id: string; on_hold: boolean }[];

describe('a held transfer, wherever its sender and recipient look', () => {
  it('reads held on the dashboard and history list, its own page and the tracking page; never why', async () => {
    const held = await send('Radomir Volkanov');
    expect(held.on_hold).toBe(true);
    const row = await listed(held.id);
    const page = (await call(sender.token, 'GET', `/api/transfer-requests/${held.id}`)).json().data;
    const tracked = await tracking(held.tracking_url);
    expect(row).toMatchObject({ on_hold: true, status: 'pending' });
    expect(page).toMatchObject({ on_hold: true, status: 'pending', payment_status: 'awaiting' });
    expect(tracked).toMatchObject({ on_hold: true, status: 'pending' });
    // The recipient's name is the sender's own words; the list's spelling, list, programme and score are not.
    for (const seen of [row, page, tracked]) expect(JSON.stringify(seen)).not.toMatch(/VOLKANOV|ofac|RUSSIA|score|screening|sanction/);

    const free = await send('Marie Nguema Obiang');
    expect((await listed(free.id))?.on_hold).toBeUndefined();
    expect((await tracking(free.tracking_url)).on_hold).toBe(false);
  });
});

describe('the staff queue', () => {
  it('flags held rows and filters on them with held=true', async () => {
    const held = await send('Radomir S. Volkanov');
    const free = await send('Paulette Ndong Mba');
    const all = await staffRows();
    expect(all.find((r) => r.id === held.id)?.on_hold).toBe(true);
    expect(all.find((r) => r.id === free.id)?.on_hold).toBe(false);
    const onlyHeld = await staffRows('&held=true');
    expect(onlyHeld.map((r) => r.id)).toContain(held.id);
    expect(onlyHeld.map((r) => r.id)).not.toContain(free.id);
    expect(onlyHeld.every((r) => r.on_hold)).toBe(true);
    expect((await call(manager.token, 'GET', '/api/transfer-requests?held=maybe')).statusCode).toBe(400);
  });
});

describe('closing out a confirmed match', () => {
  it('is proposed by one staff member and confirmed by another; the transfer is rejected, its money frozen, the sender told only that it cannot go ahead', async () => {
    const held = await send('Radomir Stepanovich Volkanov');
    // The sender had paid: the payment stands received, as a capture leaves it.
    await t.database.db.update(transferRequests).set({ payment_status: 'received', payment_amount: '100.00', payment_recorded_at: new Date() })
      .where(eq(transferRequests.id, held.id));
    const alert = ((await call(manager.token, 'GET', '/api/screening/alerts?status=open')).json().data as { id: string; transfer: { id: string } | null }[])
      .find((a) => a.transfer?.id === held.id)!;
    const staffDetail = async () => (await call(manager.token, 'GET', `/api/transfer-requests/${held.id}`)).json().data;
    const propose = (token: string, reason = 'Confirmed match with the OFAC entry: funds frozen, report filed') =>
      call(token, 'POST', `/api/transfer-requests/${held.id}/close-out`, { reason });
    const confirm = (token: string) => call(token, 'POST', `/api/transfer-requests/${held.id}/close-out/confirm`, {});

    // Not before the match is confirmed.
    expect((await staffDetail()).close_out).toEqual({ allowed: false, proposal: null });
    expect((await propose(manager.token)).json().code).toBe('close_out_not_allowed');
    await call(admin.token, 'POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Same man' });
    await call(manager.token, 'POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Agreed' });
    expect((await staffDetail()).close_out).toEqual({ allowed: true, proposal: null });

    // A reason is required; nothing to confirm yet; the sender cannot propose.
    expect((await propose(manager.token, '  ')).statusCode).toBe(400);
    expect((await confirm(admin.token)).json().code).toBe('close_out_not_proposed');
    expect((await propose(sender.token)).statusCode).toBe(403);

    const proposed = await propose(manager.token);
    expect(proposed.statusCode, proposed.body).toBe(200);
    expect(proposed.json().data.proposal).toMatchObject({ reason: 'Confirmed match with the OFAC entry: funds frozen, report filed', proposed_by: { profile_id: manager.id, full_name: 'Mona Manager' }, confirmed_by: null });
    expect((await propose(admin.token)).json().code).toBe('close_out_proposed');
    // Whoever proposed cannot confirm: still pending.
    expect((await confirm(manager.token)).json().code).toBe('close_out_same_staff');
    expect((await staffDetail()).status).toBe('pending');

    const confirmed = await confirm(admin.token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toMatchObject({ allowed: false, proposal: { confirmed_by: { profile_id: admin.id, full_name: 'Ada Admin' } } });
    expect((await confirm(admin.token)).json().code).toBe('close_out_not_allowed');

    // Rejected, the money frozen (still received, never refund_due), the holds kept.
    const after = await staffDetail();
    expect(after).toMatchObject({ status: 'rejected', payment_status: 'received' });
    expect(after.holds.length).toBeGreaterThan(0);
    // No refund is owed while frozen: staff cannot record one.
    expect((await call(manager.token, 'POST', `/api/transfer-requests/${held.id}/refund`, { reference: 'R-1' })).json().code).toBe('refund_not_due');

    // The sender: rejected, held (no refund promised), and not a word of the reason or the list.
    const seen = (await call(sender.token, 'GET', `/api/transfer-requests/${held.id}`)).json().data;
    expect(seen).toMatchObject({ status: 'rejected', on_hold: true, payment_status: 'received' });
    expect((await listed(held.id))).toMatchObject({ status: 'rejected', on_hold: true });
    expect(JSON.stringify(seen)).not.toMatch(/OFAC|frozen|report|VOLKANOV|match/);
    // Its e-mail says it was rejected, nothing of why.
    await expect.poll(async () => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, sender.email))).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const mails = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, sender.email));
    for (const mail of mails) expect(mail.text).not.toMatch(/OFAC|frozen|report filed|VOLKANOV/i);

    // Both steps audited, the proposer named on the second.
    const audit = (await call(admin.token, 'GET', `/api/audit?target_type=transfer&target_id=${held.id}`)).json().data as { action: string; actor: { profile_id: string }; after: Record<string, unknown> }[];
    expect(audit.find((a) => a.action === 'transfer_request.close_out_propose')).toMatchObject({ actor: { profile_id: manager.id }, after: { reason: expect.stringContaining('Confirmed match') } });
    expect(audit.find((a) => a.action === 'transfer_request.close_out')).toMatchObject({ actor: { profile_id: admin.id }, after: { status: 'rejected', proposed_by: manager.id } });
    // The proposer by name on that row, never only the id.
    expect((audit.find((a) => a.action === 'transfer_request.close_out') as unknown as { names: Record<string, string> }).names[manager.id]).toBe(`Mona Manager (${manager.email})`);

    // The reconciliation board explains the books' received money: frozen, with the transfer (the admin's alone).
    const frozen = await call(admin.token, 'GET', '/api/reconciliation/frozen');
    expect(frozen.statusCode, frozen.body).toBe(200);
    expect(frozen.json().data.transfers).toEqual([{
      id: held.id, reference: held.reference, account: 'paypal_eur', currency: 'EUR', amount: '100.00', sender_name: 'Awa Sender', closed_at: expect.any(String),
    }]);
    expect(frozen.json().data.totals).toEqual([{ currency: 'EUR', amount: '100.00', count: 1 }]);
    expect((await call(manager.token, 'GET', '/api/reconciliation/frozen')).statusCode).toBe(403);
  });

  it('is refused while a payout attempt is one the operator has not settled: rejected, the payout could still go out', async () => {
    const held = await send('Radomir Stepanovich Volkanov');
    const alert = ((await call(manager.token, 'GET', '/api/screening/alerts?status=open')).json().data as { id: string; transfer: { id: string } | null }[])
      .find((a) => a.transfer?.id === held.id)!;
    await call(admin.token, 'POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Same man' });
    await call(manager.token, 'POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'confirmed', note: 'Agreed' });
    // Its payout had left through Airtel before the list matched him; the operator has not answered yet.
    await t.database.pool.query(`insert into payout_attempts (transfer_id, seq, rail, reference, state, amount, currency, msisdn, name_check)
      values ($1, 1, 'airtel_gabon', 'OPEN-ATTEMPT-1', 'pending', 1000, 'XAF', '+24177123456', '{"outcome": "match"}')`, [held.id]);
    const proposed = await call(manager.token, 'POST', `/api/transfer-requests/${held.id}/close-out`, { reason: 'Confirmed match' });
    expect(proposed.statusCode).toBe(409);
    expect(proposed.json().code).toBe('payout_attempt_open');
    expect((await call(manager.token, 'GET', `/api/transfer-requests/${held.id}`)).json().data.status).toBe('pending');
  });
});
