import type { Config } from '@server/config.js';

// PayPal Orders v2 over plain HTTPS: client-credentials token, create order,
// capture on return. PAYPAL_API_BASE points at the sandbox by default, or at a loopback peer in tests.

export class PayPalError extends Error {
  constructor(readonly status: number, readonly issue: string | null, message: string) {
    super(message);
  }
}

interface PayPalLink { href: string; rel: string }
export interface PayPalOrder {
  id: string;
  status: string;
  links?: PayPalLink[];
  purchase_units?: {
    payments?: { captures?: { id: string; status: string; amount: { currency_code: string; value: string } }[] };
  }[];
}

export function paypalConfigured(config: Config): boolean {
  return Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET);
}

// Tokens last hours; one per client id is reused until a minute before it expires.
const tokenCache = new Map<string, { token: string; expiresAt: number }>();

async function call<T>(config: Config, path: string, init: RequestInit): Promise<T> {
  const res = await fetch(new URL(path, config.PAYPAL_API_BASE), { ...init, signal: AbortSignal.timeout(15_000) });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const details = body.details as { issue?: string }[] | undefined;
    throw new PayPalError(res.status, details?.[0]?.issue ?? (body.name as string | undefined) ?? null, `PayPal ${path} answered ${res.status}`);
  }
  return body as T;
}

async function accessToken(config: Config): Promise<string> {
  const cacheKey = `${config.PAYPAL_API_BASE}|${config.PAYPAL_CLIENT_ID}`;
  const cached = tokenCache.get(cacheKey);
  if (cached && cached.expiresAt > Date.now()) return cached.token;
  const basic = Buffer.from(`${config.PAYPAL_CLIENT_ID}:${config.PAYPAL_CLIENT_SECRET}`).toString('base64');
  const body = await call<{ access_token: string; expires_in: number }>(config, '/v1/oauth2/token', {
    method: 'POST',
    headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: 'grant_type=client_credentials',
  });
  tokenCache.set(cacheKey, { token: body.access_token, expiresAt: Date.now() + (body.expires_in - 60) * 1000 });
  return body.access_token;
}

async function authed<T>(config: Config, path: string, init: RequestInit & { requestId?: string }): Promise<T> {
  const token = await accessToken(config);
  return call<T>(config, path, {
    ...init,
    headers: {
      Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json',
      // PayPal's own idempotency: a retried create or capture returns the first result.
      ...(init.requestId ? { 'PayPal-Request-Id': init.requestId } : {}),
    },
  });
}

export interface NewOrder {
  requestId: string;
  reference: string;
  currency: string;
  total: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
}

export function createOrder(config: Config, order: NewOrder): Promise<PayPalOrder> {
  return authed<PayPalOrder>(config, '/v2/checkout/orders', {
    method: 'POST',
    requestId: `create-${order.requestId}`,
    body: JSON.stringify({
      intent: 'CAPTURE',
      purchase_units: [{
        reference_id: order.requestId,
        custom_id: order.reference,
        description: order.description,
        amount: { currency_code: order.currency, value: order.total },
      }],
      payment_source: {
        paypal: { experience_context: { user_action: 'PAY_NOW', return_url: order.returnUrl, cancel_url: order.cancelUrl } },
      },
    }),
  });
}

export function getOrder(config: Config, orderId: string): Promise<PayPalOrder> {
  return authed<PayPalOrder>(config, `/v2/checkout/orders/${encodeURIComponent(orderId)}`, { method: 'GET' });
}

export function captureOrder(config: Config, orderId: string): Promise<PayPalOrder> {
  return authed<PayPalOrder>(config, `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, {
    method: 'POST', requestId: `capture-${orderId}`, body: '{}',
  });
}

/** Where the payer approves: `payer-action` with payment_source, `approve` with the older context. */
export function approvalLink(order: PayPalOrder): string | null {
  return order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href ?? null;
}

export function completedCapture(order: PayPalOrder) {
  return order.purchase_units?.[0]?.payments?.captures?.find((c) => c.status === 'COMPLETED') ?? null;
}
