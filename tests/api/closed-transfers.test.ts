import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer as insertTransfer } from './admin-fixtures.js';

// A closed transfer never asks to be paid (docs/rules/transfers.md#cancel-and-reject): once
// rejected or cancelled, its detail carries no payment instructions and its e-mails say what
// happened (and when money received comes back), never how to pay.

const INSTRUCTIONS = 'PayPal: pay-here-closed-test@example.test';

let t: TestApp;
let smtp: SmtpListener;
let alice: TestUser;
let manager: TestUser;

beforeAll(async () => {
  smtp = await new SmtpListener().start();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PAYMENT_INSTRUCTIONS_PAYPAL: INSTRUCTIONS } });
  [alice, manager] = await Promise.all([createUser(t, { full_name: 'Alice' }), createUser(t, { role: 'manager' })]);
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

async function initiate(amount = '100'): Promise<{ id: string; reference: string }> {
  const res = await t.request({
    method: 'POST', url: '/api/payments/initiate', token: alice.token,
    payload: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

const detail = async (id: string) => (await t.request({ method: 'GET', url: `/api/transfer-requests/${id}`, token: alice.token })).json().data;
const cancel = (id: string) => t.request({ method: 'POST', url: `/api/transfer-requests/${id}/cancel`, token: alice.token });
const reject = (id: string) => t.request({ method: 'PATCH', url: `/api/transfer-requests/${id}`, token: manager.token, payload: { status: 'rejected', note: 'The recipient number is not registered.' } });

/** The body of an e-mail: what the sender reads, without the headers. */
const bodyOf = (raw: string) => raw.slice(raw.search(/\r?\n\r?\n/));

/** Nothing in an e-mail tells the sender to pay, or where. */
function expectNoPaymentAsked(body: string): void {
  expect(body).not.toContain(INSTRUCTIONS);
  expect(body).not.toMatch(/\bPay\b|you send|to pay\b/);
}

describe('the detail of a transfer', () => {
  it('says where to pay while the payment is awaited, and not once it is cancelled or rejected', async () => {
    const open = await initiate();
    expect(await detail(open.id)).toMatchObject({ status: 'pending', payment_status: 'awaiting', payment_instructions: INSTRUCTIONS });

    const cancelled = await initiate();
    expect((await cancel(cancelled.id)).statusCode).toBe(200);
    expect(await detail(cancelled.id)).toMatchObject({ status: 'cancelled', payment_instructions: null });

    const rejected = await initiate();
    expect((await reject(rejected.id)).statusCode).toBe(200);
    expect(await detail(rejected.id)).toMatchObject({ status: 'rejected', payment_instructions: null });
    // Staff's detail neither.
    const staff = (await t.request({ method: 'GET', url: `/api/transfer-requests/${rejected.id}`, token: manager.token })).json().data;
    expect(staff.payment_instructions).toBeNull();
  });

  it('does not ask again for money already received', async () => {
    const paid = await insertTransfer(t, alice.id, { paid: true, status: 'processing' });
    expect(await detail(paid.id)).toMatchObject({ payment_status: 'received', payment_instructions: null });
  });
});

describe('the e-mails of a closed transfer', () => {
  it('cancelled with nothing paid: says it was cancelled and that nothing is owed or charged', async () => {
    const created = await initiate();
    // The creation e-mail asks for the payment: the closed one must not.
    expect(bodyOf((await smtp.waitFor(alice.email, new RegExp(`Transfer ${created.reference} created`))).raw)).toMatch(/Pay \$104\.50/);
    expect((await cancel(created.id)).statusCode).toBe(200);
    await t.jobsDone();
    const body = bodyOf((await smtp.waitFor(alice.email, new RegExp(`Transfer ${created.reference}: Cancelled`))).raw);
    expect(body).toContain(`The status of your transfer ${created.reference} is now: Cancelled.`);
    expect(body).toContain('No payment was received for this transfer, so nothing is owed to you and nothing will be charged.');
    expect(body).toContain('Nothing is to be paid for this transfer.');
    expectNoPaymentAsked(body);
  });

  it('rejected after the payment was received: gives the reason and says the refund comes within 5-7 business days', async () => {
    const paid = await insertTransfer(t, alice.id, { paid: true });
    expect((await reject(paid.id)).statusCode).toBe(200);
    await t.jobsDone();
    const body = bodyOf((await smtp.waitFor(alice.email, new RegExp(`Transfer ${paid.reference}: Rejected`))).raw);
    expect(body).toContain('Message from our team: The recipient number is not registered.');
    expect(body).toContain('Your payment was received, so it will be refunded within 5-7 business days.');
    expectNoPaymentAsked(body);
    expect((await detail(paid.id)).payment_status).toBe('refund_due');
  });

  it('in French too', async () => {
    const pierre = await createUser(t, { full_name: 'Pierre', language: 'fr' });
    const paid = await insertTransfer(t, pierre.id, { paid: true });
    expect((await reject(paid.id)).statusCode).toBe(200);
    await t.jobsDone();
    // The listener keeps the quoted-printable bytes one character each: read them back as UTF-8.
    const mail = await smtp.waitFor(pierre.email, new RegExp(`Bonjour Pierre,[\\s\\S]*${paid.reference}`));
    const body = Buffer.from(bodyOf(mail.raw), 'latin1').toString('utf8');
    expect(body).toContain('il vous sera remboursé sous 5 à 7 jours ouvrés');
    expect(body).toContain('Plus rien n’est à payer pour ce transfert.');
    expect(body).not.toMatch(/vous envoyez|Payez/);
  });
});
