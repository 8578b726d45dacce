import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions, transferRequests } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { PayPalServer } from '../support/paypal-server.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let paypal: PayPalServer;
let smtp: SmtpListener;
let sender: TestUser;

beforeAll(async () => {
  paypal = await new PayPalServer().start();
  smtp = await new SmtpListener().start();
  t = await createTestApp({
    env: { PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url, SMTP_URL: smtp.url },
  });
  sender = await createUser(t);
});
afterAll(async () => {
  await t.close();
  await paypal.stop();
  await smtp.stop();
});

const usdToGabon = {
  source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
  destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24106123456' },
};

function initiate(body: Record<string, unknown>, key?: string) {
  return t.request({ method: 'POST', url: '/api/payments/initiate', payload: body, token: sender.token, headers: key ? { 'idempotency-key': key } : {} });
}

/** The payer approves on PayPal's page, which sends the browser back to our return URL. */
async function approve(paymentUrl: string): Promise<URL> {
  const res = await fetch(paymentUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

describe('paying with PayPal through Orders v2', () => {
  it('creates an order for the total, sends the payer to approve it, captures on return and stores the capture id', async () => {
    const res = await initiate(usdToGabon);
    expect(res.statusCode).toBe(201);
    const { payment_url, data } = res.json();
    expect(payment_url).toMatch(new RegExp(`^${paypal.url}/checkoutnow\\?token=`));
    const orderId = new URL(payment_url).searchParams.get('token')!;
    expect(paypal.orders.get(orderId)!.amount).toEqual({ currency_code: 'USD', value: '104.50' });
    expect(data.provider_order_id).toBe(orderId);

    const back = await approve(payment_url);
    expect(back.pathname).toBe('/api/payments/paypal/return');
    const ret = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(ret.statusCode).toBe(302);
    expect(ret.headers.location).toBe(`/pay/${data.id}`);

    const captureId = paypal.orders.get(orderId)!.captureId!;
    expect(captureId).toMatch(/^CAP-/);
    const [request] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, data.id));
    expect(request).toMatchObject({ provider_order_id: orderId, provider_txn_id: captureId, payment_status: 'received' });
    const [tx] = await t.database.db.select().from(transactions).where(eq(transactions.transfer_request_id, data.id));
    expect(tx!.provider_txn_id).toBe(captureId);
    await smtp.waitFor(sender.email, new RegExp(`Payment received for transfer ${request!.reference}`));

    // Coming back twice captures nothing more.
    const again = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(again.statusCode).toBe(302);
    expect(paypal.requests.filter((r) => r.path.endsWith('/capture'))).toHaveLength(1);

    // The sender finds the transfer by the PayPal capture id.
    const found = await t.request({ method: 'GET', url: `/api/transactions?q=${captureId}`, token: sender.token });
    expect(found.json().data.map((x: { transfer_request_id: string }) => x.transfer_request_id)).toEqual([data.id]);
  });

  it('does not mark a transfer paid when the payer never approved', async () => {
    const { payment_url, data } = (await initiate({ ...usdToGabon, amount: '50' })).json();
    const orderId = new URL(payment_url).searchParams.get('token')!;
    const ret = await t.request({ method: 'GET', url: `/api/payments/paypal/return?token=${orderId}` });
    expect(ret.statusCode).toBe(302);
    const [request] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, data.id));
    expect(request).toMatchObject({ payment_status: 'awaiting', provider_txn_id: null });
  });

  it('cancel at PayPal leads back to the transfer’s payment page; an unknown order to the history', async () => {
    const { payment_url, data } = (await initiate({ ...usdToGabon, amount: '60' })).json();
    const orderId = new URL(payment_url).searchParams.get('token')!;
    const cancel = await t.request({ method: 'GET', url: `/api/payments/paypal/cancel?token=${orderId}` });
    expect(cancel.headers.location).toBe(`/pay/${data.id}?paypal=cancelled`);
    const unknown = await t.request({ method: 'GET', url: '/api/payments/paypal/return?token=NOPE' });
    expect(unknown.headers.location).toBe('/history');
  });

  it('an idempotent retry gets the same approval page, with one order at PayPal', async () => {
    const before = paypal.orders.size;
    const a = await initiate({ ...usdToGabon, amount: '70' }, 'pp-key');
    const b = await initiate({ ...usdToGabon, amount: '70' }, 'pp-key');
    expect(b.json().payment_url).toBe(a.json().payment_url);
    expect(paypal.orders.size).toBe(before + 1);
  });

  it('sends the owner back to PayPal for an unpaid transfer, and only the owner', async () => {
    const { payment_url, data } = (await initiate({ ...usdToGabon, amount: '80' })).json();
    const detail = (await t.request({ method: 'GET', url: `/api/transfer-requests/${data.id}`, token: sender.token })).json().data;
    expect(detail.paypal_checkout).toBe(true);
    const again = await t.request({ method: 'POST', url: `/api/payments/${data.id}/paypal`, token: sender.token });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.payment_url).toBe(payment_url);
    const stranger = await createUser(t);
    expect((await t.request({ method: 'POST', url: `/api/payments/${data.id}/paypal`, token: stranger.token })).statusCode).toBe(404);
    // A malformed id names no transfer; signed out is told to sign in first.
    const malformed = await t.request({ method: 'POST', url: '/api/payments/not-a-uuid/paypal', token: sender.token });
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().code).toBe('not_found');
    expect((await t.request({ method: 'POST', url: `/api/payments/${data.id}/paypal` })).statusCode).toBe(401);
    await t.request({ method: 'POST', url: `/api/transfer-requests/${data.id}/cancel`, token: sender.token });
    const closed = await t.request({ method: 'POST', url: `/api/payments/${data.id}/paypal`, token: sender.token });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toEqual({ error: 'This transfer cannot be paid with PayPal any more.', code: 'paypal_not_payable' });
  });

  it('mobile-money sources still pay on the app’s own page', async () => {
    const res = await initiate({
      source_provider: 'airtel_gabon', destination_provider: 'paypal_usd', amount: '10000', currency: 'XAF',
      destination_details: { recipient_name: 'Marie', recipient_email: 'marie@example.test' },
    });
    expect(res.json().payment_url).toBe(`/pay/${res.json().data.id}`);
  });
});
