import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactions, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let smtp: SmtpListener;
let sender: TestUser;

beforeAll(async () => {
  smtp = await new SmtpListener().start();
  t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  sender = await createUser(t, { full_name: 'Awa Sender' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const RECIPIENTS = {
  paypal: { recipient_email: 'marie@example.test', recipient_name: 'Marie Curie' },
  airtel_gabon: { recipient_name: 'Jean Ndong', recipient_phone: '+241 77 12 34 56' },
  mobile_rwanda: { recipient_name: 'Aline Uwase', recipient_phone: '+250 788 123 456' },
  bank_france: { account_holder: 'Paul Martin', iban: 'FR76 3000 6000 0112 3456 7890 189' },
} as const;

const DIRECTIONS: Record<string, [string, string, string]> = {
  USD_XAF: ['paypal_usd', 'airtel_gabon', 'USD'], USD_RWF: ['paypal_usd', 'mobile_rwanda', 'USD'],
  USD_EUR: ['paypal_usd', 'bank_france', 'USD'], EUR_XAF: ['paypal_eur', 'airtel_gabon', 'EUR'],
  EUR_RWF: ['paypal_eur', 'mobile_rwanda', 'EUR'], EUR_EUR: ['paypal_eur', 'bank_france', 'EUR'],
  XAF_USD: ['airtel_gabon', 'paypal_usd', 'XAF'], RWF_USD: ['mobile_rwanda', 'paypal_usd', 'RWF'],
  EUR_USD: ['bank_france', 'paypal_usd', 'EUR'], XAF_EUR: ['airtel_gabon', 'paypal_eur', 'XAF'],
  RWF_EUR: ['mobile_rwanda', 'paypal_eur', 'RWF'], EUR_EUR_FRANCE: ['bank_france', 'paypal_eur', 'EUR'],
};

function payload(direction: string, amount: string, extra: Record<string, unknown> = {}) {
  const [source, destination, currency] = DIRECTIONS[direction]!;
  const details = destination.startsWith('paypal') ? RECIPIENTS.paypal : RECIPIENTS[destination as keyof typeof RECIPIENTS];
  return { source_provider: source, destination_provider: destination, amount, currency, destination_details: details, source_details: { note: 'Birthday' }, ...extra };
}

function initiate(body: unknown, opts: { token?: string | null; key?: string; lang?: string } = {}) {
  return t.request({
    method: 'POST', url: '/api/payments/initiate', payload: body as Record<string, unknown>,
    token: opts.token === null ? undefined : (opts.token ?? sender.token),
    headers: { ...(opts.key ? { 'idempotency-key': opts.key } : {}), ...(opts.lang ? { 'accept-language': opts.lang } : {}) },
  });
}

describe('transfer submit rules, checked in order', () => {
  it('1. a signed-out caller is asked to sign in before anything else is checked', async () => {
    const res = await initiate({ amount: '-1' }, { token: null });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('Please sign in to create a transfer.');
  });

  it('2. an unsupported pair is refused first, even with a bad amount', async () => {
    const res = await initiate({ ...payload('USD_XAF', '0'), destination_provider: 'paypal_eur' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Selected source/destination pair is not supported.');
    const mobileToMobile = await initiate({ ...payload('XAF_USD', '5000'), destination_provider: 'mobile_rwanda' });
    expect(mobileToMobile.json().error).toBe('Selected source/destination pair is not supported.');
  });

  it('3. the amount must be greater than zero, before the recipient is checked', async () => {
    for (const amount of ['0', 'abc', '-5']) {
      const res = await initiate({ ...payload('USD_XAF', amount), destination_details: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Enter a valid amount greater than zero.');
      expect(res.json().fields).toHaveProperty('amount');
    }
  });

  it('4. a PayPal destination needs the e-mail, then the account name', async () => {
    const noEmail = await initiate({ ...payload('XAF_USD', '10000'), destination_details: { recipient_name: 'Marie' } });
    expect(noEmail.json().error).toBe('PayPal email address is required for PayPal transfers.');
    const noName = await initiate({ ...payload('XAF_USD', '10000'), destination_details: { recipient_email: 'm@example.test' } });
    expect(noName.json().error).toBe('Recipient account name is required for PayPal transfers.');
  });

  it('5. a mobile destination needs the phone; the name and notes are optional', async () => {
    const noPhone = await initiate({ ...payload('USD_XAF', '50'), destination_details: { recipient_name: 'Jean' } });
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().error).toBe('Please enter recipient phone number.');
    const minimal = await initiate({ ...payload('USD_XAF', '50'), destination_details: { recipient_phone: '+24177123456' }, source_details: {} });
    expect(minimal.statusCode).toBe(201);
  });

  it('a mobile payout number must be one of the destination\'s operators\', on the server too (tests/api/operator-numbers.test.ts has each range)', async () => {
    const rwandanToGabon = await initiate({ ...payload('USD_XAF', '50'), destination_details: { recipient_phone: '+250 788 123 456' } });
    expect(rwandanToGabon.statusCode).toBe(400);
    expect(rwandanToGabon.json().error).toBe('Enter a number from Airtel Gabon (+241 74… or 77…).');
    const tooShort = await initiate({ ...payload('USD_RWF', '50'), destination_details: { recipient_phone: '+250 788 12' } }, { lang: 'fr' });
    expect(tooShort.json().error).toBe('Saisissez un numéro Airtel Rwanda ou MTN Rwanda (+250 72…, 73…, 78… ou 79…).');
    const ok = await initiate({ ...payload('USD_RWF', '50'), destination_details: { recipient_phone: '+250 788 123 456' } });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.destination_details.recipient_phone).toBe('+250788123456');
  });

  it('the currency must be the source channel’s, and notes stay under 500 characters', async () => {
    const currency = await initiate({ ...payload('USD_XAF', '50'), currency: 'EUR' });
    expect(currency.json().error).toBe('The currency must be the currency of the source account.');
    const note = await initiate({ ...payload('USD_XAF', '50'), source_details: { note: 'x'.repeat(501) } });
    expect(note.json().error).toBe('Notes can be at most 500 characters.');
    const unknown = await initiate({ ...payload('USD_XAF', '50'), source_provider: 'bitcoin' });
    expect(unknown.json().error).toBe('Selected source/destination pair is not supported.');
  });

  it('a bank destination needs a valid IBAN; the messages follow the caller’s language', async () => {
    const bad = await initiate({ ...payload('USD_EUR', '50'), destination_details: { account_holder: 'Paul', iban: 'FR7630006000011234567890188' } });
    expect(bad.json().error).toBe('Enter a valid IBAN.');
    const fr = await initiate({ ...payload('USD_XAF', '0') }, { lang: 'fr-FR' });
    expect(fr.json().error).not.toBe('Enter a valid amount greater than zero.');
    expect(fr.json().error).toMatch(/montant/i);
  });
});

describe('corridor limits', () => {
  it('refuses amounts outside the corridor with the limit in the message', async () => {
    const below = await initiate(payload('USD_XAF', '4.99'));
    expect(below.statusCode).toBe(400);
    expect(below.json().error).toBe('The minimum for this corridor is $5.00.');
    const above = await initiate(payload('USD_XAF', '2000.01'));
    expect(above.json().error).toBe('The maximum for this corridor is $2,000.00.');
    const xaf = await initiate(payload('XAF_USD', '2999'));
    expect(xaf.json().error).toMatch(/^The minimum for this corridor is .*3,000/);
    const rwf = await initiate(payload('RWF_EUR', '2000001'));
    expect(rwf.json().error).toMatch(/^The maximum for this corridor is .*2,000,000/);
  });

  it('accepts both ends of a corridor', async () => {
    expect((await initiate(payload('USD_XAF', '5'))).statusCode).toBe(201);
    expect((await initiate(payload('USD_XAF', '2000'))).statusCode).toBe(201);
    expect((await initiate(payload('XAF_USD', '1200000'))).statusCode).toBe(201);
  });
});

// Expected fees worked out by hand from the fees-page table (docs/rules/fees-and-rates.md): first tier up to and including
// its upper bound, then the next tier; the first tier's minimum fee; half-up rounding to the minor unit; and one minor unit
// above an edge, never less than the edge's fee (docs/rules/fees-and-rates.md#tiers).
const FEE_EDGES: [string, string, string, string][] = [
  ['USD_XAF', '5', '3.00', '8.00'], ['USD_XAF', '100', '4.50', '104.50'], ['USD_XAF', '100.01', '4.50', '104.51'], ['USD_XAF', '500', '19.50', '519.50'], ['USD_XAF', '500.01', '19.50', '519.51'],
  ['USD_RWF', '5', '3.00', '8.00'], ['USD_RWF', '100', '4.80', '104.80'], ['USD_RWF', '100.01', '4.80', '104.81'], ['USD_RWF', '500', '20.50', '520.50'], ['USD_RWF', '500.01', '20.50', '520.51'],
  ['USD_EUR', '5', '0.16', '5.16'], ['USD_EUR', '100', '3.20', '103.20'], ['USD_EUR', '100.01', '3.20', '103.21'], ['USD_EUR', '500', '14.00', '514.00'], ['USD_EUR', '500.01', '14.00', '514.01'],
  ['EUR_XAF', '5', '2.50', '7.50'], ['EUR_XAF', '100', '4.30', '104.30'], ['EUR_XAF', '100.01', '4.30', '104.31'], ['EUR_XAF', '500', '18.50', '518.50'], ['EUR_XAF', '500.01', '18.50', '518.51'],
  ['EUR_RWF', '5', '2.50', '7.50'], ['EUR_RWF', '100', '4.60', '104.60'], ['EUR_RWF', '100.01', '4.60', '104.61'], ['EUR_RWF', '500', '19.50', '519.50'], ['EUR_RWF', '500.01', '19.50', '519.51'],
  ['EUR_EUR', '5', '0.13', '5.13'], ['EUR_EUR', '100', '2.50', '102.50'], ['EUR_EUR', '100.01', '2.50', '102.51'], ['EUR_EUR', '500', '10.50', '510.50'], ['EUR_EUR', '500.01', '10.50', '510.51'],
  ['EUR_USD', '5', '0.16', '5.16'], ['EUR_USD', '100', '3.10', '103.10'], ['EUR_USD', '100.01', '3.10', '103.11'], ['EUR_USD', '500', '13.50', '513.50'], ['EUR_USD', '500.01', '13.50', '513.51'],
  ['EUR_EUR_FRANCE', '5', '0.12', '5.12'], ['EUR_EUR_FRANCE', '100', '2.40', '102.40'], ['EUR_EUR_FRANCE', '100.01', '2.40', '102.41'], ['EUR_EUR_FRANCE', '500', '10.00', '510.00'], ['EUR_EUR_FRANCE', '500.01', '10.00', '510.01'],
  ['XAF_USD', '3000', '1800', '4800'], ['XAF_USD', '60000', '2520', '62520'], ['XAF_USD', '60001', '2520', '62521'], ['XAF_USD', '300000', '10800', '310800'], ['XAF_USD', '300001', '10800', '310801'],
  ['RWF_USD', '5000', '1500', '6500'], ['RWF_USD', '120000', '5280', '125280'], ['RWF_USD', '120001', '5280', '125281'], ['RWF_USD', '600000', '22200', '622200'], ['RWF_USD', '600001', '22200', '622201'],
  ['XAF_EUR', '5000', '1500', '6500'], ['XAF_EUR', '65000', '2600', '67600'], ['XAF_EUR', '65001', '2600', '67601'], ['XAF_EUR', '327500', '11135', '338635'], ['XAF_EUR', '327501', '11135', '338636'],
  ['RWF_EUR', '5000', '1400', '6400'], ['RWF_EUR', '140000', '5880', '145880'], ['RWF_EUR', '140001', '5880', '145881'], ['RWF_EUR', '700000', '24500', '724500'], ['RWF_EUR', '700001', '24500', '724501'],
];

describe('each corridor is charged its fee at the tier edges and minimum fee', () => {
  it.each(FEE_EDGES)('%s %s → fee %s, total %s', async (direction, amount, fee, total) => {
    const res = await initiate(payload(direction, amount));
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    const currency = DIRECTIONS[direction]![2];
    const scale = currency === 'USD' || currency === 'EUR' ? 2 : 0;
    const asStored = (v: string) => (scale ? v : `${v}.00`);
    expect(data).toMatchObject({ direction, currency, fee: asStored(fee), total: asStored(total), status: 'pending' });
  });

  it('never trusts amounts sent by the client and stores the payout at the server rate', async () => {
    const res = await initiate({ ...payload('USD_XAF', '100'), fee: '0', total: '100', rate: '9999' });
    const { data } = res.json();
    expect(data).toMatchObject({ amount: '100.00', fee: '4.50', total: '104.50', payout_amount: '61000.00', payout_currency: 'XAF' });
    expect(Number(data.rate)).toBe(610);
    expect(data).not.toHaveProperty('idempotency_key');
  });
});

describe('creation', () => {
  it('stores the request, its transaction and the first history row, and answers the payment page', async () => {
    const res = await initiate(payload('XAF_USD', '10000', { save_recipient: true }));
    expect(res.statusCode).toBe(201);
    const { payment_url, data } = res.json();
    expect(payment_url).toBe(`/pay/${data.id}`);
    expect(data.reference).toMatch(/^MT-[A-Z0-9]{8}$/);
    const db = t.database.db;
    const [tx] = await db.select().from(transactions).where(eq(transactions.transfer_request_id, data.id));
    expect(tx).toMatchObject({ amount: '10000.00', currency: 'XAF', status: 'pending', profile_id: sender.id });
    const history = await db.select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, data.id));
    expect(history.map((h) => [h.from_status, h.to_status])).toEqual([[null, 'pending']]);
    const recipients = (await t.request({ method: 'GET', url: '/api/recipients', token: sender.token })).json().data;
    expect(recipients).toEqual(expect.arrayContaining([expect.objectContaining({ channel: 'paypal_usd', recipient_email: 'marie@example.test', recipient_name: 'Marie Curie' })]));
  });

  it('e-mails the sender that the transfer was created, in their language', async () => {
    // The e-mails of the transfers created above go first (a server's worker sends one at a time).
    await t.jobsDone(60_000);
    const res = await initiate(payload('USD_RWF', '120'));
    const { reference } = res.json().data;
    const mail = await smtp.waitFor(sender.email, new RegExp(`Transfer ${reference} created`));
    expect(mail.raw).toMatch(/Hello Awa Sender/);
    expect(mail.raw).toMatch(/Pay \$124\.92 to start it/);
    const french = await createUser(t, { language: 'fr', full_name: 'Bruno' });
    const fr = await initiate(payload('USD_XAF', '100'), { token: french.token });
    const frMail = await smtp.waitFor(french.email, new RegExp(`Votre transfert ${fr.json().data.reference}`));
    expect(frMail.raw).toMatch(/Bonjour Bruno/);
  });
});

describe('Idempotency-Key', () => {
  it('answers the same transfer for the same key and body, 422 for another body', async () => {
    const first = await initiate(payload('USD_XAF', '150'), { key: 'key-same-1' });
    const again = await initiate({ ...payload('USD_XAF', '150.00') }, { key: 'key-same-1' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(again.json().payment_url).toBe(first.json().payment_url);
    const other = await initiate(payload('USD_XAF', '151'), { key: 'key-same-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe('This request key was already used for a different transfer.');
  });

  it('creates exactly one transfer under concurrent identical requests', async () => {
    const user = await createUser(t);
    const answers = await Promise.all(Array.from({ length: 6 }, () => initiate(payload('EUR_XAF', '250'), { token: user.token, key: 'concurrent-1' })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((a) => a.json().data.id)).size).toBe(1);
    const rows = await t.database.db.select().from(transferRequests).where(eq(transferRequests.profile_id, user.id));
    expect(rows).toHaveLength(1);
    const txs = await t.database.db.select().from(transactions).where(eq(transactions.profile_id, user.id));
    expect(txs).toHaveLength(1);
  });

  it('keys are per sender: another sender’s identical key creates their own transfer', async () => {
    const other = await createUser(t);
    const a = await initiate(payload('USD_XAF', '80'), { key: 'shared-key' });
    const b = await initiate(payload('USD_XAF', '80'), { key: 'shared-key', token: other.token });
    expect(b.statusCode).toBe(201);
    expect(b.json().data.id).not.toBe(a.json().data.id);
  });
});
