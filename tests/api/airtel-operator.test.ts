import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AirtelOperator, airtelCallbackReference, type AirtelSettings } from '@server/modules/rails/airtel.js';
import type { Collection, Disbursement, OperatorStep } from '@server/modules/rails/operator.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';

// The Airtel Money client against its loopback peer: every answer and fault ends in the outcome
// the payout rails decide on, the recipient paid once or not at all. No app server is needed.

const TIMEOUT_MS = 400;
const RECIPIENT = '+24177123456';
let peer: AirtelPeer;
let airtel: AirtelOperator;
/** Every step any call gave, searched at the end for anything secret. */
const steps: OperatorStep[] = [];

function client(overrides: Partial<AirtelSettings> = {}): AirtelOperator {
  return new AirtelOperator({
    baseUrl: peer.url, clientId: peer.clientId, clientSecret: peer.clientSecret, pin: peer.pin, publicKeyPem: peer.publicKeyPem,
    country: 'GA', timeoutMs: TIMEOUT_MS, ...overrides,
  });
}

function kept<T extends { step: OperatorStep }>(answer: T): T {
  steps.push(answer.step);
  return answer;
}

function payout(reference: string, amount = '15000', msisdn = RECIPIENT): Disbursement {
  return { reference, msisdn, amount, currency: 'XAF', country: 'GA', note: 'Transfer GR-1001' };
}

function payIn(reference: string): Collection {
  return { reference, msisdn: '+24174555666', amount: '65000', currency: 'XAF', country: 'GA', note: 'Transfer GR-1002' };
}

beforeAll(async () => {
  peer = await new AirtelPeer().start();
  peer.register(RECIPIENT, { first: 'Jean', last: 'Ndong' });
  airtel = client();
});
afterAll(async () => {
  await peer.stop();
});

describe('disbursement', () => {
  it('pays the recipient once, with the national number, the PIN encrypted and the amount as written', async () => {
    const reference = randomUUID();
    const outcome = kept(await airtel.disburse(payout(reference)));
    expect(outcome).toMatchObject({ state: 'succeeded', operator_id: expect.stringMatching(/^MP\d+$/), step: { call: 'disburse', http_status: 200, operator_code: 'DP00900001001' } });
    expect(peer.payments.filter((p) => p.reference === reference)).toEqual([{ reference, msisdn: RECIPIENT, amount: '15000', currency: 'XAF' }]);

    const sent = peer.calls('POST', '/standard/v2/disbursements/').at(-1)!;
    expect(sent.headers).toMatchObject({ 'x-country': 'GA', 'x-currency': 'XAF', authorization: expect.stringMatching(/^Bearer \S+$/) });
    expect(sent.body).toMatchObject({ payee: { msisdn: '77123456' }, transaction: { id: reference, amount: 15000, type: 'B2C' } });
    const pin = (sent.body as { pin: string }).pin;
    expect(pin).not.toContain(peer.pin);
    expect(Buffer.from(pin, 'base64')).toHaveLength(256);

    const enquiry = kept(await airtel.disbursement(reference));
    expect(enquiry).toMatchObject({ state: 'succeeded', operator_id: outcome.state === 'succeeded' ? outcome.operator_id : null, step: { call: 'disbursement' } });
  });

  it('sends an amount past 2^53 digit for digit', async () => {
    const reference = randomUUID();
    peer.setFloat('XAF', '90071992547409930');
    expect(kept(await airtel.disburse(payout(reference, '9007199254740993'))).state).toBe('succeeded');
    expect(peer.payments.find((p) => p.reference === reference)?.amount).toBe('9007199254740993');
    peer.setFloat('XAF', '10000000');
  });

  it('is refused by the operator with a wrong PIN, and pays nothing, each time it is sent, while the right one pays', async () => {
    const wrong = client({ pin: '0000' });
    // The same encrypted PIN twice: the peer reads what a text says once and keeps it.
    for (let i = 0; i < 2; i++) {
      const reference = randomUUID();
      const outcome = kept(await wrong.disburse(payout(reference)));
      expect(outcome).toMatchObject({ state: 'failed', reason: 'pin_refused', step: { http_status: 400, operator_code: 'ROUTER115' } });
      expect(peer.paidCount(reference)).toBe(0);
      const paid = randomUUID();
      expect(kept(await airtel.disburse(payout(paid))).state).toBe('succeeded');
      expect(peer.paidCount(paid)).toBe(1);
    }
  });

  it('fails with the operator\'s refusal code and pays nothing', async () => {
    const reference = randomUUID();
    peer.script(reference, { outcome: 'fail', code: 'DP00900001013' });
    expect(kept(await airtel.disburse(payout(reference)))).toMatchObject({ state: 'failed', reason: 'refused', step: { http_status: 200, operator_code: 'DP00900001013' } });
    expect(kept(await airtel.disbursement(reference))).toMatchObject({ state: 'failed', reason: 'refused' });
    expect(peer.paidCount(reference)).toBe(0);
  });

  it('stays pending for two enquiries, then is paid', async () => {
    const reference = randomUUID();
    peer.script(reference, { outcome: 'pending', enquiries: 2 });
    expect(kept(await airtel.disburse(payout(reference)))).toMatchObject({ state: 'pending', step: { operator_code: 'DP00900001006' } });
    expect(kept(await airtel.disbursement(reference)).state).toBe('pending');
    expect(peer.paidCount(reference)).toBe(0);
    expect(kept(await airtel.disbursement(reference)).state).toBe('succeeded');
    expect(peer.paidCount(reference)).toBe(1);
  });

  it('stays pending until the operator is told, then fails', async () => {
    const reference = randomUUID();
    peer.script(reference, { outcome: 'pending', then: 'fail' });
    expect(kept(await airtel.disburse(payout(reference))).state).toBe('pending');
    for (let i = 0; i < 3; i++) expect(kept(await airtel.disbursement(reference)).state).toBe('pending');
    peer.settle(reference, 'TF');
    expect(kept(await airtel.disbursement(reference))).toMatchObject({ state: 'failed', reason: 'failed', step: { operator_code: 'DP00900001005' } });
    expect(peer.paidCount(reference)).toBe(0);
  });

  it('is unknown when a pending payout expires: Airtel does not say the money stayed', async () => {
    const reference = randomUUID();
    peer.script(reference, { outcome: 'pending' });
    kept(await airtel.disburse(payout(reference)));
    peer.settle(reference, 'TE');
    expect(kept(await airtel.disbursement(reference))).toMatchObject({ state: 'unknown', reason: 'expired' });
  });

  it('is unknown on a 5xx before anything happened: nothing paid, and the enquiry finds nothing', async () => {
    const reference = randomUUID();
    peer.failNext('disburse', { kind: 'down' });
    expect(kept(await airtel.disburse(payout(reference)))).toMatchObject({ state: 'unknown', reason: 'http_503', step: { http_status: 503 } });
    expect(peer.paidCount(reference)).toBe(0);
    expect(kept(await airtel.disbursement(reference))).toMatchObject({ state: 'not_found', step: { operator_code: 'DP00900001015' } });
  });

  it('is unknown when the answer is lost after paying; the enquiry says paid, and the same id again pays nothing more', async () => {
    const reference = randomUUID();
    peer.failNext('disburse', { kind: 'lost' });
    expect(kept(await airtel.disburse(payout(reference)))).toMatchObject({ state: 'unknown', reason: 'connection_lost', step: { http_status: null } });
    expect(peer.paidCount(reference)).toBe(1);
    expect(kept(await airtel.disbursement(reference)).state).toBe('succeeded');
    expect(kept(await airtel.disburse(payout(reference)))).toMatchObject({ state: 'unknown', reason: 'duplicate_id', step: { operator_code: 'DP00900001017' } });
    expect(peer.paidCount(reference)).toBe(1);
  });

  it('is unknown when the answer comes after the client\'s timeout, and the recipient is paid once', async () => {
    const reference = randomUUID();
    peer.failNext('disburse', { kind: 'late', ms: TIMEOUT_MS + 300 });
    expect(kept(await airtel.disburse(payout(reference)))).toMatchObject({ state: 'unknown', reason: 'timeout', step: { http_status: null, message: `no answer within ${TIMEOUT_MS} ms` } });
    expect(peer.paidCount(reference)).toBe(1);
    expect(kept(await airtel.disbursement(reference)).state).toBe('succeeded');
  });

  it('is unknown on DP00900001000 (ambiguous: ask again), which the enquiry resolves', async () => {
    const reference = randomUUID();
    peer.failNext('disburse', { kind: 'error', code: 'DP00900001000' });
    expect(kept(await airtel.disburse(payout(reference)))).toMatchObject({ state: 'unknown', reason: 'ambiguous', step: { http_status: 200, operator_code: 'DP00900001000' } });
    expect(kept(await airtel.disbursement(reference)).state).toBe('succeeded');
    expect(peer.paidCount(reference)).toBe(1);
  });

  it('is unknown on an error inside HTTP 200 it does not know, and failed on a documented refusal inside 200', async () => {
    const unlisted = randomUUID();
    peer.failNext('disburse', { kind: 'error', code: 'ESB000001' });
    expect(kept(await airtel.disburse(payout(unlisted)))).toMatchObject({ state: 'unknown', reason: 'ESB000001', step: { http_status: 200 } });

    const overFloat = randomUUID();
    peer.setFloat('XAF', '10000');
    expect(kept(await airtel.disburse(payout(overFloat)))).toMatchObject({ state: 'failed', reason: 'insufficient_funds', step: { http_status: 200, operator_code: 'DP00900001007' } });
    peer.setFloat('XAF', '10000000');
    expect(peer.paidCount(unlisted) + peer.paidCount(overFloat)).toBe(0);
  });

  it('answers not_found only on Airtel\'s own code: an enquiry that fails is unknown', async () => {
    expect(kept(await airtel.disbursement(randomUUID())).state).toBe('not_found');
    peer.failNext('enquire', { kind: 'down' });
    expect(kept(await airtel.disbursement(randomUUID()))).toMatchObject({ state: 'unknown', reason: 'http_503' });
    peer.failNext('enquire', { kind: 'late', ms: TIMEOUT_MS + 200 });
    expect(kept(await airtel.disbursement(randomUUID()))).toMatchObject({ state: 'unknown', reason: 'timeout' });
  });

  it('is unknown when the operator cannot be reached at all', async () => {
    const unreachable = client({ baseUrl: 'http://127.0.0.1:9' });
    expect(kept(await unreachable.disburse(payout(randomUUID())))).toMatchObject({ state: 'unknown', reason: 'connection_lost', step: { http_status: null } });
  });
});

describe('token', () => {
  it('serves many calls with one token, and renews a revoked one once on 401', async () => {
    const own = client();
    const before = peer.issuedTokens.length;
    kept(await own.balance('XAF', 'GA'));
    kept(await own.registeredName(RECIPIENT, 'GA'));
    expect(kept(await own.disburse(payout(randomUUID()))).state).toBe('succeeded');
    expect(peer.issuedTokens.length - before).toBe(1);

    peer.revokeTokens();
    expect(kept(await own.balance('XAF', 'GA')).state).toBe('ok');
    expect(peer.issuedTokens.length - before).toBe(2);
  });

  it('renews a token shortly before it expires, without meeting a 401', async () => {
    peer.tokenLifetimeSeconds = 1;
    const own = client();
    const tokensBefore = peer.issuedTokens.length;
    const callsBefore = peer.calls('GET', '/standard/v1/users/balance').length;
    kept(await own.balance('XAF', 'GA'));
    // Half of a 1 s life gone: the client renews before the token's last half.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(kept(await own.balance('XAF', 'GA')).state).toBe('ok');
    peer.tokenLifetimeSeconds = 180;
    expect(peer.issuedTokens.length - tokensBefore).toBe(2);
    // Two balance calls, none of them answered 401 and sent again.
    expect(peer.calls('GET', '/standard/v1/users/balance').length - callsBefore).toBe(2);
  });

  it('sends no money call when no token comes: unknown, and the step says why', async () => {
    const reference = randomUUID();
    const outcome = kept(await client({ clientSecret: 'not-the-secret' }).disburse(payout(reference)));
    expect(outcome).toMatchObject({ state: 'unknown', reason: 'token_unavailable', step: { http_status: null, message: 'token: HTTP 401' } });
    expect(peer.calls('POST', '/standard/v2/disbursements/').filter((r) => (r.body as { transaction: { id: string } }).transaction.id === reference)).toHaveLength(0);
  });
});

describe('registered name', () => {
  it('gives the name Airtel holds, asked with the national number', async () => {
    peer.register('+24177000001', { first: 'Jean-Pierre', last: 'Mba Obame' });
    peer.register('+24177000002', { first: 'Jean Piere', last: 'Mba' });
    peer.register('+24177000003', { first: 'Alice', last: 'Moussavou' });
    expect(kept(await airtel.registeredName('+24177000001', 'GA'))).toMatchObject({ state: 'registered', name: 'Jean-Pierre Mba Obame', step: { operator_code: 'DP02200000001' } });
    expect(peer.calls('GET', '/standard/v1/users/').at(-1)!.path).toBe('/standard/v1/users/77000001');
    expect(kept(await airtel.registeredName('+24177000002', 'GA'))).toMatchObject({ state: 'registered', name: 'Jean Piere Mba' });
    expect(kept(await airtel.registeredName('+24177000003', 'GA'))).toMatchObject({ state: 'registered', name: 'Alice Moussavou' });
  });

  it('says when a number is unknown, barred or inactive, and when Airtel cannot say', async () => {
    peer.register('+24177000004', { first: 'Paul', last: 'Nze' }, 'barred');
    peer.register('+24177000005', { first: 'Marie', last: 'Ella' }, 'inactive');
    expect(kept(await airtel.registeredName('+24177999999', 'GA'))).toMatchObject({ state: 'unknown_number', step: { operator_code: 'DP02200000002' } });
    expect(kept(await airtel.registeredName('+24177000004', 'GA')).state).toBe('barred');
    expect(kept(await airtel.registeredName('+24177000005', 'GA')).state).toBe('inactive');
    peer.failNext('user', { kind: 'down' });
    expect(kept(await airtel.registeredName(RECIPIENT, 'GA'))).toMatchObject({ state: 'unavailable', reason: 'http_503' });
    peer.failNext('user', { kind: 'error', code: 'DP02200000000' });
    expect(kept(await airtel.registeredName(RECIPIENT, 'GA'))).toMatchObject({ state: 'unavailable', reason: 'DP02200000000' });
  });

  it('serves one country per client: Rwanda\'s numbers and headers through a Rwanda client', async () => {
    peer.register('+250788123456', { first: 'Aline', last: 'Uwase' });
    const rwanda = client({ country: 'RW' });
    expect(kept(await rwanda.registeredName('+250788123456', 'RW'))).toMatchObject({ state: 'registered', name: 'Aline Uwase' });
    expect(peer.calls('GET', '/standard/v1/users/').at(-1)).toMatchObject({ path: '/standard/v1/users/788123456', headers: { 'x-country': 'RW', 'x-currency': 'RWF' } });
    await expect(airtel.registeredName('+250788123456', 'RW')).rejects.toThrow(RangeError);
  });
});

describe('balance', () => {
  it('reads the float exactly, and a payout debits it', async () => {
    peer.setFloat('XAF', '2500000');
    expect(kept(await airtel.balance('XAF', 'GA'))).toMatchObject({ state: 'ok', amount: '2500000', currency: 'XAF', step: { operator_code: 'DP02100000001' } });
    kept(await airtel.disburse(payout(randomUUID())));
    expect(kept(await airtel.balance('XAF', 'GA'))).toMatchObject({ state: 'ok', amount: '2485000' });
    peer.failNext('balance', { kind: 'error', code: 'DP02100000000' });
    expect(kept(await airtel.balance('XAF', 'GA'))).toMatchObject({ state: 'unavailable', reason: 'DP02100000000' });
    peer.setFloat('XAF', '10000000');
  });
});

describe('collection (USSD push)', () => {
  it('is pending until the sender approves on the phone, then succeeded', async () => {
    const reference = randomUUID();
    expect(kept(await airtel.collect(payIn(reference)))).toMatchObject({ state: 'pending', step: { call: 'collect', operator_code: 'DP00800001006' } });
    expect(peer.calls('POST', '/merchant/v2/payments/').at(-1)!.body).toMatchObject({
      subscriber: { country: 'GA', currency: 'XAF', msisdn: '74555666' }, transaction: { amount: 65000, id: reference },
    });
    expect(kept(await airtel.collection(reference)).state).toBe('pending');
    peer.approve(reference);
    expect(kept(await airtel.collection(reference))).toMatchObject({ state: 'succeeded', operator_id: expect.stringMatching(/^MP/), step: { call: 'collection', operator_code: 'DP00800001001' } });
  });

  it('fails when the sender refuses, and when the push expires', async () => {
    const refused = randomUUID();
    const expired = randomUUID();
    kept(await airtel.collect(payIn(refused)));
    kept(await airtel.collect(payIn(expired)));
    peer.refuse(refused);
    peer.expire(expired);
    expect(kept(await airtel.collection(refused))).toMatchObject({ state: 'failed', reason: 'refused' });
    expect(kept(await airtel.collection(expired))).toMatchObject({ state: 'failed', reason: 'expired' });
  });

  it('is unknown when the push\'s answer is lost, and not_found for an id Airtel never saw', async () => {
    const reference = randomUUID();
    peer.failNext('collect', { kind: 'lost' });
    expect(kept(await airtel.collect(payIn(reference))).state).toBe('unknown');
    expect(kept(await airtel.collection(reference)).state).toBe('pending');
    expect(kept(await airtel.collection(randomUUID()))).toMatchObject({ state: 'not_found', step: { operator_code: 'DP00800001025' } });
  });
});

describe('callbacks', () => {
  const secret = 'callback-secret-7f3e';
  const received: unknown[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200).end();
    });
  });
  const callbacksOf = (reference: string) => received.filter((b) => (b as { transaction: { id: string } }).transaction.id === reference);

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    peer.callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/rails/airtel/callback`;
    peer.callbackSecret = secret;
  });
  afterAll(async () => {
    peer.callbackUrl = null;
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('reads our reference from a callback signed with the secret, and refuses a forged or unsigned one', async () => {
    const reference = randomUUID();
    kept(await airtel.disburse(payout(reference)));
    await expect.poll(() => callbacksOf(reference)).toHaveLength(1);
    const [signed] = callbacksOf(reference);
    expect(airtelCallbackReference(signed, {}, secret)).toBe(reference);
    expect(airtelCallbackReference(signed, {}, 'another-secret')).toBeNull();

    await peer.callback(reference, { forged: true });
    expect(airtelCallbackReference(callbacksOf(reference)[1], {}, secret)).toBeNull();
    const { hash: _hash, ...unsigned } = signed as { hash: string };
    expect(airtelCallbackReference(unsigned, {}, secret)).toBeNull();
    // Without a secret set, a callback only names the reference to ask about.
    expect(airtelCallbackReference(unsigned, {}, undefined)).toBe(reference);
    expect(airtelCallbackReference({ transaction: { status_code: 'TS' } }, {}, undefined)).toBeNull();
  });

  it('sends a callback repeated or out of order without changing what the enquiry says', async () => {
    const reference = randomUUID();
    kept(await airtel.disburse(payout(reference)));
    await expect.poll(() => callbacksOf(reference)).toHaveLength(1);
    expect(await peer.callback(reference, { times: 2 })).toEqual([200, 200]);
    await peer.callback(reference, { status_code: 'TF' });
    expect(callbacksOf(reference).map((b) => airtelCallbackReference(b, {}, secret))).toEqual([reference, reference, reference, reference]);
    expect((callbacksOf(reference)[3] as { transaction: { status_code: string } }).transaction.status_code).toBe('TF');
    expect(kept(await airtel.disbursement(reference)).state).toBe('succeeded');
    expect(peer.paidCount(reference)).toBe(1);
  });

  it('loses a callback: nothing arrives, and the enquiry still tells', async () => {
    const reference = randomUUID();
    peer.loseCallbacks(1);
    kept(await airtel.disburse(payout(reference)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(callbacksOf(reference)).toHaveLength(0);
    expect(kept(await airtel.disbursement(reference)).state).toBe('succeeded');
  });
});

describe('what a step keeps', () => {
  it('cuts a token, the PIN or the secret out of a message that echoes them', async () => {
    const echoing: typeof fetch = async (input, init) => {
      const url = String(input);
      if (!url.endsWith('/standard/v1/users/balance')) return fetch(input, init);
      const headers = new Headers(init?.headers);
      return Response.json({ status: { code: '400', message: `refused ${headers.get('authorization')} for ${peer.clientSecret}`, result_code: 'ESB000001', success: false } }, { status: 400 });
    };
    const answer = kept(await client({ fetch: echoing }).balance('XAF', 'GA'));
    expect(answer).toMatchObject({ state: 'unavailable', step: { message: 'refused Bearer … for …' } });
  });

  it('holds no token, PIN or secret in any step the calls above gave', () => {
    expect(steps.length).toBeGreaterThan(40);
    const text = JSON.stringify(steps);
    for (const secret of [peer.clientSecret, peer.pin, 'callback-secret-7f3e', ...peer.issuedTokens]) expect(text).not.toContain(secret);
    for (const request of peer.calls('POST', '/standard/v2/disbursements/')) expect(text).not.toContain((request.body as { pin: string }).pin);
  });
});
