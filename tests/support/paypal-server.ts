import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PayPalPayoutsPeer } from './peers/paypal-payouts-peer.js';

interface Amount { currency_code: string; value: string }
interface Order {
  id: string;
  intent: 'CAPTURE' | 'AUTHORIZE';
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  amount: Amount;
  returnUrl: string;
  cancelUrl: string;
  captureId?: string;
  authorizationId?: string;
}
export interface Authorization { id: string; orderId: string; status: 'CREATED' | 'CAPTURED' | 'VOIDED'; amount: Amount; captureId?: string }
export interface Capture { id: string; authorizationId: string; status: 'COMPLETED'; amount: Amount; refundIds: string[] }
export interface Refund { id: string; captureId: string; status: 'COMPLETED'; amount: Amount }

/** The calls a test can make fail: refused by PayPal, or the answer lost after PayPal did it. */
export type PayPalOperation = 'authorize' | 'capture' | 'void' | 'refund' | 'payouts';
export type Failure = { kind: 'down' } | { kind: 'lost' } | { kind: 'refused'; issue: string; description: string };

/**
 * A PayPal-compatible HTTP peer on loopback speaking the parts of the REST API the app uses:
 * client-credentials tokens, Orders v2 create / get / capture / authorize, Payments v2
 * authorization capture and void and capture refund (each with PayPal-Request-Id idempotency: the
 * same id gets the first answer again and does nothing more), and the payer's approval page,
 * which redirects to the order's return URL, and Payouts with its signed webhooks (peers/paypal-payouts-peer.ts). `failNext`
 * makes the next calls of one kind fail.
 */
export class PayPalServer {
  readonly clientId = 'test-client';
  readonly clientSecret = 'test-secret';
  readonly orders = new Map<string, Order>();
  readonly authorizations = new Map<string, Authorization>();
  readonly captures = new Map<string, Capture>();
  readonly refunds = new Map<string, Refund>();
  readonly requests: { method: string; path: string; requestId: string | null }[] = [];
  /** PayPal Payouts: batches by sender_batch_id, their items' statuses, and PayPal's webhooks. */
  readonly payouts = new PayPalPayoutsPeer(() => this.url);
  private tokens = new Set<string>();

  private byRequestId = new Map<string, string>();
  /** First answers of Payments v2 calls by PayPal-Request-Id, replayed as they were. */
  private answers = new Map<string, { status: number; body: unknown }>();
  private failures = new Map<PayPalOperation, Failure[]>();

  /** Every token stops being accepted (PayPal revoked them, or restarted): the next call with one answers 401. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /**
   * The next `times` calls of this kind fail: `down` answers 503 doing nothing, `lost` does the
   * work then answers 500 (the answer lost on the way), `refused` answers 422 with that issue.
   */
  failNext(operation: PayPalOperation, failure: Failure, times = 1): void {
    this.failures.set(operation, [...(this.failures.get(operation) ?? []), ...Array.from({ length: times }, () => failure)]);
  }

  /** The POSTs made to an operation's path, e.g. calls('void'). */
  calls(operation: PayPalOperation): { method: string; path: string; requestId: string | null }[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/${operation}`));
  }
  private server = http.createServer((req, res) => void this.handle(req, res));
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private orderJson(o: Order) {
    const links = [{ rel: 'self', href: `${this.url}/v2/checkout/orders/${o.id}`, method: 'GET' }];
    if (o.status === 'PAYER_ACTION_REQUIRED') links.push({ rel: 'payer-action', href: `${this.url}/checkoutnow?token=${o.id}`, method: 'GET' });
    return {
      id: o.id, status: o.status, links,
      intent: o.intent,
      purchase_units: [{
        amount: o.amount,
        ...(o.captureId ? { payments: { captures: [{ id: o.captureId, status: 'COMPLETED', amount: o.amount }] } } : {}),
        ...(o.authorizationId ? { payments: { authorizations: [this.authorizationJson(this.authorizations.get(o.authorizationId)!)] } } : {}),
      }],
    };
  }

  private authorizationJson(a: Authorization) {
    return { id: a.id, status: a.status, amount: a.amount, expiration_time: new Date(Date.now() + 29 * 86_400_000).toISOString() };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? '', path: url.pathname, requestId: (req.headers['paypal-request-id'] as string | undefined) ?? null });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    const error = (status: number, issue: string, description?: string) =>
      send(status, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue, ...(description ? { description } : {}) }] });

    if (req.method === 'POST' && url.pathname === '/v1/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
      if (req.headers.authorization !== expected || !raw.includes('grant_type=client_credentials')) return send(401, { error: 'invalid_client' });
      const token = randomBytes(12).toString('hex');
      this.tokens.add(token);
      return send(200, { access_token: token, token_type: 'Bearer', expires_in: 32400 });
    }

    // The payer's browser on PayPal: approving sends it back to the merchant's return URL.
    if (req.method === 'GET' && url.pathname === '/checkoutnow') {
      const order = this.orders.get(url.searchParams.get('token') ?? '');
      if (!order) return send(404, { name: 'RESOURCE_NOT_FOUND' });
      if (order.status === 'PAYER_ACTION_REQUIRED') order.status = 'APPROVED';
      res.writeHead(302, { Location: `${order.returnUrl}?token=${order.id}&PayerID=PAYER123` }).end();
      return;
    }

    if (!this.tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''))) return send(401, { error: 'invalid_token' });
    const requestId = req.headers['paypal-request-id'] as string | undefined;
    const known = requestId ? this.byRequestId.get(requestId) : undefined;

    if (req.method === 'POST' && url.pathname === '/v2/checkout/orders') {
      if (known) return send(200, this.orderJson(this.orders.get(known)!));
      const body = JSON.parse(raw) as {
        intent: string;
        purchase_units: { amount: { currency_code: string; value: string } }[];
        payment_source: { paypal: { experience_context: { return_url: string; cancel_url: string } } };
      };
      const unit = body.purchase_units[0];
      if ((body.intent !== 'CAPTURE' && body.intent !== 'AUTHORIZE') || !unit || !/^\d+(\.\d{2})?$/.test(unit.amount.value)) return error(422, 'INVALID_PARAMETER_VALUE');
      const ctx = body.payment_source.paypal.experience_context;
      const order: Order = {
        id: randomBytes(8).toString('hex').toUpperCase(), intent: body.intent, status: 'PAYER_ACTION_REQUIRED', amount: unit.amount,
        returnUrl: ctx.return_url, cancelUrl: ctx.cancel_url,
      };
      this.orders.set(order.id, order);
      if (requestId) this.byRequestId.set(requestId, order.id);
      return send(201, this.orderJson(order));
    }

    // Webhook signatures are checked by the Payouts peer, which signs the webhooks (no failure of its own).
    if (url.pathname === '/v1/notifications/verify-webhook-signature') return this.payouts.handle(req.method ?? '', url.pathname, raw, undefined, send);
    if (url.pathname.startsWith('/v1/payments/payouts')) return this.payouts.handle(req.method ?? '', url.pathname, raw, this.failures.get('payouts')?.shift(), send);

    const payments = /^\/v2\/payments\/(authorizations|captures)\/([^/]+)\/(capture|void|refund)$/.exec(url.pathname);
    if (req.method === 'POST' && payments) return this.payment(payments[1]!, payments[2]!, payments[3] as PayPalOperation, requestId, res, send, error);

    const match = /^\/v2\/checkout\/orders\/([^/]+)(\/capture|\/authorize)?$/.exec(url.pathname);
    const order = match ? this.orders.get(match[1]!) : undefined;
    if (!order) return send(404, { name: 'RESOURCE_NOT_FOUND' });
    if (req.method === 'GET' && !match![2]) return send(200, this.orderJson(order));
    if (req.method === 'POST' && match![2] === '/capture') {
      if (order.intent !== 'CAPTURE') return error(422, 'ACTION_DOES_NOT_MATCH_INTENT');
      if (order.status === 'COMPLETED') return known ? send(201, this.orderJson(order)) : error(422, 'ORDER_ALREADY_CAPTURED');
      if (order.status !== 'APPROVED') return error(422, 'ORDER_NOT_APPROVED');
      order.status = 'COMPLETED';
      order.captureId = `CAP-${randomBytes(6).toString('hex').toUpperCase()}`;
      if (requestId) this.byRequestId.set(requestId, order.id);
      return send(201, this.orderJson(order));
    }
    if (req.method === 'POST' && match![2] === '/authorize') {
      const failure = this.failures.get('authorize')?.shift();
      if (failure?.kind === 'down') return send(503, { name: 'SERVICE_UNAVAILABLE' });
      if (failure?.kind === 'refused') return error(422, failure.issue, failure.description);
      if (order.intent !== 'AUTHORIZE') return error(422, 'ACTION_DOES_NOT_MATCH_INTENT');
      if (order.status === 'COMPLETED') return known ? send(201, this.orderJson(order)) : error(422, 'ORDER_ALREADY_AUTHORIZED');
      if (order.status !== 'APPROVED') return error(422, 'ORDER_NOT_APPROVED');
      const authorization: Authorization = { id: `AUTH-${randomBytes(6).toString('hex').toUpperCase()}`, orderId: order.id, status: 'CREATED', amount: order.amount };
      this.authorizations.set(authorization.id, authorization);
      order.status = 'COMPLETED';
      order.authorizationId = authorization.id;
      if (requestId) this.byRequestId.set(requestId, order.id);
      return send(failure?.kind === 'lost' ? 500 : 201, this.orderJson(order));
    }
    return send(405, { name: 'METHOD_NOT_SUPPORTED' });
  }

  /** Payments v2: an authorization's capture or void, a capture's refund. */
  private payment(
    collection: string, id: string, operation: PayPalOperation, requestId: string | undefined, res: http.ServerResponse,
    send: (status: number, body: unknown) => void, error: (status: number, issue: string, description?: string) => void,
  ): void {
    // The same PayPal-Request-Id: the first answer again, nothing done twice.
    const first = requestId ? this.answers.get(`${operation}|${requestId}`) : undefined;
    if (first) return first.status === 204 ? void res.writeHead(204).end() : send(first.status, first.body);
    const failure = this.failures.get(operation)?.shift();
    if (failure?.kind === 'down') return send(503, { name: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' });
    if (failure?.kind === 'refused') return error(422, failure.issue, failure.description);
    const done = (status: number, body: unknown) => {
      if (requestId) this.answers.set(`${operation}|${requestId}`, { status, body });
      if (failure?.kind === 'lost') return send(500, { name: 'INTERNAL_SERVER_ERROR' });
      return status === 204 ? void res.writeHead(204).end() : send(status, body);
    };

    if (collection === 'authorizations' && (operation === 'capture' || operation === 'void')) {
      const authorization = this.authorizations.get(id);
      if (!authorization) return send(404, { name: 'RESOURCE_NOT_FOUND' });
      if (authorization.status === 'VOIDED') return error(422, operation === 'void' ? 'PREVIOUSLY_VOIDED' : 'AUTHORIZATION_VOIDED');
      if (authorization.status === 'CAPTURED') return error(422, operation === 'void' ? 'PREVIOUSLY_CAPTURED' : 'AUTHORIZATION_ALREADY_CAPTURED');
      if (operation === 'void') {
        authorization.status = 'VOIDED';
        return done(204, null);
      }
      const capture: Capture = {
        id: `CAP-${randomBytes(6).toString('hex').toUpperCase()}`, authorizationId: id, status: 'COMPLETED', amount: authorization.amount, refundIds: [],
      };
      this.captures.set(capture.id, capture);
      authorization.status = 'CAPTURED';
      authorization.captureId = capture.id;
      return done(201, { id: capture.id, status: capture.status, amount: capture.amount, final_capture: true });
    }
    if (collection === 'captures' && operation === 'refund') {
      const capture = this.captures.get(id);
      if (!capture) return send(404, { name: 'RESOURCE_NOT_FOUND' });
      if (capture.refundIds.length > 0) return error(422, 'CAPTURE_FULLY_REFUNDED');
      const refund: Refund = { id: `REF-${randomBytes(6).toString('hex').toUpperCase()}`, captureId: id, status: 'COMPLETED', amount: capture.amount };
      this.refunds.set(refund.id, refund);
      capture.refundIds.push(refund.id);
      return done(201, { id: refund.id, status: refund.status, amount: refund.amount });
    }
    return send(404, { name: 'RESOURCE_NOT_FOUND' });
  }
}
