import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Issue 13, delivery estimate: staff rows say whether a transfer is late, i.e. still open past
// its corridor's expected delivery (USD → Airtel Gabon: 10-60 min), counted from its recorded
// payment, else from its request (src/core/delivery.ts), so the queue can show late ones first.

let t: TestApp;
let manager: TestUser;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [manager, sender] = await Promise.all([createUser(t, { role: 'manager' }), createUser(t)]);
});
afterAll(async () => { await t.close(); });

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

describe('late transfers in the staff list', () => {
  it('flags open transfers past their window, never a recent or closed one', async () => {
    const late = await createTransfer(t, sender.id, { created_at: hoursAgo(3) });
    const lateProcessing = await createTransfer(t, sender.id, { created_at: hoursAgo(3), status: 'processing' });
    const recent = await createTransfer(t, sender.id, { created_at: hoursAgo(0.25) });
    const done = await createTransfer(t, sender.id, { created_at: hoursAgo(3), status: 'completed', paid: true, paidOut: true });
    // Asked 3 h ago but paid 10 minutes ago: the clock starts at the payment.
    const paidLater = await createTransfer(t, sender.id, { created_at: hoursAgo(3) });
    await t.database.db.update(transferRequests).set({ payment_status: 'received', payment_recorded_at: new Date(Date.now() - 600_000) })
      .where(eq(transferRequests.id, paidLater.id));

    const res = await t.request({ method: 'GET', url: '/api/transfer-requests?limit=100', token: manager.token });
    expect(res.statusCode, res.body).toBe(200);
    const lateOf = Object.fromEntries(res.json().data.map((r: { id: string; late: boolean }) => [r.id, r.late]));
    expect(lateOf).toEqual({ [late.id]: true, [lateProcessing.id]: true, [recent.id]: false, [done.id]: false, [paidLater.id]: false });
  });

  it('says nothing of it to the sender', async () => {
    const res = await t.request({ method: 'GET', url: '/api/transfer-requests', token: sender.token });
    expect(res.statusCode).toBe(200);
    for (const row of res.json().data) expect(row).not.toHaveProperty('late');
  });
});
