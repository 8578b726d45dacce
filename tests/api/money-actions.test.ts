import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES, type PaymentStatus, type PayoutStatus, type TransferStatus } from '@core/status.js';
import { ledgerEntries, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import type { SmtpListener } from '../support/smtp-listener.js';
import { createMailedTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Staff record the money of a transfer (docs/rules/money-states.md): payment received by hand, payout sent, refund made;
// completion needs both; closing a paid transfer owes a refund. Every move legal or not.

let t: TestApp;
let smtp: SmtpListener;
let sender: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  ({ t, smtp } = await createMailedTestApp());
  [sender, manager, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
});
afterAll(async () => { await t.close(); });

const post = (id: string, action: 'payment' | 'payout' | 'refund', payload: object, token = manager.token, lang?: string) =>
  t.request({ method: 'POST', url: `/api/transfer-requests/${id}/${action}`, token, payload, ...(lang ? { headers: { 'accept-language': lang } } : {}) });
const patch = (id: string, status: string, token = manager.token) =>
  t.request({ method: 'PATCH', url: `/api/transfer-requests/${id}`, token, payload: { status } });
const row = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const entries = (id: string) => t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.transfer_request_id, id)).orderBy(asc(ledgerEntries.id));
const events = async (id: string) => (await t.database.db.select().from(transferStatusHistory)
  .where(eq(transferStatusHistory.transfer_request_id, id)).orderBy(asc(transferStatusHistory.id))).map((h) => h.event ?? `${h.from_status}→${h.to_status}`);

/** A USD → XAF transfer of $100 (total $104.50) in the given state, as the fixtures store it. */
async function transferIn(status: TransferStatus, payment: PaymentStatus, payout: PayoutStatus) {
  const created = await createTransfer(t, sender.id, { status });
  const paidAmount = ['received', 'refund_due', 'refunded'].includes(payment) ? created.total : null;
  await t.database.db.update(transferRequests).set({ payment_status: payment, payout_status: payout, payment_amount: paidAmount })
    .where(eq(transferRequests.id, created.id));
  return row(created.id);
}

const BODIES = {
  payment: { amount: '104.50', reference: 'STMT-1001' },
  payout: { reference: 'AIRTEL-778899' },
  refund: { reference: 'REFUND-42' },
};

/** The rules of docs/rules/money-states.md, written out independently of src/core/money-states.ts. */
function allowed(action: keyof typeof BODIES, s: TransferStatus, p: PaymentStatus, o: PayoutStatus): boolean {
  const closed = ['completed', 'rejected', 'cancelled'].includes(s);
  if (action === 'payment') return p === 'awaiting' && s !== 'completed';
  if (action === 'payout') return !closed && o === 'not_sent' && p === 'received';
  return p === 'refund_due';
}

describe('every payment, payout and refund move, legal or not', () => {
  for (const action of ['payment', 'payout', 'refund'] as const) {
    it(`${action}: 200 exactly where the money states allow it, 409 with a reason and nothing changed elsewhere`, async () => {
      let checked = 0;
      for (const s of TRANSFER_STATUSES) {
        for (const p of PAYMENT_STATUSES) {
          for (const o of PAYOUT_STATUSES) {
            const before = await transferIn(s, p, o);
            const res = await post(before.id, action, BODIES[action]);
            const after = await row(before.id);
            if (allowed(action, s, p, o)) {
              expect(res.statusCode, `${action} ${s}/${p}/${o}`).toBe(200);
              expect(after.version).toBe(before.version + 1);
              expect(await entries(before.id)).not.toHaveLength(0);
            } else {
              expect(res.statusCode, `${action} ${s}/${p}/${o}`).toBe(409);
              expect(res.json().error).toMatch(/\w/);
              expect(after).toEqual(before);
              expect(await entries(before.id)).toHaveLength(0);
            }
            checked += 1;
          }
        }
      }
      expect(checked).toBe(TRANSFER_STATUSES.length * PAYMENT_STATUSES.length * PAYOUT_STATUSES.length);
    });
  }
});

describe('recording a payment received by hand', () => {
  it('stores the amount, reference, who and when, writes the timeline and one balanced entry, e-mails the sender', async () => {
    const transfer = await createTransfer(t, sender.id);
    const res = await post(transfer.id, 'payment', { amount: '104.50', reference: ' STMT-77 ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      payment_status: 'received', payment_amount: '104.50', payment_reference: 'STMT-77', payment_flagged: false, payout_status: 'not_sent',
    });
    const stored = await row(transfer.id);
    expect(stored.payment_recorded_by).toBe(manager.id);
    expect(stored.payment_recorded_at).toBeInstanceOf(Date);
    expect(await events(transfer.id)).toEqual(['payment_received']);
    const [entry] = await entries(transfer.id);
    expect(entry).toMatchObject({ kind: 'payment', reference: 'STMT-77', actor_profile_id: manager.id });
    const ledger = await t.request({ method: 'GET', url: `/api/ledger/entries?transfer_id=${transfer.id}`, token: admin.token });
    expect(ledger.json().data[0].lines).toEqual([
      expect.objectContaining({ account: 'paypal_usd', currency: 'USD', amount: '104.50' }),
      expect.objectContaining({ account: 'customer_funds', currency: 'USD', amount: '-104.50' }),
    ]);
    await t.jobsDone();
    const mail = await smtp.waitFor(sender.email, new RegExp(`Payment received for transfer ${transfer.reference}`));
    expect(mail.raw).toContain(`We received your payment of $104.50 for transfer ${transfer.reference}.`);
  });

  it('keeps an amount other than the total as it is, flagged', async () => {
    const transfer = await createTransfer(t, sender.id);
    const res = await post(transfer.id, 'payment', { amount: '100', reference: 'STMT-SHORT' });
    expect(res.json().data).toMatchObject({ payment_status: 'received', payment_amount: '100.00', payment_flagged: true });
    const ledger = await t.request({ method: 'GET', url: `/api/ledger/entries?transfer_id=${transfer.id}`, token: admin.token });
    expect(ledger.json().data[0].lines.map((l: { amount: string }) => l.amount)).toEqual(['100.00', '-100.00']);
  });

  it('refuses unreadable input with 400 and changes nothing', async () => {
    const xaf = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount: '60000' });
    const cases: [object, string][] = [
      [{ amount: '61500.5', reference: 'X' }, 'amount'], // XAF has no minor unit
      [{ amount: '0', reference: 'X' }, 'amount'],
      [{ amount: 'abc', reference: 'X' }, 'amount'],
      [{ amount: '61500' }, 'reference'],
      [{ amount: '61500', reference: '   ' }, 'reference'],
      [{ amount: '61500', reference: 'R'.repeat(121) }, 'reference'],
    ];
    for (const [body, field] of cases) {
      const res = await post(xaf.id, 'payment', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect((await post(xaf.id, 'payout', {})).json().fields).toHaveProperty('reference');
    expect((await row(xaf.id)).payment_status).toBe('awaiting');
    expect(await entries(xaf.id)).toHaveLength(0);
  });

  it('answers in French, 403 to a sender, 404 for an unknown transfer', async () => {
    const transfer = await createTransfer(t, sender.id, { paid: true, paidOut: true });
    const fr = await post(transfer.id, 'payment', BODIES.payment, manager.token, 'fr-FR');
    expect(fr.statusCode).toBe(409);
    expect(fr.json()).toMatchObject({ code: 'payment_already_recorded', error: 'Le paiement de ce transfert est déjà enregistré.' });
    const fresh = await createTransfer(t, sender.id);
    expect((await post(fresh.id, 'payment', BODIES.payment, sender.token)).statusCode).toBe(403);
    expect((await post('6f1c1f7e-1111-4b7a-9c52-000000000000', 'payment', BODIES.payment)).statusCode).toBe(404);
    expect((await row(fresh.id)).payment_status).toBe('awaiting');
  });

  it('two staff recording one payment at once: one is recorded, with exactly one entry', async () => {
    for (let round = 0; round < 5; round += 1) {
      const transfer = await createTransfer(t, sender.id);
      const results = await Promise.all([
        post(transfer.id, 'payment', { amount: '104.50', reference: `A-${round}` }, manager.token),
        post(transfer.id, 'payment', { amount: '104.50', reference: `B-${round}` }, admin.token),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await entries(transfer.id)).toHaveLength(1);
      expect(await events(transfer.id)).toEqual(['payment_received']);
    }
  });
});

describe('completion needs the money in and out', () => {
  it('refuses completion without payment, without payout, or without both, naming what is missing', async () => {
    const none = await createTransfer(t, sender.id, { status: 'processing' });
    expect((await patch(none.id, 'completed')).json()).toMatchObject({
      code: 'complete_needs_both', error: 'The transfer cannot be completed: the payment is not received and the payout is not sent.',
    });
    const paid = await createTransfer(t, sender.id, { status: 'processing', paid: true });
    const res = await patch(paid.id, 'completed');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('The transfer cannot be completed: the payout is not sent.');
    const outOnly = await transferIn('processing', 'awaiting', 'sent');
    expect((await patch(outOnly.id, 'completed')).json().error).toBe('The transfer cannot be completed: the payment is not received.');
    for (const id of [none.id, paid.id, outOnly.id]) expect((await row(id)).status).toBe('processing');
  });

  it('the whole way: payment, processing, payout, completion; the fee is earned on completion', async () => {
    const transfer = await createTransfer(t, sender.id);
    expect((await post(transfer.id, 'payment', BODIES.payment)).statusCode).toBe(200);
    expect((await patch(transfer.id, 'processing')).statusCode).toBe(200);
    const out = await post(transfer.id, 'payout', { reference: 'AIRTEL-5566' });
    expect(out.json().data).toMatchObject({ payout_status: 'sent', payout_reference: 'AIRTEL-5566' });
    expect((await row(transfer.id)).payout_sent_by).toBe(manager.id);
    // Once paid out, the sender can no longer cancel and staff can no longer reject.
    expect((await patch(transfer.id, 'rejected')).json().code).toBe('reject_after_payout');
    const done = await patch(transfer.id, 'completed', admin.token);
    expect(done.statusCode).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'completed', payment_status: 'received', payout_status: 'sent' });
    expect((await entries(transfer.id)).map((e) => e.kind)).toEqual(['payment', 'payout', 'fee']);
    expect(await events(transfer.id)).toEqual(['payment_received', 'pending→processing', 'payout_sent', 'processing→completed']);
    const ledger = await t.request({ method: 'GET', url: `/api/ledger/entries?transfer_id=${transfer.id}`, token: admin.token });
    const [, payout, fee] = ledger.json().data;
    expect(payout.lines).toEqual([
      expect.objectContaining({ account: 'customer_funds', currency: 'USD', amount: '100.00' }),
      expect.objectContaining({ account: 'fx', currency: 'USD', amount: '-100.00' }),
      expect.objectContaining({ account: 'fx', currency: 'XAF', amount: transfer.payout_amount }),
      expect.objectContaining({ account: 'airtel_gabon', currency: 'XAF', amount: `-${transfer.payout_amount}` }),
    ]);
    expect(fee.lines).toEqual([
      expect.objectContaining({ account: 'customer_funds', amount: '4.50' }),
      expect.objectContaining({ account: 'fee_revenue', amount: '-4.50' }),
    ]);
  });
});

describe('cancel and reject, before and after payment', () => {
  it('before payment: nothing owed, no entry', async () => {
    const a = await createTransfer(t, sender.id);
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${a.id}/cancel`, token: sender.token })).json().data.payment_status).toBe('awaiting');
    const b = await createTransfer(t, sender.id);
    expect((await patch(b.id, 'rejected')).json().data.payment_status).toBe('awaiting');
    expect([...await entries(a.id), ...await entries(b.id)]).toHaveLength(0);
  });

  it('after payment: refund due, then refunded with its reference; the books follow', async () => {
    for (const close of ['cancel', 'reject'] as const) {
      const transfer = await createTransfer(t, sender.id);
      await post(transfer.id, 'payment', BODIES.payment);
      const closed = close === 'cancel'
        ? await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/cancel`, token: sender.token })
        : await patch(transfer.id, 'rejected');
      expect(closed.json().data.payment_status).toBe('refund_due');
      expect((await post(transfer.id, 'refund', {})).json().fields).toHaveProperty('reference');
      const refunded = await post(transfer.id, 'refund', { reference: `BANK-RF-${close}` });
      expect(refunded.json().data).toMatchObject({ payment_status: 'refunded', refund_reference: `BANK-RF-${close}` });
      expect((await post(transfer.id, 'refund', { reference: 'AGAIN' })).json().code).toBe('refund_already_made');
      expect((await entries(transfer.id)).map((e) => e.kind)).toEqual(['payment', 'refund_due', 'refund']);
      expect(await events(transfer.id)).toEqual(['payment_received', `pending→${close === 'cancel' ? 'cancelled' : 'rejected'}`, 'refunded']);
    }
  });

  it('money that arrives after cancellation is recorded and owed back at once', async () => {
    const transfer = await createTransfer(t, sender.id, { status: 'cancelled' });
    const res = await post(transfer.id, 'payment', BODIES.payment);
    expect(res.json().data).toMatchObject({ status: 'cancelled', payment_status: 'refund_due' });
    expect((await entries(transfer.id)).map((e) => e.kind)).toEqual(['payment', 'refund_due']);
  });
});

describe('the staff list filters on money', () => {
  it('lists only transfers in the payment or payout state asked for', async () => {
    const paid = await createTransfer(t, sender.id, { paid: true, reference: 'MT-PAIDFILTER' });
    const res = await t.request({ method: 'GET', url: '/api/transfer-requests?payment=received&q=MT-PAIDFILTER', token: manager.token });
    expect(res.json().data.map((r: { id: string }) => r.id)).toEqual([paid.id]);
    const none = await t.request({ method: 'GET', url: '/api/transfer-requests?payment=awaiting&q=MT-PAIDFILTER', token: manager.token });
    expect(none.json().data).toEqual([]);
    expect((await t.request({ method: 'GET', url: '/api/transfer-requests?payment=paid', token: manager.token })).statusCode).toBe(400);
  });
});
