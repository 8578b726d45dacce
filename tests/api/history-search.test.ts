import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Issue 13, defect 5: the sender's history search finds a transfer by what the screens show of
// it: recipient name, payout reference, the amounts as written in either language, the MT-
// reference (also without its prefix) and the recipient's number as shown. In the database, own
// transfers only.

let t: TestApp;
let sender: TestUser;
let other: TestUser;
const made: Record<'xaf' | 'eur' | 'usd', { id: string; reference: string }> = {} as never;

async function initiate(user: TestUser, payload: object) {
  const res = await t.request({ method: 'POST', url: '/api/payments/initiate', token: user.token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; reference: string };
}

beforeAll(async () => {
  t = await createTestApp();
  [sender, other] = await Promise.all([createUser(t), createUser(t)]);
  made.xaf = await initiate(sender, {
    source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '65000', currency: 'XAF',
    destination_details: { recipient_name: 'Awa Mboumba', recipient_email: 'awa@example.test' },
  });
  made.eur = await initiate(sender, {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '84.20', currency: 'EUR',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
  });
  made.usd = await initiate(sender, {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
    destination_details: { recipient_name: 'Pierre Obiang', recipient_phone: '+24174000000' },
  });
  // The payout staff recorded (the money rules are tested in money-actions.test.ts).
  await t.database.db.update(transferRequests).set({ payout_status: 'sent', payout_reference: 'AIRTEL-PAYOUT-778899', payout_sent_at: new Date() })
    .where(eq(transferRequests.id, made.usd.id));
  // Another sender's transfer to the same recipient, of the same amount: never in the results.
  await initiate(other, {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '84.20', currency: 'EUR',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
  });
});
afterAll(async () => { await t.close(); });

/** The references the sender's history shows for a search. */
async function found(q: string, list: '/api/transactions' | '/api/transfer-requests' = '/api/transactions'): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `${list}?q=${encodeURIComponent(q)}`, token: sender.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((row: { reference: string }) => row.reference);
}

describe('history search', () => {
  it('shows the MT- reference on each row', async () => {
    const res = await t.request({ method: 'GET', url: '/api/transactions', token: sender.token });
    expect(res.json().data.map((row: { reference: string }) => row.reference)).toEqual([made.usd.reference, made.eur.reference, made.xaf.reference]);
    for (const ref of Object.values(made)) expect(ref.reference).toMatch(/^MT-[A-Z2-9]{8}$/);
  });

  it('finds the recipient by name, whole or in part, in any case', async () => {
    expect(await found('Awa Mboumba')).toEqual([made.xaf.reference]);
    expect(await found('mboumba')).toEqual([made.xaf.reference]);
    expect(await found('OBIANG')).toEqual([made.usd.reference]);
  });

  it('finds the payout reference, whole or in part', async () => {
    expect(await found('AIRTEL-PAYOUT-778899')).toEqual([made.usd.reference]);
    expect(await found('payout-778899')).toEqual([made.usd.reference]);
  });

  it('finds the amounts as the English screens show them', async () => {
    expect(await found('65,000')).toEqual([made.xaf.reference]);
    expect(await found('FCFA 65,000')).toEqual([made.xaf.reference]);
    expect(await found('84.20')).toEqual([made.eur.reference]);
    expect(await found('€84.20')).toEqual([made.eur.reference]);
  });

  it('finds the amounts as the French screens show them (narrow and non-breaking spaces, decimal comma)', async () => {
    expect(await found('65\u202f000 FCFA')).toEqual([made.xaf.reference]);
    expect(await found('65\u00a0000')).toEqual([made.xaf.reference]);
    expect(await found('65 000')).toEqual([made.xaf.reference]);
    expect(await found('84,20\u00a0€')).toEqual([made.eur.reference]);
  });

  it('finds the total paid', async () => {
    const detail = (await t.request({ method: 'GET', url: `/api/transfer-requests/${made.eur.id}`, token: sender.token })).json().data;
    expect(await found(detail.total)).toContain(made.eur.reference);
  });

  it('finds the MT- reference, with or without its prefix, in any case', async () => {
    const ref = made.eur.reference;
    expect(await found(ref)).toEqual([ref]);
    expect(await found(ref.toLowerCase())).toEqual([ref]);
    expect(await found(ref.slice(3))).toEqual([ref]);
  });

  it('finds the recipient’s number as stored or as shown', async () => {
    expect(await found('+24177123456')).toEqual([made.eur.reference]);
    expect(await found('+241 77 12 34 56')).toEqual([made.eur.reference]);
  });

  it('searches the sender’s transfer requests the same way', async () => {
    expect(await found('65,000', '/api/transfer-requests')).toEqual([made.xaf.reference]);
    expect(await found('payout-778899', '/api/transfer-requests')).toEqual([made.usd.reference]);
    expect(await found('Jean Ndong', '/api/transfer-requests')).toEqual([made.eur.reference]);
  });

  it('gives each row the time its payment was recorded, where its delivery clock starts', async () => {
    const recordedAt = new Date('2026-11-20T10:00:00.000Z');
    await t.database.db.update(transferRequests).set({ payment_status: 'received', payment_recorded_at: recordedAt })
      .where(eq(transferRequests.id, made.eur.id));
    const rows = (await t.request({ method: 'GET', url: '/api/transactions', token: sender.token })).json().data as { reference: string; payment_recorded_at: string | null }[];
    expect(Object.fromEntries(rows.map((r) => [r.reference, r.payment_recorded_at]))).toEqual({
      [made.usd.reference]: null, [made.eur.reference]: recordedAt.toISOString(), [made.xaf.reference]: null,
    });
  });

  it('finds nothing of another sender, and nothing for a term no transfer has', async () => {
    expect(await found('Jean Ndong')).toEqual([made.eur.reference]);
    expect(await found('Nobody Here')).toEqual([]);
    expect(await found('99,999')).toEqual([]);
  });
});
