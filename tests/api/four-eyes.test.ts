import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Four-eyes: from its currency's threshold, a transfer is paid out and completed only once a
// second staff member approved it; the approver neither processed it nor recorded its payout, and
// no staff member processes or approves a transfer they sent themselves. The admin edits the
// thresholds. (The payout and the PayPal capture waiting for it: four-eyes-money.test.ts.)

let t: TestApp;
let sender: TestUser;
let mia: TestUser;
let max: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, mia, max, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }),
    createUser(t, { role: 'manager', full_name: 'Mia Manager' }),
    createUser(t, { role: 'manager', full_name: 'Max Manager' }),
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }),
  ]);
});
afterAll(async () => { await t.close(); });

const call = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });
const move = (token: string, id: string, status: string) => call(token, 'PATCH', `/api/transfer-requests/${id}`, { status });
const approve = (token: string, id: string) => call(token, 'POST', `/api/transfer-requests/${id}/approve`, {});
const payout = (token: string, id: string) => call(token, 'POST', `/api/transfer-requests/${id}/payout`, { reference: `AIRTEL-${id.slice(0, 6)}` });
const detail = async (token: string, id: string) => (await call(token, 'GET', `/api/transfer-requests/${id}`)).json().data;
const refusal = (res: { statusCode: number; json(): { code: string } }) => [res.statusCode, res.json().code];

describe('a transfer at or above its threshold', () => {
  it('waits for a second staff member\'s approval before its payout and its completion, then completes', async () => {
    // USD 1,500 ≥ USD 1,000 (the default threshold); paid in already.
    const transfer = await createTransfer(t, sender.id, { amount: '1500', paid: true });
    expect((await move(mia.token, transfer.id, 'processing')).statusCode).toBe(200);
    expect(refusal(await payout(mia.token, transfer.id))).toEqual([409, 'payout_needs_approval']);

    const refused = await move(mia.token, transfer.id, 'completed');
    expect(refusal(refused)).toEqual([409, 'complete_needs_approval']);
    expect(refused.json().error).toMatch(/second staff member must approve/);
    expect(await detail(mia.token, transfer.id)).toMatchObject({ status: 'processing', payout_status: 'not_sent' });

    const approved = await approve(max.token, transfer.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({
      id: transfer.id, status: 'processing', approval_required: true, needs_approval: false,
      requester: { profile_id: sender.id, full_name: 'Awa Sender' },
      processed_by: mia.id, approved_by: max.id, payout_sent_by: null,
    });
    expect(Date.parse(approved.json().data.approved_at)).not.toBeNaN();

    expect((await payout(mia.token, transfer.id)).statusCode).toBe(200);
    const completed = await move(mia.token, transfer.id, 'completed');
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json().data.status).toBe('completed');

    // The details name who did what.
    const seen = await detail(admin.token, transfer.id);
    expect(seen.actors).toMatchObject({
      processed_by: { profile_id: mia.id, full_name: 'Mia Manager', email: mia.email },
      approved_by: { profile_id: max.id, full_name: 'Max Manager' },
      payout_sent_by: { profile_id: mia.id },
      refunded_by: null,
    });
    expect(seen).toMatchObject({ approval_required: true, needs_approval: false, processed_by: mia.id, approved_by: max.id, payout_sent_by: mia.id });
  });

  it('cannot be approved by the one who processed it, nor twice', async () => {
    const transfer = await createTransfer(t, sender.id, { amount: '1000', paid: true });
    expect((await move(mia.token, transfer.id, 'processing')).statusCode).toBe(200);
    expect(refusal(await approve(mia.token, transfer.id))).toEqual([409, 'approval_same_staff']);
    expect((await detail(admin.token, transfer.id)).approved_at).toBeNull();
    expect((await approve(max.token, transfer.id)).statusCode).toBe(200);
    expect(refusal(await approve(admin.token, transfer.id))).toEqual([409, 'already_approved']);
    // The approver does not record the payout; the one who processed it does.
    expect(refusal(await payout(max.token, transfer.id))).toEqual([409, 'approval_same_staff']);
    expect((await payout(mia.token, transfer.id)).statusCode).toBe(200);
    expect((await move(admin.token, transfer.id, 'completed')).statusCode).toBe(200);
    expect((await approve(max.token, transfer.id)).statusCode).toBe(409);
  });

  it('keeps its approver from processing it or recording its payout', async () => {
    const transfer = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount: '600000', paid: true });
    expect((await approve(max.token, transfer.id)).statusCode).toBe(200);
    expect(refusal(await move(max.token, transfer.id, 'processing'))).toEqual([409, 'approval_same_staff']);
    expect((await move(mia.token, transfer.id, 'processing')).statusCode).toBe(200);
    expect(refusal(await payout(max.token, transfer.id))).toEqual([409, 'approval_same_staff']);
    expect((await detail(mia.token, transfer.id)).payout_status).toBe('not_sent');
    expect((await payout(mia.token, transfer.id)).statusCode).toBe(200);
    expect((await move(mia.token, transfer.id, 'completed')).statusCode).toBe(200);
  });
});

describe('a transfer under its threshold', () => {
  it('needs no approval: approving it is refused and it completes without one', async () => {
    const transfer = await createTransfer(t, sender.id, { amount: '999.99', paid: true, paidOut: true });
    expect(refusal(await approve(max.token, transfer.id))).toEqual([409, 'approval_not_needed']);
    const seen = await detail(mia.token, transfer.id);
    expect(seen).toMatchObject({ approval_required: false, needs_approval: false, approved_at: null });
    expect((await move(mia.token, transfer.id, 'completed')).statusCode).toBe(200);
  });
});

describe('one\'s own transfer', () => {
  it('is neither processed nor approved by the staff member who sent it', async () => {
    const own = await createTransfer(t, mia.id, { amount: '1500', paid: true });
    expect(refusal(await move(mia.token, own.id, 'processing'))).toEqual([403, 'own_transfer']);
    expect(refusal(await approve(mia.token, own.id))).toEqual([403, 'own_transfer']);
    expect(refusal(await payout(mia.token, own.id))).toEqual([403, 'own_transfer']);
    const seen = await detail(max.token, own.id);
    expect(seen).toMatchObject({ status: 'pending', approved_at: null, payout_status: 'not_sent', actors: { processed_by: null } });
    // Another staff member handles it.
    expect((await move(max.token, own.id, 'processing')).statusCode).toBe(200);
    expect((await approve(admin.token, own.id)).statusCode).toBe(200);
  });

  it('a sender cannot approve, and approving an unknown transfer is not found', async () => {
    const transfer = await createTransfer(t, sender.id, { amount: '1500' });
    expect((await approve(sender.token, transfer.id)).statusCode).toBe(403);
    expect((await approve(admin.token, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('the staff queue', () => {
  it('shows each row\'s approval state and filters the transfers waiting for one', async () => {
    const waiting = await createTransfer(t, sender.id, { direction: 'EUR_XAF', amount: '1200' });
    const small = await createTransfer(t, sender.id, { direction: 'EUR_XAF', amount: '50' });
    const list = await call(mia.token, 'GET', '/api/transfer-requests?needs_approval=true&direction=EUR_XAF&limit=100');
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().data as { id: string; needs_approval: boolean; approval_required: boolean }[];
    expect(rows.map((r) => r.id)).toContain(waiting.id);
    expect(rows.map((r) => r.id)).not.toContain(small.id);
    expect(rows.every((r) => r.needs_approval && r.approval_required)).toBe(true);

    await approve(max.token, waiting.id);
    const after = (await call(mia.token, 'GET', '/api/transfer-requests?needs_approval=true&direction=EUR_XAF&limit=100')).json().data as { id: string }[];
    expect(after.map((r) => r.id)).not.toContain(waiting.id);
    const all = (await call(mia.token, 'GET', '/api/transfer-requests?direction=EUR_XAF&limit=100')).json().data as { id: string; approval_required: boolean; needs_approval: boolean }[];
    expect(all.find((r) => r.id === waiting.id)).toMatchObject({ approval_required: true, needs_approval: false });
    expect(all.find((r) => r.id === small.id)).toMatchObject({ approval_required: false, needs_approval: false });
    expect((await call(mia.token, 'GET', '/api/transfer-requests?needs_approval=yes')).statusCode).toBe(400);
  });

  it('never shows a sender the approval fields', async () => {
    const transfer = await createTransfer(t, sender.id, { amount: '1500' });
    for (const url of ['/api/transfer-requests', `/api/transfer-requests/${transfer.id}`]) {
      const body = (await call(sender.token, 'GET', url)).body;
      for (const field of ['approval_required', 'needs_approval', 'approved_at', 'actors', 'processed_by']) expect(body).not.toContain(field);
    }
  });
});

describe('thresholds', () => {
  it('staff read them: the default thresholds', async () => {
    const res = await call(mia.token, 'GET', '/api/approval-thresholds');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((r: { currency: string; amount: string }) => [r.currency, r.amount])).toEqual([
      ['EUR', '1000.00'], ['RWF', '1300000'], ['USD', '1000.00'], ['XAF', '600000'],
    ]);
    expect((await call(sender.token, 'GET', '/api/approval-thresholds')).statusCode).toBe(403);
  });

  it('an admin\'s edit changes the rule at once; a manager may not edit; a bad amount is refused', async () => {
    const transfer = await createTransfer(t, sender.id, { direction: 'RWF_USD', amount: '500000', paid: true, paidOut: true });
    expect(refusal(await approve(max.token, transfer.id))).toEqual([409, 'approval_not_needed']);

    expect((await call(mia.token, 'PUT', '/api/approval-thresholds/RWF', { amount: '400000' })).statusCode).toBe(403);
    for (const amount of ['0', '-5', 'abc', '100.5', '']) {
      const bad = await call(admin.token, 'PUT', '/api/approval-thresholds/RWF', { amount });
      expect(bad.statusCode, amount).toBe(400);
      expect(bad.json().fields?.amount ?? bad.json().error).toBeTruthy();
    }
    expect((await call(admin.token, 'PUT', '/api/approval-thresholds/GBP', { amount: '10' })).statusCode).toBe(404);
    expect((await call(admin.token, 'GET', '/api/approval-thresholds')).json().data.find((r: { currency: string }) => r.currency === 'RWF').amount).toBe('1300000');

    const edited = await call(admin.token, 'PUT', '/api/approval-thresholds/RWF', { amount: '400000' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ currency: 'RWF', amount: '400000' });

    // The same transfer now needs an approval before it completes.
    expect((await detail(mia.token, transfer.id)).needs_approval).toBe(true);
    expect(refusal(await move(mia.token, transfer.id, 'completed'))).toEqual([409, 'complete_needs_approval']);
    expect((await approve(max.token, transfer.id)).statusCode).toBe(200);
    expect((await move(mia.token, transfer.id, 'completed')).statusCode).toBe(200);
    await call(admin.token, 'PUT', '/api/approval-thresholds/RWF', { amount: '1300000' });
  });
});
