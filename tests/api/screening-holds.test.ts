import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transferRequests } from '@server/db/schema.js';
import { placeHold, releaseHolds } from '@server/modules/holds/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { PayPalServer } from '../support/paypal-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// One compliance hold (docs/rules/screening.md#holds-and-alerts): a held transfer — held itself,
// or through its sender — is refused at each staff action with 409 `compliance_hold` and nothing
// changes; once released the same action goes through. The sender sees only that it is being
// checked; staff see the holds and why; the metrics count held transfers.

const METRICS_TOKEN = 'holds-metrics-token';
let t: TestApp;
let paypal: PayPalServer;
let sender: TestUser;
let mia: TestUser;
let max: TestUser;
beforeAll(async () => {
  paypal = await new PayPalServer().start();
  t = await createTestApp({
    env: { PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url, METRICS_TOKEN },
  });
  [sender, mia, max] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager', full_name: 'Mia Manager' }), createUser(t, { role: 'admin', full_name: 'Max Admin' }),
  ]);
});
afterAll(async () => {
  await t.close();
  await paypal.stop();
});

type Method = 'GET' | 'POST' | 'PATCH';
const call = (token: string, method: Method, url: string, payload?: object, lang?: string) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}), ...(lang ? { headers: { 'accept-language': lang } } : {}) });
const move = (id: string, status: string, token = mia.token) => call(token, 'PATCH', `/api/transfer-requests/${id}`, { status });
const row = async (id: string) => (await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id)))[0]!;
const refusal = (res: { statusCode: number; json(): { code: string } }) => [res.statusCode, res.json().code];

const hold = (transferId: string) => placeHold(t.database.db, { transferId, reason: 'screening', detail: { listed_name: 'Test Listed Name', score: 0.93 } });
const release = (transferId: string) => releaseHolds(t.database.db, { transferId, by: max.id, note: 'cleared in the test' });

describe('a held transfer is refused at each staff action, and allowed once released', () => {
  it('processing (the status move)', async () => {
    const transfer = await createTransfer(t, sender.id, { paid: true });
    await hold(transfer.id);
    expect(refusal(await move(transfer.id, 'processing'))).toEqual([409, 'compliance_hold']);
    expect(refusal(await move(transfer.id, 'rejected'))).toEqual([409, 'compliance_hold']);
    expect((await row(transfer.id)).status).toBe('pending');
    expect(await release(transfer.id)).toBe(1);
    expect((await move(transfer.id, 'processing')).statusCode).toBe(200);
  });

  it('approval (four-eyes)', async () => {
    // USD 1,500: at or above the default threshold, so it needs a second staff member's approval.
    const transfer = await createTransfer(t, sender.id, { amount: '1500', paid: true });
    expect((await move(transfer.id, 'processing')).statusCode).toBe(200);
    await hold(transfer.id);
    expect(refusal(await call(max.token, 'POST', `/api/transfer-requests/${transfer.id}/approve`, {}))).toEqual([409, 'compliance_hold']);
    expect((await row(transfer.id)).approved_by).toBeNull();
    await release(transfer.id);
    expect((await call(max.token, 'POST', `/api/transfer-requests/${transfer.id}/approve`, {})).statusCode).toBe(200);
  });

  it('payout', async () => {
    const transfer = await createTransfer(t, sender.id, { paid: true });
    expect((await move(transfer.id, 'processing')).statusCode).toBe(200);
    await hold(transfer.id);
    const payout = () => call(mia.token, 'POST', `/api/transfer-requests/${transfer.id}/payout`, { reference: 'AIRTEL-1' });
    expect(refusal(await payout())).toEqual([409, 'compliance_hold']);
    expect((await row(transfer.id)).payout_status).toBe('not_sent');
    await release(transfer.id);
    expect((await payout()).statusCode).toBe(200);
  });

  it('refund made by hand', async () => {
    const transfer = await createTransfer(t, sender.id, { paid: true });
    expect((await move(transfer.id, 'rejected')).statusCode).toBe(200);
    await hold(transfer.id);
    const refund = () => call(mia.token, 'POST', `/api/transfer-requests/${transfer.id}/refund`, { reference: 'REFUND-1' });
    expect(refusal(await refund())).toEqual([409, 'compliance_hold']);
    expect((await row(transfer.id)).payment_status).toBe('refund_due');
    await release(transfer.id);
    expect((await refund()).json().data.payment_status).toBe('refunded');
  });

  async function authorizedPayPalTransfer(amount: string) {
    const res = await call(sender.token, 'POST', '/api/payments/initiate', {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const back = await fetch(res.json().payment_url, { redirect: 'manual' });
    const url = new URL(back.headers.get('location')!);
    await t.request({ method: 'GET', url: `${url.pathname}${url.search}` });
    const stored = await row(res.json().data.id);
    expect(stored.payment_status).toBe('authorized');
    return stored;
  }

  it('PayPal capture: nothing is asked of PayPal while held', async () => {
    const transfer = await authorizedPayPalTransfer('120');
    await hold(transfer.id);
    expect(refusal(await move(transfer.id, 'processing'))).toEqual([409, 'compliance_hold']);
    expect(paypal.calls('capture').filter((c) => c.path.includes(transfer.provider_authorization_id!))).toHaveLength(0);
    await release(transfer.id);
    expect((await move(transfer.id, 'processing')).statusCode).toBe(200);
    expect((await row(transfer.id)).payment_status).toBe('received');
  });

  it('PayPal refund: no refund is requested while held', async () => {
    const transfer = await authorizedPayPalTransfer('130');
    expect((await move(transfer.id, 'processing')).statusCode).toBe(200);
    expect((await move(transfer.id, 'rejected')).statusCode).toBe(200);
    await hold(transfer.id);
    const refund = () => call(mia.token, 'POST', `/api/transfer-requests/${transfer.id}/refund`, {});
    expect(refusal(await refund())).toEqual([409, 'compliance_hold']);
    await t.jobsDone();
    const captureId = (await row(transfer.id)).provider_txn_id!;
    expect(paypal.calls('refund').filter((c) => c.path.includes(captureId))).toHaveLength(0);
    await release(transfer.id);
    const res = await refund();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.refund_requested_at).toEqual(expect.any(String));
  });

  it('says why in French too', async () => {
    const transfer = await createTransfer(t, sender.id, { paid: true });
    await hold(transfer.id);
    const res = await call(mia.token, 'PATCH', `/api/transfer-requests/${transfer.id}`, { status: 'processing' }, 'fr');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/retenu pour une vérification de conformité/);
  });
});

describe('a sender-wide hold', () => {
  it('holds every transfer of that sender, new ones too, and only theirs', async () => {
    const held = await createUser(t, { full_name: 'Held Sender' });
    const before = await createTransfer(t, held.id, { paid: true });
    await placeHold(t.database.db, { profileId: held.id, reason: 'screening', detail: { listed_name: 'Held Sender' } });
    const after = await createTransfer(t, held.id, { paid: true });
    const other = await createTransfer(t, sender.id, { paid: true });
    expect(refusal(await move(before.id, 'processing'))).toEqual([409, 'compliance_hold']);
    expect(refusal(await move(after.id, 'processing'))).toEqual([409, 'compliance_hold']);
    expect((await move(other.id, 'processing')).statusCode).toBe(200);
    const detail = (await call(mia.token, 'GET', `/api/transfer-requests/${after.id}`)).json().data;
    expect(detail.holds).toEqual([expect.objectContaining({ reason: 'screening', sender_wide: true })]);
  });
});

describe('what each side reads', () => {
  it('the sender sees only that it is being checked; staff see the holds and why', async () => {
    const transfer = await createTransfer(t, sender.id);
    const mine = async () => (await call(sender.token, 'GET', `/api/transfer-requests/${transfer.id}`)).json().data;
    expect((await mine()).on_hold).toBe(false);
    await hold(transfer.id);
    const seen = await mine();
    expect(seen.on_hold).toBe(true);
    expect(seen.holds).toBeUndefined();
    expect(JSON.stringify(seen)).not.toMatch(/Test Listed Name|screening|0\.93/);
    const listed = (await call(sender.token, 'GET', '/api/transfer-requests?limit=100')).json().data as { id: string; on_hold?: boolean }[];
    expect(listed.find((x) => x.id === transfer.id)?.on_hold).toBe(true);
    const staff = (await call(mia.token, 'GET', `/api/transfer-requests/${transfer.id}`)).json().data;
    expect(staff.holds).toEqual([expect.objectContaining({ reason: 'screening', sender_wide: false, detail: { listed_name: 'Test Listed Name', score: 0.93 } })]);
    await release(transfer.id);
    expect((await mine()).on_hold).toBe(false);
    expect((await call(mia.token, 'GET', `/api/transfer-requests/${transfer.id}`)).json().data.holds).toEqual([]);
  });

  it('the metrics count the transfers held now', async () => {
    const scrape = async () => {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.statusCode).toBe(200);
      return Number(/^gabremit_held_transfers (\d+)$/m.exec(res.body)?.[1]);
    };
    const start = await scrape();
    const a = await createTransfer(t, sender.id);
    const b = await createTransfer(t, sender.id);
    await hold(a.id);
    await hold(b.id);
    expect(await scrape()).toBe(start + 2);
    await release(a.id);
    expect(await scrape()).toBe(start + 1);
    await release(b.id);
  });
});
