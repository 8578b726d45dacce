import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_STATUSES } from '@core/status.js';
import { transactions, transferStatusHistory } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, manager, admin] = await Promise.all([
    createUser(t), createUser(t, { role: 'manager', full_name: 'Mia Manager' }), createUser(t, { role: 'admin' }),
  ]);
});
afterAll(async () => { await t.close(); });

const move = (status: string, extra: object = {}) => ({ status, ...extra });
/** Completion needs the money in and out (docs/rules/money-states.md): those transfers are paid and paid out first. */
const readyFor = (to: string) => (to === 'completed' ? { paid: true, paidOut: true } : {});

const history = (id: string) => t.database.db.select().from(transferStatusHistory)
  .where(eq(transferStatusHistory.transfer_request_id, id)).orderBy(asc(transferStatusHistory.id));

/** Waits until `count` sessions of this database wait on a row lock. */
async function waitForLockWaiters(count: number) {
  for (let i = 0; i < 500; i += 1) {
    const { rows } = await t.database.pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (rows[0]!.n >= count) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`fewer than ${count} requests waited on the row`);
}

const patch = (id: string, payload: object, token = manager.token) =>
  t.request({ method: 'PATCH', url: `/api/transfer-requests/${id}`, token, payload });

/** Staff: pending → processing|completed|rejected; processing → completed|rejected; the rest is final. */
const LEGAL: Record<string, string[]> = {
  pending: ['processing', 'completed', 'rejected'],
  processing: ['completed', 'rejected'],
  completed: [], rejected: [], cancelled: [],
};

describe('PATCH /api/transfer-requests/:id — the staff moves', () => {
  for (const from of TRANSFER_STATUSES) {
    for (const to of TRANSFER_STATUSES) {
      const legal = LEGAL[from]!.includes(to);
      it(`${from} → ${to}: ${legal ? '200' : '409'}`, async () => {
        const transfer = await createTransfer(t, sender.id, { status: from, ...readyFor(to) });
        const res = await patch(transfer.id, move(to));
        const steps = await history(transfer.id);
        if (legal) {
          expect(res.statusCode).toBe(200);
          expect(res.json().data).toMatchObject({ id: transfer.id, status: to, version: 2 });
          // updated_at moves with the row, on the request and on its mirrored transaction.
          expect(Date.parse(res.json().data.updated_at)).toBeGreaterThan(Date.parse(res.json().data.created_at));
          expect(steps).toHaveLength(1);
          const [tx] = await t.database.db.select().from(transactions).where(eq(transactions.transfer_request_id, transfer.id));
          expect(tx!.status).toBe(to);
          expect(tx!.updated_at.getTime()).toBeGreaterThan(tx!.created_at.getTime());
        } else {
          expect(res.statusCode).toBe(409);
          expect(res.json().error).toMatch(/^Failed to update status: /);
          expect(steps).toHaveLength(0);
        }
      });
    }
  }

  it('names why a move is refused, in the spec\'s words', async () => {
    const done = await createTransfer(t, sender.id, { status: 'completed' });
    expect((await patch(done.id, { status: 'rejected' })).json().error)
      .toBe('Failed to update status: This transfer is final and can no longer change.');
    const processing = await createTransfer(t, sender.id, { status: 'processing' });
    expect((await patch(processing.id, { status: 'processing' })).json().error)
      .toBe('Failed to update status: The transfer already has this status.');
    expect((await patch(processing.id, { status: 'pending' })).json().error)
      .toBe('Failed to update status: This status change is not allowed.');
    const pending = await createTransfer(t, sender.id);
    expect((await patch(pending.id, { status: 'cancelled' })).statusCode).toBe(409);
  });

  it('answers in French for a French staff member', async () => {
    const done = await createTransfer(t, sender.id, { status: 'completed' });
    const res = await t.request({ method: 'PATCH', url: `/api/transfer-requests/${done.id}`, token: manager.token,
      headers: { 'accept-language': 'fr-FR' }, payload: { status: 'rejected' } });
    expect(res.json().error).toBe('Échec de la mise à jour du statut\u00a0: Ce transfert est définitif et ne peut plus changer.');
  });

  it('records who moved it, from what, to what, and the note', async () => {
    const transfer = await createTransfer(t, sender.id);
    await patch(transfer.id, { status: 'processing', note: 'Payment seen on the Airtel statement' });
    await patch(transfer.id, { status: 'rejected', note: 'Recipient number closed' }, admin.token);
    const steps = await history(transfer.id);
    expect(steps.map((s) => [s.from_status, s.to_status, s.actor_profile_id, s.actor_role, s.note])).toEqual([
      ['pending', 'processing', manager.id, 'manager', 'Payment seen on the Airtel statement'],
      ['processing', 'rejected', admin.id, 'admin', 'Recipient number closed'],
    ]);
  });

  it('refuses a request changed since the staff member read it (expected_status)', async () => {
    const transfer = await createTransfer(t, sender.id);
    await patch(transfer.id, { status: 'processing' }, admin.token);
    const stale = await patch(transfer.id, { status: 'rejected', expected_status: 'pending' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toBe('Failed to update status: Someone else changed this transfer. Reload and try again.');
    expect(await history(transfer.id)).toHaveLength(1);
  });

  it('two staff acting at once on one request: exactly one wins, the other gets 409, one history entry', async () => {
    for (const [a, b] of [['processing', 'rejected'], ['processing', 'processing'], ['processing', 'completed']] as const) {
      const transfer = await createTransfer(t, sender.id, readyFor(b));
      const results = await Promise.all([
        patch(transfer.id, move(a, { expected_status: 'pending' }), manager.token),
        patch(transfer.id, move(b, { expected_status: 'pending' }), admin.token),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json().error).toMatch(/^Failed to update status: /);
      expect(await history(transfer.id)).toHaveLength(1);
    }
  });

  it('without expected_status too: of two staff moving one request at once, exactly one wins (10 races)', async () => {
    for (let round = 0; round < 10; round += 1) {
      const [a, b] = round % 2 ? ['processing', 'completed'] : ['processing', 'rejected'];
      const transfer = await createTransfer(t, sender.id, readyFor(b));
      // Both moves arrive while the row is busy (held here), so both really race for it.
      const holder = await t.database.pool.connect();
      let results;
      try {
        await holder.query('begin');
        await holder.query('select 1 from transfer_requests where id = $1 for update', [transfer.id]);
        const racing = Promise.all([patch(transfer.id, move(a), manager.token), patch(transfer.id, move(b), admin.token)]);
        await waitForLockWaiters(2);
        await holder.query('commit');
        results = await racing;
      } finally {
        holder.release();
      }
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.statusCode === 409)!.json().error)
        .toBe('Failed to update status: Someone else changed this transfer. Reload and try again.');
      expect(await history(transfer.id)).toHaveLength(1);
    }
  });

  it('answers 404 for an unknown or malformed id, 400 for an unknown status', async () => {
    expect((await patch('6f1c1f7e-1111-4b7a-9c52-000000000000', { status: 'processing' })).statusCode).toBe(404);
    expect((await patch('not-a-uuid', { status: 'processing' })).statusCode).toBe(404);
    const transfer = await createTransfer(t, sender.id);
    const bad = await patch(transfer.id, { status: 'approved' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.status).toBe('Choose a valid status.');
  });
});
