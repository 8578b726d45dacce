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
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  paypal = await new PayPalServer().start();
  smtp = await new SmtpListener().start();
  t = await createTestApp({
    env: {
      PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url, SMTP_URL: smtp.url,
      // Two attempts: a job failing once is retried (after about 3 s), failing twice is parked.
      JOB_MAX_ATTEMPTS: '2',
    },
  });
  [sender, staff, admin] = await Promise.all([createUser(t), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
});
afterAll(async () => {
  await t.close();
  await paypal.stop();
  await smtp.stop();
});

const usdToGabon = {
  source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
  destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
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

async function requestRow(id: string) {
  const [row] = await t.database.db.select().from(transferRequests).where(eq(transferRequests.id, id));
  return row!;
}

async function ledgerKinds(id: string): Promise<string[]> {
  const res = await t.request({ method: 'GET', url: `/api/ledger/entries?transfer_id=${id}`, token: admin.token });
  expect(res.statusCode).toBe(200);
  return res.json().data.map((e: { kind: string }) => e.kind);
}

async function events(id: string): Promise<(string | null)[]> {
  const res = await t.request({ method: 'GET', url: `/api/transfer-requests/${id}`, token: staff.token });
  return res.json().data.history.map((h: { event: string | null; to_status: string }) => h.event ?? h.to_status);
}

/** A transfer the sender approved at PayPal and came back from: its payment authorized. */
async function authorizedTransfer(amount: string): Promise<{ id: string; reference: string; authorizationId: string }> {
  const { payment_url, data } = (await initiate({ ...usdToGabon, amount })).json();
  const back = await approve(payment_url);
  await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
  const row = await requestRow(data.id);
  expect(row.payment_status).toBe('authorized');
  return { id: data.id, reference: data.reference, authorizationId: row.provider_authorization_id! };
}

function move(id: string, status: string) {
  return t.request({ method: 'PATCH', url: `/api/transfer-requests/${id}`, payload: { status }, token: staff.token });
}

const capturesOf = (authorizationId: string) => [...paypal.captures.values()].filter((c) => c.authorizationId === authorizationId);

describe('paying with PayPal through Orders v2', () => {
  it('creates an order for the total, sends the payer to approve it, authorizes on return and charges nothing yet', async () => {
    const res = await initiate(usdToGabon);
    expect(res.statusCode).toBe(201);
    const { payment_url, data } = res.json();
    expect(payment_url).toMatch(new RegExp(`^${paypal.url}/checkoutnow\\?token=`));
    const orderId = new URL(payment_url).searchParams.get('token')!;
    expect(paypal.orders.get(orderId)).toMatchObject({ intent: 'AUTHORIZE', amount: { currency_code: 'USD', value: '104.50' } });
    expect(data.provider_order_id).toBe(orderId);

    const back = await approve(payment_url);
    expect(back.pathname).toBe('/api/payments/paypal/return');
    const ret = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(ret.statusCode).toBe(302);
    expect(ret.headers.location).toBe(`/pay/${data.id}`);

    const authorizationId = paypal.orders.get(orderId)!.authorizationId!;
    expect(authorizationId).toMatch(/^AUTH-/);
    expect(paypal.authorizations.get(authorizationId)!.status).toBe('CREATED');
    expect(await requestRow(data.id)).toMatchObject({
      provider_order_id: orderId, provider_authorization_id: authorizationId, provider_txn_id: null, payment_status: 'authorized', payment_amount: null,
    });
    expect(paypal.calls('capture')).toHaveLength(0);
    expect(await ledgerKinds(data.id)).toEqual([]);
    const detail = (await t.request({ method: 'GET', url: `/api/transfer-requests/${data.id}`, token: sender.token })).json().data;
    expect(detail.history.map((h: { event: string | null }) => h.event)).toEqual([null, 'payment_authorized']);

    // Coming back twice authorizes nothing more.
    const again = await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(again.statusCode).toBe(302);
    expect(paypal.calls('authorize')).toHaveLength(1);
    expect([...paypal.authorizations.values()].filter((a) => a.orderId === orderId)).toHaveLength(1);
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

describe('PayPal: capture at processing, void on close, refund through PayPal (docs/rules/money-states.md)', () => {
  it('staff moving an authorized transfer to processing capture it: received, capture id kept, ledger payment entry', async () => {
    const { id, reference, authorizationId } = await authorizedTransfer('100');
    const res = await move(id, 'processing');
    expect(res.statusCode).toBe(200);
    const [capture] = capturesOf(authorizationId);
    expect(capture).toMatchObject({ status: 'COMPLETED', amount: { currency_code: 'USD', value: '104.50' } });
    expect(res.json().data).toMatchObject({
      status: 'processing', payment_status: 'received', payment_amount: '104.50', payment_reference: capture!.id,
      provider_txn_id: capture!.id, payment_flagged: false,
    });
    // Asked once, with the request id the authorization fixes (a retry would get the same capture).
    expect(paypal.calls('capture').filter((c) => c.path.includes(authorizationId)).map((c) => c.requestId)).toEqual([`capture-${authorizationId}`]);
    const [tx] = await t.database.db.select().from(transactions).where(eq(transactions.transfer_request_id, id));
    expect(tx).toMatchObject({ provider_txn_id: capture!.id, status: 'processing' });
    expect(await ledgerKinds(id)).toEqual(['payment']);
    expect(await events(id)).toEqual(['pending', 'payment_authorized', 'payment_received', 'processing']);
    await t.jobsDone();
    await smtp.waitFor(sender.email, new RegExp(`Transfer ${reference}: Processing`));

    // The sender finds the transfer by the PayPal capture id.
    const found = await t.request({ method: 'GET', url: `/api/transactions?q=${capture!.id}`, token: sender.token });
    expect(found.json().data.map((x: { transfer_request_id: string }) => x.transfer_request_id)).toEqual([id]);

    // Then paid out and completed as any other transfer.
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/payout`, payload: { reference: 'AM-778812' }, token: staff.token })).statusCode).toBe(200);
    expect((await move(id, 'completed')).statusCode).toBe(200);
    expect(await ledgerKinds(id)).toEqual(['payment', 'payout', 'fee']);
  });

  it('a capture PayPal refuses fails the move with its reason and changes nothing; unreachable is 502; a later try captures', async () => {
    const { id, authorizationId } = await authorizedTransfer('110');
    const before = await requestRow(id);
    paypal.failNext('capture', { kind: 'refused', issue: 'INSTRUMENT_DECLINED', description: 'The instrument presented was either declined by the processor or bank.' });
    const refused = await move(id, 'processing');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'paypal_capture_refused',
      error: 'PayPal refused to capture the payment (INSTRUMENT_DECLINED: The instrument presented was either declined by the processor or bank.). '
        + 'Nothing was charged and the transfer was not moved.',
    });
    paypal.failNext('capture', { kind: 'down' });
    const down = await move(id, 'processing');
    expect(down.statusCode).toBe(502);
    expect(down.json().code).toBe('paypal_capture_unavailable');

    const after = await requestRow(id);
    expect(after).toMatchObject({ status: 'pending', payment_status: 'authorized', provider_txn_id: null, payment_amount: null, version: before.version });
    expect(await ledgerKinds(id)).toEqual([]);
    expect(await events(id)).toEqual(['pending', 'payment_authorized']);
    expect(capturesOf(authorizationId)).toHaveLength(0);

    expect((await move(id, 'processing')).json().data.payment_status).toBe('received');
    expect(capturesOf(authorizationId)).toHaveLength(1);
  });

  it('a capture whose answer was lost is captured once: the retry gets the same capture back', async () => {
    const { id, authorizationId } = await authorizedTransfer('120');
    paypal.failNext('capture', { kind: 'lost' });
    expect((await move(id, 'processing')).statusCode).toBe(502);
    expect((await requestRow(id)).payment_status).toBe('authorized');
    const retried = await move(id, 'processing');
    expect(retried.statusCode).toBe(200);
    const captures = capturesOf(authorizationId);
    expect(captures).toHaveLength(1);
    expect(retried.json().data.provider_txn_id).toBe(captures[0]!.id);
    expect(await ledgerKinds(id)).toEqual(['payment']);
  });

  it('a PayPal transfer the sender never approved cannot be processed', async () => {
    const { data } = (await initiate({ ...usdToGabon, amount: '130' })).json();
    const res = await move(data.id, 'processing');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: 'processing_needs_approval', error: 'This transfer cannot be processed yet: the sender has not approved the payment at PayPal.',
    });
    expect((await requestRow(data.id)).status).toBe('pending');
  });

  it('cancelling while authorized voids the authorization once; nothing is captured', async () => {
    const { id, authorizationId } = await authorizedTransfer('140');
    const res = await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/cancel`, token: sender.token });
    expect(res.statusCode).toBe(200);
    // Queued with the cancellation; voided once PayPal confirms.
    expect(res.json().data).toMatchObject({ status: 'cancelled', payment_status: 'authorized' });
    await t.jobsDone();
    expect(await requestRow(id)).toMatchObject({ status: 'cancelled', payment_status: 'voided' });
    expect(paypal.authorizations.get(authorizationId)!.status).toBe('VOIDED');
    expect(paypal.calls('void').filter((c) => c.path.includes(authorizationId)).map((c) => c.requestId)).toEqual([`paypal_void:${id}`]);
    expect(capturesOf(authorizationId)).toHaveLength(0);
    expect(await ledgerKinds(id)).toEqual([]);
    expect(await events(id)).toEqual(['pending', 'payment_authorized', 'cancelled', 'payment_voided']);
  });

  it('a payment approved after the transfer was cancelled is authorized, then voided', async () => {
    const { payment_url, data } = (await initiate({ ...usdToGabon, amount: '150' })).json();
    expect((await t.request({ method: 'POST', url: `/api/transfer-requests/${data.id}/cancel`, token: sender.token })).statusCode).toBe(200);
    const back = await approve(payment_url);
    await t.request({ method: 'GET', url: `${back.pathname}${back.search}` });
    await t.jobsDone();
    const row = await requestRow(data.id);
    expect(row).toMatchObject({ status: 'cancelled', payment_status: 'voided' });
    expect(paypal.authorizations.get(row.provider_authorization_id!)!.status).toBe('VOIDED');
    expect(capturesOf(row.provider_authorization_id!)).toHaveLength(0);
    expect(await events(data.id)).toEqual(['pending', 'cancelled', 'payment_authorized', 'payment_voided']);
  });

  it('a refund goes through PayPal as a job: requested, then refunded once with PayPal’s id even when its first answer was lost', async () => {
    const { id, reference } = await authorizedTransfer('160');
    expect((await move(id, 'processing')).statusCode).toBe(200);
    expect((await move(id, 'rejected')).json().data.payment_status).toBe('refund_due');
    const captureId = (await requestRow(id)).provider_txn_id!;

    // PayPal refunds, but its answer is lost: the job fails once and is retried with the same request id.
    paypal.failNext('refund', { kind: 'lost' });
    const res = await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/refund`, payload: {}, token: staff.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ payment_status: 'refund_due', refund_reference: null });
    expect(res.json().data.refund_requested_at).toEqual(expect.any(String));
    const detail = (await t.request({ method: 'GET', url: `/api/transfer-requests/${id}`, token: sender.token })).json().data;
    expect(detail.refund_requested_at).toBe(res.json().data.refund_requested_at);
    const twice = await t.request({ method: 'POST', url: `/api/transfer-requests/${id}/refund`, payload: {}, token: staff.token });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('refund_already_requested');

    await t.jobsDone();
    const refunds = [...paypal.refunds.values()].filter((r) => r.captureId === captureId);
    expect(refunds).toHaveLength(1);
    expect(paypal.calls('refund').filter((c) => c.path.includes(captureId)).map((c) => c.requestId)).toEqual([`paypal_refund:${id}`, `paypal_refund:${id}`]);
    expect(await requestRow(id)).toMatchObject({ payment_status: 'refunded', refund_reference: refunds[0]!.id, refunded_by: staff.id });
    expect(await ledgerKinds(id)).toEqual(['payment', 'refund_due', 'refund']);
    expect((await events(id)).slice(-1)).toEqual(['refunded']);
    const after = (await t.request({ method: 'GET', url: `/api/transfer-requests/${id}`, token: sender.token })).json().data;
    expect(after).toMatchObject({ payment_status: 'refunded', refund_requested_at: null });
    await smtp.waitFor(sender.email, new RegExp(`Refund made for transfer ${reference}`));
  });

  it('a void PayPal keeps refusing is parked for the admin, the payment still authorized, and done on retry', async () => {
    const { id, authorizationId } = await authorizedTransfer('170');
    paypal.failNext('void', { kind: 'down' }, 2);
    expect((await move(id, 'rejected')).json().data).toMatchObject({ status: 'rejected', payment_status: 'authorized' });
    type ParkedJob = { id: string; kind: string; last_error: string };
    const parkedVoid = async (): Promise<ParkedJob | undefined> => {
      for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
        const jobs = (await t.request({ method: 'GET', url: '/api/admin/jobs', token: admin.token })).json().data as ParkedJob[];
        const found = jobs.find((j) => j.kind === 'paypal_void');
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return undefined;
    };
    const parked = await parkedVoid();
    expect(parked).toBeDefined();
    expect(parked!.last_error).toMatch(/503/);
    // Not released yet, and the screens say so: the payment is still authorized.
    expect((await requestRow(id)).payment_status).toBe('authorized');
    expect(paypal.authorizations.get(authorizationId)!.status).toBe('CREATED');

    expect((await t.request({ method: 'POST', url: `/api/admin/jobs/${parked!.id}/retry`, token: admin.token })).statusCode).toBe(200);
    await t.jobsDone();
    expect((await requestRow(id)).payment_status).toBe('voided');
    expect(paypal.authorizations.get(authorizationId)!.status).toBe('VOIDED');
    expect(capturesOf(authorizationId)).toHaveLength(0);
  });
});
