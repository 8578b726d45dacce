import { eq, sql } from 'drizzle-orm';
import { deliveryWindow } from '@core/delivery.js';
import { SEED_CORRIDORS } from '@core/fees.js';
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

  it('?late=true lists exactly the late ones, so the queue can show them first', async () => {
    const res = await t.request({ method: 'GET', url: '/api/transfer-requests?late=true&limit=100', token: manager.token });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as { id: string; late: boolean }[];
    expect(rows.length).toBe(2);
    expect(rows.every((r) => r.late)).toBe(true);
    const all = (await t.request({ method: 'GET', url: '/api/transfer-requests?limit=100', token: manager.token })).json().data as { id: string; late: boolean }[];
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(all.filter((r) => r.late).map((r) => r.id)));
    const bad = await t.request({ method: 'GET', url: '/api/transfer-requests?late=maybe', token: manager.token });
    expect(bad.statusCode).toBe(400);
  });

  it('the database due time is core deliveryWindow\'s latest, for every corridor and start (weekends too)', async () => {
    const times = [...new Set(SEED_CORRIDORS.map((c) => c.processing_time)), '2-4 h', 'soon'];
    // Every 7 hours over two weeks: every weekday, weekend and time of day comes up.
    const starts = Array.from({ length: 48 }, (_, i) => new Date(Date.UTC(2026, 10, 13, 5) + i * 7 * 3_600_000));
    for (const time of times) {
      for (const start of starts) {
        const { rows } = await t.database.db.execute<{ due: string | null }>(
          sql`select to_char(transfer_due_at(${start.toISOString()}::timestamptz, ${time}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as due`);
        expect(rows[0]!.due, `${time} from ${start.toISOString()}`).toBe(deliveryWindow(time, start)?.latest ?? null);
      }
    }
  });

  it('says nothing of it to the sender', async () => {
    const res = await t.request({ method: 'GET', url: '/api/transfer-requests', token: sender.token });
    expect(res.statusCode).toBe(200);
    for (const row of res.json().data) expect(row).not.toHaveProperty('late');
  });
});
