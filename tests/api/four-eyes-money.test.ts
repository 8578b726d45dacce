import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { PayPalServer } from '../support/paypal-server.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Four-eyes comes before the money moves (docs/rules/back-office.md#four-eyes): at or above its
// currency's threshold, a transfer's payout is recorded, and its PayPal payment captured, only
// once a second staff member approved it. Refused: 409 with a stable code, and nothing changed.

let t: TestApp;
let paypal: PayPalServer;
let smtp: SmtpListener;
let sender: TestUser;
let mia: TestUser;
let max: TestUser;
let admin: TestUser;

beforeAll(async () => {
  paypal = await new PayPalServer().start();
  smtp = await new SmtpListener().start();
  t = await createTestApp({
    env: { PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url, SMTP_URL: smtp.url },
  });
  [sender, mia, max, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Sender' }),
    createUser(t, { role: 'manager', full_name: 'Mia Manager' }),
    createUser(t, { role: 'manager', full_name: 'Max Manager' }),
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }),
  ]);
});
afterAll(async () => {
  await t.close();
  await paypal.stop();
  await smtp.stop();
});

const call = (token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.request({ method, url, token, ...(payload ? { payload } : {}) });
const move = (token: string, id: string, status: string) => call(token, 'PATCH', `/api/transfer-requests/${id}`, { status });
const approve = (token: string, id: string) => call(token, 'POST', `/api/transfer-requests/${id}/approve`, {});
const payout = (token: string, id: string) => call(token, 'POST', `/api/transfer-requests/${id}/payout`, { reference: `AIRTEL-${id.slice(0, 6)}` });
const detail = async (id: string) => (await call(admin.token, 'GET', `/api/transfer-requests/${id}`)).json().data;
const ledgerKinds = async (id: string) =>
  (await call(admin.token, 'GET', `/api/ledger/entries?transfer_id=${id}`)).json().data.map((e: { kind: string }) => e.kind);
const auditActions = async (id: string) =>
  (await call(admin.token, 'GET', `/api/audit?target_id=${id}`)).json().data.map((e: { action: string }) => e.action);
const refusal = (res: { statusCode: number; json(): { code: string } }) => [res.statusCode, res.json().code];

/** What a refused step must leave as it was: the money, the timeline, the books and the audit log. */
async function snapshot(id: string) {
  const d = await detail(id);
  return {
    status: d.status, payment_status: d.payment_status, payout_status: d.payout_status, payout_reference: d.payout_reference,
    steps: d.history.length, ledger: await ledgerKinds(id), audit: await auditActions(id),
  };
}

describe('the payout of a transfer at or above its threshold', () => {
  it('is refused until a second staff member approved it, with nothing changed and no e-mail; then recorded', async () => {
    // USD 1,500 ≥ USD 1,000 (the default threshold); paid in by hand, processed by Mia.
    const transfer = await createTransfer(t, sender.id, { amount: '1500', paid: true });
    expect((await move(mia.token, transfer.id, 'processing')).statusCode).toBe(200);
    await t.jobsDone();
    const before = await snapshot(transfer.id);
    const mailsBefore = smtp.messages.length;

    const refused = await payout(mia.token, transfer.id);
    expect(refusal(refused)).toEqual([409, 'payout_needs_approval']);
    expect(refused.json().error).toBe('This transfer is at or above its approval threshold: a second staff member must approve it before its payout is recorded. Nothing was changed.');
    expect(await snapshot(transfer.id)).toEqual(before);
    expect(before).toMatchObject({ payout_status: 'not_sent', payout_reference: null });
    await t.jobsDone();
    expect(smtp.messages.slice(mailsBefore)).toEqual([]);

    // In French too, with the same code.
    const fr = await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/payout`, token: mia.token, headers: { 'accept-language': 'fr' }, payload: { reference: 'X-1' } });
    expect(refusal(fr)).toEqual([409, 'payout_needs_approval']);
    expect(fr.json().error).toMatch(/^Ce transfert atteint son seuil d’approbation/);

    expect((await approve(max.token, transfer.id)).statusCode).toBe(200);
    const recorded = await payout(mia.token, transfer.id);
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json().data).toMatchObject({ payout_status: 'sent' });
    expect(await ledgerKinds(transfer.id)).toContain('payout');
    await t.jobsDone();
    await smtp.waitFor(sender.email, /paid out/);
    expect((await move(mia.token, transfer.id, 'completed')).statusCode).toBe(200);
  });

  it('applies from the threshold itself; under it the payout needs no approval', async () => {
    const at = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount: '600000', paid: true });
    expect(refusal(await payout(mia.token, at.id))).toEqual([409, 'payout_needs_approval']);
    const under = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount: '599999', paid: true });
    expect((await payout(mia.token, under.id)).statusCode).toBe(200);
  });

  it('is checked after the money states: a payout without the payment still says the payment is missing', async () => {
    const unpaid = await createTransfer(t, sender.id, { amount: '1500' });
    expect(refusal(await payout(mia.token, unpaid.id))).toEqual([409, 'payout_needs_payment']);
  });
});

describe('the PayPal capture of a transfer at or above its threshold', () => {
  const usdToGabon = (amount: string) => ({
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency: 'USD',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
  });

  /** The sender approved at PayPal and came back: the payment is authorized, nothing captured. */
  async function authorized(amount: string): Promise<{ id: string; authorizationId: string }> {
    const created = await call(sender.token, 'POST', '/api/payments/initiate', usdToGabon(amount));
    expect(created.statusCode, created.body).toBe(201);
    const { payment_url, data } = created.json();
    const back = await fetch(payment_url, { redirect: 'manual' });
    const location = new URL(back.headers.get('location')!);
    await t.request({ method: 'GET', url: `${location.pathname}${location.search}` });
    const d = await detail(data.id);
    expect(d.payment_status).toBe('authorized');
    const authorization = [...paypal.authorizations.values()].find((a) => a.orderId === d.provider_order_id);
    return { id: data.id, authorizationId: authorization!.id };
  }
  const capturesOf = (authorizationId: string) => [...paypal.captures.values()].filter((c) => c.authorizationId === authorizationId);
  const captureCalls = (authorizationId: string) => paypal.calls('capture').filter((c) => c.path.includes(authorizationId));

  it('waits for the approval: processing is refused before PayPal is asked, nothing charged or changed', async () => {
    const { id, authorizationId } = await authorized('1500');
    const before = await snapshot(id);

    const refused = await move(mia.token, id, 'processing');
    expect(refusal(refused)).toEqual([409, 'capture_needs_approval']);
    expect(refused.json().error).toBe('This transfer is at or above its approval threshold: a second staff member must approve it before its PayPal payment is captured and it is processed. Nothing was charged or changed.');
    expect(captureCalls(authorizationId)).toEqual([]);
    expect(await snapshot(id)).toEqual(before);
    expect(before).toMatchObject({ status: 'pending', payment_status: 'authorized', ledger: [] });

    // Approved by Max, who then may not process it himself; Mia's move captures it.
    expect((await approve(max.token, id)).statusCode).toBe(200);
    expect(refusal(await move(max.token, id, 'processing'))).toEqual([409, 'approval_same_staff']);
    expect(captureCalls(authorizationId)).toEqual([]);
    const processed = await move(mia.token, id, 'processing');
    expect(processed.statusCode, processed.body).toBe(200);
    expect(processed.json().data).toMatchObject({ status: 'processing', payment_status: 'received' });
    expect(capturesOf(authorizationId)).toHaveLength(1);
  });

  it('under the threshold is captured at processing without an approval', async () => {
    const { id, authorizationId } = await authorized('100');
    expect((await move(mia.token, id, 'processing')).statusCode).toBe(200);
    expect(capturesOf(authorizationId)).toHaveLength(1);
  });
});
