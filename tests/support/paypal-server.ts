import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Order {
  id: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';
  amount: { currency_code: string; value: string };
  returnUrl: string;
  cancelUrl: string;
  captureId?: string;
}

/**
 * A PayPal-compatible HTTP peer on loopback speaking the parts of the REST API the app uses:
 * client-credentials tokens, Orders v2 create / get / capture (with PayPal-Request-Id
 * idempotency) and the payer's approval page, which redirects to the order's return URL.
 */
export class PayPalServer {
  readonly clientId = 'test-client';
  readonly clientSecret = 'test-secret';
  readonly orders = new Map<string, Order>();
  readonly requests: { method: string; path: string }[] = [];
  private tokens = new Set<string>();
  private byRequestId = new Map<string, string>();
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
      purchase_units: [{
        amount: o.amount,
        ...(o.captureId ? { payments: { captures: [{ id: o.captureId, status: 'COMPLETED', amount: o.amount }] } } : {}),
      }],
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    this.requests.push({ method: req.method ?? '', path: url.pathname });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    const error = (status: number, issue: string) => send(status, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue }] });

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
      if (body.intent !== 'CAPTURE' || !unit || !/^\d+(\.\d{2})?$/.test(unit.amount.value)) return error(422, 'INVALID_PARAMETER_VALUE');
      const ctx = body.payment_source.paypal.experience_context;
      const order: Order = { id: randomBytes(8).toString('hex').toUpperCase(), status: 'PAYER_ACTION_REQUIRED', amount: unit.amount, returnUrl: ctx.return_url, cancelUrl: ctx.cancel_url };
      this.orders.set(order.id, order);
      if (requestId) this.byRequestId.set(requestId, order.id);
      return send(201, this.orderJson(order));
    }

    const match = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(url.pathname);
    const order = match ? this.orders.get(match[1]!) : undefined;
    if (!order) return send(404, { name: 'RESOURCE_NOT_FOUND' });
    if (req.method === 'GET' && !match![2]) return send(200, this.orderJson(order));
    if (req.method === 'POST' && match![2]) {
      if (order.status === 'COMPLETED') return known ? send(201, this.orderJson(order)) : error(422, 'ORDER_ALREADY_CAPTURED');
      if (order.status !== 'APPROVED') return error(422, 'ORDER_NOT_APPROVED');
      order.status = 'COMPLETED';
      order.captureId = `CAP-${randomBytes(6).toString('hex').toUpperCase()}`;
      if (requestId) this.byRequestId.set(requestId, order.id);
      return send(201, this.orderJson(order));
    }
    return send(405, { name: 'METHOD_NOT_SUPPORTED' });
  }
}
