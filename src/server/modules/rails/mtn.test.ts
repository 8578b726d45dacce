import { describe, expect, it } from 'vitest';
import { MtnOperator, mtnCallbackReference } from './mtn.js';

// What the loopback peer does not say: the answers MTN gives in the field and the shapes a
// callback may take. The peer-driven tests are in tests/api/mtn-operator.test.ts.

const REFERENCE = '3f1c2a5e-8b7d-4c9a-9e21-6d0f4b8a7c13';

/** A client whose token call succeeds and whose every other call answers `status` with `body`. */
function answering(status: number, body: unknown): MtnOperator {
  const fakeFetch = (async (url: string | URL) => {
    if (String(url).endsWith('/token/')) return Response.json({ access_token: 'tok-123456', token_type: 'access_token', expires_in: 3600 });
    return Response.json(body, { status });
  }) as typeof fetch;
  return new MtnOperator({
    baseUrl: 'https://momo.test', targetEnvironment: 'mtnrwanda', apiUser: 'user', apiKey: 'api-key-secret',
    disbursementKey: 'disb-key-secret', collectionKey: 'coll-key-secret', timeoutMs: 1000, fetch: fakeFetch,
  });
}

describe('a FAILED status', () => {
  it('reads the reason given as a bare code, as MTN sends it in production', async () => {
    const outcome = await answering(200, { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' }).disbursement(REFERENCE);
    expect(outcome).toMatchObject({ state: 'failed', reason: 'NOT_ENOUGH_FUNDS', step: { operator_code: 'NOT_ENOUGH_FUNDS' } });
  });

  it('without a reason is unknown', async () => {
    expect((await answering(200, { status: 'FAILED' }).disbursement(REFERENCE)).state).toBe('unknown');
  });

  it('COULD_NOT_PERFORM_TRANSACTION ends a request-to-pay (not approved in time) but not a transfer', async () => {
    const body = { status: 'FAILED', reason: { code: 'COULD_NOT_PERFORM_TRANSACTION', message: 'timeout' } };
    expect((await answering(200, body).collection(REFERENCE)).state).toBe('failed');
    expect((await answering(200, body).disbursement(REFERENCE)).state).toBe('unknown');
  });
});

describe('the step kept', () => {
  it('cuts credentials a gateway echoes back out of the message, and keeps it short', async () => {
    const echo = `Invalid request: Bearer tok-123456 with key disb-key-secret and api-key-secret ${'x'.repeat(400)}`;
    const { step } = await answering(400, { code: 'BAD_REQUEST', message: echo }).disburse({
      reference: REFERENCE, msisdn: '+250788100001', amount: '1000', currency: 'RWF', country: 'RW', note: 'n',
    });
    expect(step.message).not.toMatch(/tok-123456|disb-key-secret|api-key-secret/);
    expect(step.message?.length).toBeLessThanOrEqual(200);
    expect(step.operator_code).toBe('BAD_REQUEST');
  });
});

describe('mtnCallbackReference', () => {
  it('gives our reference from externalId, or referenceId when MTN includes it', () => {
    expect(mtnCallbackReference({ externalId: REFERENCE, status: 'SUCCESSFUL' }, {})).toBe(REFERENCE);
    expect(mtnCallbackReference({ referenceId: REFERENCE.toUpperCase(), externalId: 'order-7', status: 'FAILED' }, {})).toBe(REFERENCE);
  });

  it('gives null for a body that names no reference of ours', () => {
    for (const body of [null, 'SUCCESSFUL', [], {}, { externalId: 'order-7' }, { externalId: 42 }]) {
      expect(mtnCallbackReference(body, {})).toBeNull();
    }
  });
});
