import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSignedMinor } from '@core/reconciliation.js';
import type { Currency } from '@core/money.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// The admin's money figures come from the ledger (docs/rules/money-states.md): money received, fees earned and refunds
// owed per currency, moved by exactly what staff record through the API.

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, manager, admin] = await Promise.all([createUser(t), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
});
afterAll(async () => { await t.close(); });

type Money = { currency: Currency; received: string; fees_earned: string; refunds_owed: string };
const minor = (v: string | undefined, c: Currency) => parseSignedMinor(v ?? '0', c)!;

async function money(currency: Currency) {
  const res = await t.request({ method: 'GET', url: '/api/admin/stats', token: admin.token });
  expect(res.statusCode).toBe(200);
  const row = (res.json().data.money as Money[]).find((m) => m.currency === currency);
  return { received: minor(row?.received, currency), fees: minor(row?.fees_earned, currency), owed: minor(row?.refunds_owed, currency) };
}

const staff = (id: string, path: string, payload: object, method: 'POST' | 'PATCH' = 'POST') =>
  t.request({ method, url: `/api/transfer-requests/${id}${path}`, token: manager.token, payload });

/** An XAF → USD transfer with its payment recorded by hand. */
async function paid(amount: string) {
  const transfer = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount });
  expect((await staff(transfer.id, '/payment', { amount: transfer.total, reference: `IN-${amount}` })).statusCode).toBe(200);
  return transfer;
}

describe('GET /api/admin/stats: the money, from the ledger', () => {
  it('moves received, fees earned and refunds owed by exactly the amounts recorded', async () => {
    const before = await money('XAF');
    const completed = await paid('20000');
    expect((await staff(completed.id, '/payout', { reference: 'OUT-1' })).statusCode).toBe(200);
    expect((await staff(completed.id, '', { status: 'completed' }, 'PATCH')).statusCode).toBe(200);
    const rejected = await paid('30000');
    expect((await staff(rejected.id, '', { status: 'rejected', note: 'Documents do not match' }, 'PATCH')).statusCode).toBe(200);
    const refunded = await paid('40000');
    expect((await staff(refunded.id, '', { status: 'rejected', note: 'Duplicate' }, 'PATCH')).statusCode).toBe(200);
    expect((await staff(refunded.id, '/refund', { reference: 'BACK-1' })).statusCode).toBe(200);

    const after = await money('XAF');
    const x = (v: string) => minor(v, 'XAF');
    expect(after.received - before.received).toBe(x(completed.total) + x(rejected.total) + x(refunded.total));
    expect(after.fees - before.fees).toBe(x(completed.fee));
    expect(after.owed - before.owed).toBe(x(rejected.total));
  });

  it('are the admin\'s alone: a manager sees the counts without them', async () => {
    const res = await t.request({ method: 'GET', url: '/api/admin/stats', token: manager.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.money).toBeUndefined();
    expect(res.json().data.requests).toBeDefined();
  });
});
