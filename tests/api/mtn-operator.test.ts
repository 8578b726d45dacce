import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MtnOperator, mtnCallbackReference, type MtnSettings } from '@server/modules/rails/mtn.js';
import type { Disbursement, OperatorStep } from '@server/modules/rails/operator.js';
import { MtnPeer } from '../support/peers/mtn-peer.js';

// The MTN MoMo client against its loopback peer: every answer and fault reduced to the outcome the
// payout attempts decide on, the peer paying each reference at most once.

const TIMEOUT_MS = 400;
let peer: MtnPeer;
let receiver: CallbackReceiver;
let mtn: MtnOperator;
/** Every step any outcome carried in this file: none may hold a credential. */
const steps: OperatorStep[] = [];

class CallbackReceiver {
  readonly received: { method: string; body: unknown; headers: http.IncomingHttpHeaders }[] = [];
  url = '';
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ method: req.method ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: req.headers });
      res.writeHead(200).end();
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/rails/mtn/callback`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The references the callbacks name, in their order of arrival. */
  references(): (string | null)[] {
    return this.received.map((c) => mtnCallbackReference(c.body, c.headers));
  }
}

function client(overrides: Partial<MtnSettings> = {}): MtnOperator {
  return new MtnOperator({
    baseUrl: peer.url, targetEnvironment: peer.targetEnvironment, apiUser: peer.apiUser, apiKey: peer.apiKey,
    disbursementKey: peer.disbursementKey, collectionKey: peer.collectionKey, callbackUrl: receiver.url, timeoutMs: TIMEOUT_MS,
    ...overrides,
  });
}

/** Keeps each outcome's step for the last test. */
async function kept<T extends { step: OperatorStep }>(outcome: Promise<T>): Promise<T> {
  const answer = await outcome;
  steps.push(answer.step);
  return answer;
}

const PAID = '+250788100001';
const UNREGISTERED = '+250788100099';

function order(overrides: Partial<Disbursement> = {}): Disbursement {
  return { reference: randomUUID(), msisdn: PAID, amount: '15000', currency: 'RWF', country: 'RW', note: 'Gabremit transfer', ...overrides };
}

beforeAll(async () => {
  peer = await new MtnPeer({ float: '1000000' }).start();
  receiver = await new CallbackReceiver().start();
  peer.register(PAID, { given_name: 'Aline', family_name: 'Uwase' });
  mtn = client();
});
afterAll(async () => {
  await peer.stop();
  await receiver.stop();
});

describe('a transfer', () => {
  it('is accepted (202: pending), carries our reference and the number without +, and the enquiry says SUCCESSFUL', async () => {
    const o = order({ amount: '15000' });
    const floatBefore = peer.floatBalance();
    const sent = await kept(mtn.disburse(o));
    expect(sent).toMatchObject({ state: 'pending', operator_id: null, step: { call: 'disburse', http_status: 202 } });

    const [request] = peer.calls('POST', '/disbursement/v1_0/transfer').slice(-1);
    expect(request?.headers['x-reference-id']).toBe(o.reference);
    expect(request?.headers['x-target-environment']).toBe('mtnrwanda');
    expect(request?.headers['x-callback-url']).toBe(receiver.url);
    expect(request?.body).toMatchObject({ amount: '15000', currency: 'RWF', externalId: o.reference, payee: { partyIdType: 'MSISDN', partyId: '250788100001' } });

    const status = await kept(mtn.disbursement(o.reference));
    expect(status).toMatchObject({ state: 'succeeded', step: { call: 'disbursement', http_status: 200, operator_code: 'SUCCESSFUL' } });
    expect(status.state === 'succeeded' && status.operator_id).toBe(peer.transaction(o.reference)?.financialTransactionId);
    expect(peer.paidCount(o.reference)).toBe(1);
    expect(Number(floatBefore) - Number(peer.floatBalance())).toBe(15000);
  });

  it('confirmed FAILED for a final reason is failed; to a number MTN does not know, PAYEE_NOT_FOUND', async () => {
    const refused = order();
    peer.script(refused.reference, { status: 'FAILED', reason: 'PAYEE_NOT_ALLOWED_TO_RECEIVE' });
    await kept(mtn.disburse(refused));
    expect(await kept(mtn.disbursement(refused.reference))).toMatchObject({
      state: 'failed', reason: 'PAYEE_NOT_ALLOWED_TO_RECEIVE', step: { operator_code: 'PAYEE_NOT_ALLOWED_TO_RECEIVE' },
    });

    const stranger = order({ msisdn: UNREGISTERED });
    await kept(mtn.disburse(stranger));
    expect(await kept(mtn.disbursement(stranger.reference))).toMatchObject({ state: 'failed', reason: 'PAYEE_NOT_FOUND' });
    expect(peer.paidCount(refused.reference) + peer.paidCount(stranger.reference)).toBe(0);
  });

  it('FAILED with a reason that may hide a transfer in progress is unknown, never failed', async () => {
    const o = order();
    peer.script(o.reference, { status: 'FAILED', reason: 'INTERNAL_PROCESSING_ERROR' });
    await kept(mtn.disburse(o));
    expect(await kept(mtn.disbursement(o.reference))).toMatchObject({ state: 'unknown', reason: 'INTERNAL_PROCESSING_ERROR' });
  });

  it('stays pending for as many enquiries as MTN says PENDING, or until MTN finishes it', async () => {
    const slow = order();
    peer.script(slow.reference, { status: 'PENDING', enquiries: 2 });
    await kept(mtn.disburse(slow));
    expect((await kept(mtn.disbursement(slow.reference))).state).toBe('pending');
    expect((await kept(mtn.disbursement(slow.reference))).state).toBe('pending');
    expect((await kept(mtn.disbursement(slow.reference))).state).toBe('succeeded');

    const stuck = order();
    peer.script(stuck.reference, { status: 'PENDING' });
    await kept(mtn.disburse(stuck));
    expect((await kept(mtn.disbursement(stuck.reference))).state).toBe('pending');
    expect(peer.paidCount(stuck.reference)).toBe(0);
    peer.settle(stuck.reference, { status: 'SUCCESSFUL' });
    expect((await kept(mtn.disbursement(stuck.reference))).state).toBe('succeeded');
    expect(peer.paidCount(stuck.reference)).toBe(1);
  });

  it('a 5xx before anything happened is unknown, and the enquiry then finds nothing (not_found)', async () => {
    const o = order();
    peer.failNext('transfer', { kind: 'down', status: 503 });
    expect(await kept(mtn.disburse(o))).toMatchObject({ state: 'unknown', step: { http_status: 503 } });
    expect(await kept(mtn.disbursement(o.reference))).toMatchObject({ state: 'not_found', step: { http_status: 404, operator_code: 'RESOURCE_NOT_FOUND' } });
    expect(peer.paidCount(o.reference)).toBe(0);
  });

  it("MTN's own 500 (NOT_ALLOWED) on the transfer is unknown too: only the enquiry tells", async () => {
    const o = order();
    peer.failNext('transfer', { kind: 'error', code: 'NOT_ALLOWED', status: 500 });
    expect(await kept(mtn.disburse(o))).toMatchObject({ state: 'unknown', reason: 'NOT_ALLOWED', step: { http_status: 500, operator_code: 'NOT_ALLOWED' } });
  });

  it('an answer lost after MTN paid is unknown; the enquiry finds it paid, once', async () => {
    const o = order();
    peer.failNext('transfer', { kind: 'lost' });
    expect(await kept(mtn.disburse(o))).toMatchObject({ state: 'unknown', reason: 'connection_lost', step: { http_status: null } });
    expect((await kept(mtn.disbursement(o.reference))).state).toBe('succeeded');
    expect(peer.paidCount(o.reference)).toBe(1);
  });

  it("an answer after the client's timeout is unknown ('timeout'); the money moved once", async () => {
    const o = order();
    peer.failNext('transfer', { kind: 'late', ms: TIMEOUT_MS + 300 });
    expect(await kept(mtn.disburse(o))).toMatchObject({ state: 'unknown', reason: 'timeout', step: { http_status: null } });
    expect(peer.paidCount(o.reference)).toBe(1);

    peer.failNext('transfer_status', { kind: 'late', ms: TIMEOUT_MS + 300 });
    expect(await kept(mtn.disbursement(o.reference))).toMatchObject({ state: 'unknown', reason: 'timeout' });
  });

  it('a reused reference answers 409: unknown (ask the status), and nothing is paid again', async () => {
    const o = order();
    await kept(mtn.disburse(o));
    const payments = peer.payments.length;
    expect(await kept(mtn.disburse({ ...o, amount: '20000' }))).toMatchObject({
      state: 'unknown', reason: 'RESOURCE_ALREADY_EXIST', step: { http_status: 409, operator_code: 'RESOURCE_ALREADY_EXIST' },
    });
    expect(peer.payments.length).toBe(payments);
    expect(peer.paidCount(o.reference)).toBe(1);
    expect(peer.transaction(o.reference)?.amount).toBe('15000');
  });

  it('a request MTN refuses as malformed (400) created nothing: failed', async () => {
    const o = order({ amount: '1500.5' });
    expect(await kept(mtn.disburse(o))).toMatchObject({ state: 'failed', step: { http_status: 400 } });
    expect(peer.transaction(o.reference)).toBeUndefined();
  });

  it("a 404 that is not MTN's RESOURCE_NOT_FOUND (a wrong base URL) is unknown, never not_found", async () => {
    const misplaced = client({ baseUrl: `${peer.url}/elsewhere/` });
    expect(await kept(misplaced.disbursement(randomUUID()))).toMatchObject({ state: 'unknown', step: { http_status: 404 } });
  });

  it('a float too low for the transfer ends FAILED NOT_ENOUGH_FUNDS and leaves the float as it was', async () => {
    const low = await new MtnPeer({ float: '10000' }).start();
    try {
      low.register(PAID, { given_name: 'Aline', family_name: 'Uwase' });
      const poor = client({ baseUrl: low.url, apiUser: low.apiUser, apiKey: low.apiKey, disbursementKey: low.disbursementKey, collectionKey: low.collectionKey });
      const o = order({ amount: '15000' });
      await kept(poor.disburse(o));
      expect(await kept(poor.disbursement(o.reference))).toMatchObject({ state: 'failed', reason: 'NOT_ENOUGH_FUNDS' });
      expect(await kept(poor.balance('RWF', 'RW'))).toMatchObject({ state: 'ok', amount: '10000', currency: 'RWF' });
      expect(low.paidCount(o.reference)).toBe(0);
    } finally {
      await low.stop();
    }
  });
});

describe('tokens', () => {
  it('one token per product serves many calls; the collection has its own', async () => {
    const fresh = client();
    const before = peer.tokensIssued.length;
    const a = order();
    await kept(fresh.disburse(a));
    await kept(fresh.disbursement(a.reference));
    await kept(fresh.balance('RWF', 'RW'));
    expect(peer.tokensIssued.slice(before).map((t) => t.product)).toEqual(['disbursement']);
    await kept(fresh.collection(randomUUID()));
    expect(peer.tokensIssued.slice(before).map((t) => t.product)).toEqual(['disbursement', 'collection']);
    expect(peer.calls('POST', '/collection/token/').slice(-1)[0]?.headers['ocp-apim-subscription-key']).toBe(peer.collectionKey);
  });

  it('a token refused (401) is renewed once and the transfer goes through, paid once', async () => {
    await kept(mtn.balance('RWF', 'RW'));
    peer.revokeTokens();
    const before = peer.tokensIssued.length;
    const o = order();
    expect((await kept(mtn.disburse(o))).state).toBe('pending');
    expect(peer.tokensIssued.length).toBe(before + 1);
    expect(peer.paidCount(o.reference)).toBe(1);
  });

  it('a token is renewed shortly before it expires', async () => {
    peer.tokenLifetimeSeconds = 1;
    try {
      const shortLived = client();
      const before = peer.tokensIssued.length;
      await kept(shortLived.balance('RWF', 'RW'));
      await kept(shortLived.balance('RWF', 'RW'));
      expect(peer.tokensIssued.length).toBe(before + 1);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await kept(shortLived.balance('RWF', 'RW'));
      expect(peer.tokensIssued.length).toBe(before + 2);
    } finally {
      peer.tokenLifetimeSeconds = 3600;
    }
  });

  it('wrong credentials: the transfer never leaves (failed), an enquiry is unknown', async () => {
    const wrong = client({ apiKey: 'not-the-key' });
    const o = order();
    expect(await kept(wrong.disburse(o))).toMatchObject({ state: 'failed', step: { http_status: 401 } });
    expect(peer.transaction(o.reference)).toBeUndefined();
    expect((await kept(wrong.disbursement(o.reference))).state).toBe('unknown');
  });

  it('the token service down: unknown, nothing sent', async () => {
    const o = order();
    peer.failNext('token', { kind: 'down' });
    expect(await kept(client().disburse(o))).toMatchObject({ state: 'unknown', step: { http_status: 503 } });
    expect(peer.transaction(o.reference)).toBeUndefined();
  });
});

describe('the registered name and the float', () => {
  it('gives the name MTN holds for a number, unknown_number for one it does not, barred for a blocked wallet', async () => {
    peer.register('+250788100002', { given_name: 'Jean Claude', family_name: 'Habimana' });
    peer.register('+250788100003', { given_name: 'Eric', family_name: 'Mugisha', status: 'BLOCKED' });
    expect(await kept(mtn.registeredName('+250788100002', 'RW'))).toMatchObject({ state: 'registered', name: 'Jean Claude Habimana' });
    expect(peer.calls('GET', '/disbursement/v1_0/accountholder/msisdn/250788100002/basicuserinfo')).toHaveLength(1);
    expect(await kept(mtn.registeredName(UNREGISTERED, 'RW'))).toMatchObject({ state: 'unknown_number', step: { http_status: 404 } });
    expect((await kept(mtn.registeredName('+250788100003', 'RW'))).state).toBe('barred');
    peer.failNext('userinfo', { kind: 'down' });
    expect(await kept(mtn.registeredName('+250788100002', 'RW'))).toMatchObject({ state: 'unavailable', step: { http_status: 503 } });
  });

  it('reads the float balance, lower by what was paid', async () => {
    const before = await kept(mtn.balance('RWF', 'RW'));
    expect(before).toMatchObject({ state: 'ok', currency: 'RWF', amount: peer.floatBalance() });
    await kept(mtn.disburse(order({ amount: '2500' })));
    const after = await kept(mtn.balance('RWF', 'RW'));
    expect(before.state === 'ok' && after.state === 'ok' && Number(before.amount) - Number(after.amount)).toBe(2500);
    peer.failNext('balance', { kind: 'down' });
    expect((await kept(mtn.balance('RWF', 'RW'))).state).toBe('unavailable');
  });
});

describe('a request-to-pay', () => {
  it('waits for the payer: approved is succeeded, refused APPROVAL_REJECTED and expired EXPIRED are failed', async () => {
    const ends = [
      { settle: (r: string) => peer.approve(r), outcome: { state: 'succeeded' } },
      { settle: (r: string) => peer.refuse(r), outcome: { state: 'failed', reason: 'APPROVAL_REJECTED' } },
      { settle: (r: string) => peer.expire(r), outcome: { state: 'failed', reason: 'EXPIRED' } },
    ];
    for (const end of ends) {
      const o = order({ amount: '5000' });
      expect(await kept(mtn.collect(o))).toMatchObject({ state: 'pending', step: { call: 'collect', http_status: 202 } });
      const [request] = peer.calls('POST', '/collection/v1_0/requesttopay').slice(-1);
      expect(request?.body).toMatchObject({ amount: '5000', externalId: o.reference, payer: { partyIdType: 'MSISDN', partyId: '250788100001' } });
      expect(request?.headers['ocp-apim-subscription-key']).toBe(peer.collectionKey);
      expect((await kept(mtn.collection(o.reference))).state).toBe('pending');
      end.settle(o.reference);
      expect(await kept(mtn.collection(o.reference))).toMatchObject(end.outcome);
      expect(peer.paidCount(o.reference)).toBe(end.outcome.state === 'succeeded' ? 1 : 0);
    }
  });

  it('a reused collection reference answers 409 and asks the payer nothing more', async () => {
    const o = order();
    await kept(mtn.collect(o));
    expect(await kept(mtn.collect(o))).toMatchObject({ state: 'unknown', step: { http_status: 409 } });
    peer.approve(o.reference);
    expect(peer.paidCount(o.reference)).toBe(1);
  });
});

describe('callbacks', () => {
  async function delivered(): Promise<void> {
    await peer.callbacksDelivered();
  }
  // Earlier tests' callbacks land first, so that each test counts only its own.
  beforeEach(delivered);

  it('MTN calls X-Callback-Url once when the transfer is final, with a body naming our reference', async () => {
    const first = receiver.received.length;
    const o = order();
    await kept(mtn.disburse(o));
    await delivered();
    const arrived = receiver.received.slice(first);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]?.body).toMatchObject({ status: 'SUCCESSFUL', externalId: o.reference });
    expect(mtnCallbackReference(arrived[0]?.body, arrived[0]?.headers ?? {})).toBe(o.reference);
  });

  it('a lost callback never comes again; the enquiry still tells', async () => {
    const first = receiver.received.length;
    const o = order();
    peer.loseCallbacks(1);
    await kept(mtn.disburse(o));
    await delivered();
    expect(receiver.received.length).toBe(first);
    expect((await kept(mtn.disbursement(o.reference))).state).toBe('succeeded');
  });

  it('a repeated callback names the same reference twice; the money moved once', async () => {
    const first = receiver.received.length;
    const o = order();
    await kept(mtn.disburse(o));
    peer.repeatCallback(o.reference);
    await delivered();
    expect(receiver.references().slice(first)).toEqual([o.reference, o.reference]);
    expect(peer.paidCount(o.reference)).toBe(1);
  });

  it('callbacks out of order arrive last first', async () => {
    const first = receiver.received.length;
    const [a, b] = [order(), order()];
    peer.holdCallbacks();
    await kept(mtn.disburse(a));
    await kept(mtn.disburse(b));
    peer.releaseCallbacks();
    await delivered();
    expect(receiver.references().slice(first)).toEqual([b.reference, a.reference]);
  });

  it('a forged callback claiming SUCCESSFUL changes nothing at MTN: the enquiry still says failed', async () => {
    const o = order();
    peer.script(o.reference, { status: 'FAILED', reason: 'PAYEE_NOT_ALLOWED_TO_RECEIVE' });
    await kept(mtn.disburse(o));
    await delivered();
    const first = receiver.received.length;
    expect(await peer.forgeCallback(receiver.url, o.reference, 'SUCCESSFUL')).toBe(200);
    const forged = receiver.received[first];
    expect(forged?.body).toMatchObject({ status: 'SUCCESSFUL' });
    expect(mtnCallbackReference(forged?.body, forged?.headers ?? {})).toBe(o.reference);
    expect(await kept(mtn.disbursement(o.reference))).toMatchObject({ state: 'failed', reason: 'PAYEE_NOT_ALLOWED_TO_RECEIVE' });
    expect(peer.paidCount(o.reference)).toBe(0);
  });

  it('a request-to-pay calls back once the payer answers', async () => {
    const first = receiver.received.length;
    const o = order();
    await kept(mtn.collect(o));
    await delivered();
    expect(receiver.received.length).toBe(first);
    peer.refuse(o.reference);
    await delivered();
    expect(receiver.received.slice(first).map((c) => c.body)).toEqual([
      expect.objectContaining({ status: 'FAILED', externalId: o.reference, reason: expect.objectContaining({ code: 'APPROVAL_REJECTED' }) }),
    ]);
  });
});

it('no step kept anywhere above holds a token, the API key, a subscription key or the Basic credentials', () => {
  expect(steps.length).toBeGreaterThan(40);
  const kept = JSON.stringify(steps);
  const secrets = [
    peer.apiKey, peer.disbursementKey, peer.collectionKey, Buffer.from(`${peer.apiUser}:${peer.apiKey}`).toString('base64'),
    ...peer.tokensIssued.map((t) => t.token),
  ];
  for (const secret of secrets) expect(kept).not.toContain(secret);
  for (const step of steps) expect(step.message?.length ?? 0).toBeLessThanOrEqual(200);
});
