import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@server/lib/free-port.js';
import { createLogger } from '@server/logger.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Every answer names its request in X-Request-Id; the same id is on each log line of the request
// and in a 5xx body, so what a sender quotes to support finds the server's lines. A proxy the
// server trusts (TRUST_PROXY) may hand its own id on; a client talking to the server directly may not.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>); done(); } });

let t: TestApp;
let behindProxy: TestApp;
let sender: TestUser;
beforeAll(async () => {
  // The server's own logger, as `npm start` builds it, writing to memory; every peer trusted;
  // PayPal configured at an address where nothing answers.
  t = await createTestApp({
    logger: createLogger({ LOG_LEVEL: 'info' }, sink),
    env: { TRUST_PROXY: 'true', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_API_BASE: `http://127.0.0.1:${await freePort()}` },
  });
  // Only the load balancer at 10.0.0.1 is trusted.
  behindProxy = await createTestApp({ env: { TRUST_PROXY: '10.0.0.1' } });
  sender = await createUser(t);
});
afterAll(async () => {
  await t?.close();
  await behindProxy?.close();
});

describe('request ids', () => {
  it('makes a new id for each request and returns it on answers, refusals and unknown paths', async () => {
    const answers = await Promise.all([
      t.request({ method: 'GET', url: '/api/health' }),
      t.request({ method: 'GET', url: '/api/recipients' }),
      t.request({ method: 'GET', url: '/api/no-such-thing' }),
      t.request({ method: 'GET', url: '/no-such-page' }),
      t.request({ method: 'POST', url: '/api/quotes', payload: {} }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 404, 400]);
    const ids = answers.map((a) => a.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers a URL refused before routing with the id, the error body and the API\'s headers', async () => {
    const res = await t.request({ method: 'GET', url: '/api/transfer-requests/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.json()).toEqual({ error: expect.any(String), code: 'bad_request' });
  });

  it('takes the id a trusted proxy sends, and refuses one that could not be an id', async () => {
    const passed = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'lb-7f3a9c.2e:1' } });
    expect(passed.headers['x-request-id']).toBe('lb-7f3a9c.2e:1');
    for (const forged of ['two words', 'x'.repeat(129), 'a"}{"level":60', '']) {
      const res = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': forged } });
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  it('replaces the id a client sends straight to the server, and keeps the trusted proxy\'s', async () => {
    const direct = await behindProxy.request({ method: 'GET', url: '/api/health', remoteAddress: '203.0.113.9', headers: { 'x-request-id': 'chosen-by-client' } });
    expect(direct.headers['x-request-id']).toMatch(UUID);
    const relayed = await behindProxy.request({ method: 'GET', url: '/api/health', remoteAddress: '10.0.0.1', headers: { 'x-request-id': 'from-the-balancer' } });
    expect(relayed.headers['x-request-id']).toBe('from-the-balancer');
  });

  it('answers a server fault with the id in the body, and writes it on every log line of that request', async () => {
    // A real fault: the sender's saved recipients table is gone from this test's own database.
    await t.database.pool.query('drop table saved_recipients cascade');
    const res = await t.request({ method: 'GET', url: '/api/recipients', token: sender.token });
    expect(res.statusCode).toBe(500);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(UUID);
    expect(res.json()).toEqual({ error: 'An error occurred. Please try again.', code: 'internal_error', request_id: id });
    const ofRequest = lines.filter((l) => l.reqId === id);
    expect(ofRequest.map((l) => l.msg)).toEqual(['unhandled error', 'request completed']);
    expect(ofRequest[1]).toMatchObject({ res: { statusCode: 500 } });
  });

  it('writes what a service logs for the request with its id (PayPal unreachable at checkout)', async () => {
    const res = await t.request({
      method: 'POST', url: '/api/payments/initiate', token: sender.token,
      payload: {
        source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
        destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
      },
    });
    expect(res.statusCode).toBe(502);
    const id = res.headers['x-request-id'] as string;
    expect(res.json()).toMatchObject({ code: 'paypal_unavailable', request_id: id });
    expect(lines.filter((l) => l.reqId === id).map((l) => l.msg)).toEqual(['PayPal order creation failed', 'request completed']);
  });

  it('names the request on its access log line', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'support-case-42' } });
    const line = lines.find((l) => l.reqId === 'support-case-42');
    expect(res.headers['x-request-id']).toBe('support-case-42');
    expect(line).toMatchObject({ msg: 'request completed', res: { statusCode: 200 } });
  });
});
