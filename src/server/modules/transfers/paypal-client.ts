import type { Config } from '@server/config.js';

// PayPal Orders v2 and Payments v2 over plain HTTPS (docs/rules/money-states.md#paypal):
// client-credentials token, an order with intent AUTHORIZE, its authorization when the payer comes
// back, then the authorization's capture, void, and the capture's refund. PAYPAL_API_BASE points at
// the sandbox by default, or at a loopback peer in tests.

export class PayPalError extends Error {
  constructor(
    readonly status: number,
    readonly issue: string | null,
    message: string,
    /** PayPal's own words for the issue, when it gave them. */
    readonly description: string | null = null,
  ) {
    super(message);
  }

  /** PayPal answered and said no (4xx): retrying the same call will not change its mind. */
  get refused(): boolean {
    return this.status >= 400 && this.status < 500;
  }

  /** The reason as staff read it: PayPal's issue code and description. */
  get reason(): string {
    return [this.issue, this.description].filter(Boolean).join(': ') || `HTTP ${this.status}`;
  }
}

interface PayPalLink { href: string; rel: string }
interface PayPalAmount { currency_code: string; value: string }
/** An authorization, a capture or a refund: PayPal's id, its status and (when asked for) the amount. */
export interface PayPalPayment { id: string; status: string; amount?: PayPalAmount }
export interface PayPalOrder {
  id: string;
  status: string;
  links?: PayPalLink[];
  purchase_units?: {
    payments?: { authorizations?: PayPalPayment[]; captures?: PayPalPayment[] };
  }[];
}

export function paypalConfigured(config: Config): boolean {
  return Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET);
}

// Tokens last hours; one per client id is reused until a minute before it expires.
const tokenCache = new Map<string, { token: string; expiresAt: number }>();

async function call<T>(config: Config, path: string, init: RequestInit): Promise<T> {
  const res = await fetch(new URL(path, config.PAYPAL_API_BASE), { ...init, signal: AbortSignal.timeout(15_000) });
  // A void answers 204 with no body.
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const details = body.details as { issue?: string; description?: string }[] | undefined;
    throw new PayPalError(
      res.status, details?.[0]?.issue ?? (body.name as string | undefined) ?? null, `PayPal ${path} answered ${res.status}`,
      details?.[0]?.description ?? (body.message as string | undefined) ?? null,
    );
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
      // PayPal's own idempotency: a retried call with the same id returns the first result.
      ...(init.requestId ? { 'PayPal-Request-Id': init.requestId } : {}),
      // The whole resource (a capture's amount), not only its id and status.
      Prefer: 'return=representation',
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
      intent: 'AUTHORIZE',
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

/** The payer approved: PayPal holds the money (an authorization), nothing is charged yet. */
export function authorizeOrder(config: Config, orderId: string): Promise<PayPalOrder> {
  return authed<PayPalOrder>(config, `/v2/checkout/orders/${encodeURIComponent(orderId)}/authorize`, {
    method: 'POST', requestId: `authorize-${orderId}`, body: '{}',
  });
}

/**
 * Charges the sender: the whole authorized amount, once. The request id comes from the
 * authorization, so a retry (staff again after a crash or a timeout) returns the same capture.
 */
export function captureAuthorization(config: Config, authorizationId: string): Promise<PayPalPayment> {
  return authed<PayPalPayment>(config, `/v2/payments/authorizations/${encodeURIComponent(authorizationId)}/capture`, {
    method: 'POST', requestId: `capture-${authorizationId}`, body: JSON.stringify({ final_capture: true }),
  });
}

/** Releases the money PayPal holds for an authorization (204 once done). */
export async function voidAuthorization(config: Config, authorizationId: string, requestId: string): Promise<void> {
  await authed<unknown>(config, `/v2/payments/authorizations/${encodeURIComponent(authorizationId)}/void`, {
    method: 'POST', requestId, body: '{}',
  });
}

/** Refunds a capture in full; PayPal's refund id is the refund's reference. */
export function refundCapture(config: Config, captureId: string, requestId: string): Promise<PayPalPayment> {
  return authed<PayPalPayment>(config, `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {
    method: 'POST', requestId, body: '{}',
  });
}

/** Where the payer approves: `payer-action` with payment_source, `approve` with the older context. */
export function approvalLink(order: PayPalOrder): string | null {
  return order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href ?? null;
}

/** The order's authorization, once the payer's approval was authorized. */
export function orderAuthorization(order: PayPalOrder): PayPalPayment | null {
  return order.purchase_units?.[0]?.payments?.authorizations?.[0] ?? null;
}
