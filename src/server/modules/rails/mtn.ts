import { normalizeDecimal } from '@core/money.js';
import type {
  BalanceAnswer, Collection, Disbursement, MobileMoneyOperator, MoneyOutcome, NameAnswer, OperatorStep,
} from './operator.js';

// MTN MoMo's Open API (momodeveloper.mtn.com): one token per product (disbursement, collection)
// from Basic apiUser:apiKey and the product's subscription key; a transfer or a request-to-pay is
// accepted with 202 under our X-Reference-Id, then asked about with GET until SUCCESSFUL or FAILED.

export interface MtnSettings {
  baseUrl: string;
  /** X-Target-Environment: 'mtnrwanda' in production, 'sandbox' on the developer portal. */
  targetEnvironment: string;
  apiUser: string;
  apiKey: string;
  disbursementKey: string;
  collectionKey: string;
  /** Sent as X-Callback-Url: MTN calls it once when the transaction is final, and never again. */
  callbackUrl?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

type Product = 'disbursement' | 'collection';
type Call = OperatorStep['call'];
type Body = Record<string, unknown>;

/** An HTTP answer, or why none came. */
type Answer = { status: number; body: Body } | { status: null; reason: 'timeout' | 'connection_lost' };
interface Token { token: string; expiresAt: number }
interface Extra { headers?: Record<string, string>; body?: Body }

/**
 * FAILED reasons that say the money did not move. Any other reason (INTERNAL_PROCESSING_ERROR,
 * SERVICE_UNAVAILABLE, PAYER_ONGOING, none at all…) may hide a transfer still being processed:
 * it is `unknown` and asked about again, so that a second attempt never pays twice.
 */
const FINAL_FAILURES = new Set([
  'PAYEE_NOT_FOUND', 'PAYER_NOT_FOUND', 'PAYEE_NOT_ALLOWED_TO_RECEIVE', 'NOT_ALLOWED',
  'NOT_ALLOWED_TARGET_ENVIRONMENT', 'INVALID_CALLBACK_URL_HOST', 'INVALID_CURRENCY', 'NOT_ENOUGH_FUNDS',
  'PAYER_LIMIT_REACHED', 'PAYMENT_NOT_APPROVED', 'APPROVAL_REJECTED', 'EXPIRED', 'TRANSACTION_CANCELED',
]);
/** For a request-to-pay MTN gives this when the payer did not approve within its five minutes. */
const COLLECTION_FINAL_FAILURES = new Set(['COULD_NOT_PERFORM_TRANSACTION']);

const MESSAGE_LENGTH = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class MtnOperator implements MobileMoneyOperator {
  readonly operator = 'mtn';
  /** In flight or cached, so that a burst of payouts asks for one token, not one each. */
  private tokens = new Map<Product, Promise<Token | Answer>>();
  /** The last token of each product, kept only to be cut out of any message that echoes it. */
  private issued = new Map<Product, string>();
  private readonly fetch: typeof fetch;

  constructor(private readonly settings: MtnSettings) {
    this.fetch = settings.fetch ?? fetch;
  }

  disburse(order: Disbursement): Promise<MoneyOutcome> {
    return this.start('disbursement', '/disbursement/v1_0/transfer', 'disburse', order, 'payee');
  }

  disbursement(reference: string): Promise<MoneyOutcome> {
    return this.enquire('disbursement', `/disbursement/v1_0/transfer/${encodeURIComponent(reference)}`, 'disbursement');
  }

  collect(order: Collection): Promise<MoneyOutcome> {
    return this.start('collection', '/collection/v1_0/requesttopay', 'collect', order, 'payer');
  }

  collection(reference: string): Promise<MoneyOutcome> {
    return this.enquire('collection', `/collection/v1_0/requesttopay/${encodeURIComponent(reference)}`, 'collection');
  }

  // The country is the target environment's: one client per MTN country.
  async registeredName(msisdn: string, _country: 'GA' | 'RW'): Promise<NameAnswer> {
    const answer = await this.authed('disbursement', 'GET', `/disbursement/v1_0/accountholder/msisdn/${mtnMsisdn(msisdn)}/basicuserinfo`);
    const step = this.step('registered_name', answer);
    if (answer.status === 404) return { state: 'unknown_number', step };
    if (answer.status !== 200) return { state: 'unavailable', reason: failureReason(answer), step };
    const holderStatus = text(answer.body.status)?.toUpperCase();
    if (holderStatus && /BLOCK|BARR|SUSPEND/.test(holderStatus)) return { state: 'barred', step };
    if (holderStatus && holderStatus !== 'ACTIVE') return { state: 'inactive', step };
    const name = text(answer.body.name) ?? [text(answer.body.given_name), text(answer.body.family_name)].filter(Boolean).join(' ');
    return name ? { state: 'registered', name, step } : { state: 'unavailable', reason: 'no_name', step };
  }

  async balance(_currency: 'XAF' | 'RWF', _country: 'GA' | 'RW'): Promise<BalanceAnswer> {
    const answer = await this.authed('disbursement', 'GET', '/disbursement/v1_0/account/balance');
    const step = this.step('balance', answer);
    if (answer.status !== 200) return { state: 'unavailable', reason: failureReason(answer), step };
    const amount = normalizeDecimal(text(answer.body.availableBalance) ?? '');
    const currency = text(answer.body.currency);
    return amount && currency ? { state: 'ok', amount, currency, step } : { state: 'unavailable', reason: 'malformed_balance', step };
  }

  /** POST of a transfer or a request-to-pay: 202 only says MTN queued it. */
  private async start(product: Product, path: string, call: Call, order: Disbursement | Collection, party: 'payee' | 'payer'): Promise<MoneyOutcome> {
    const answer = await this.authed(product, 'POST', path, {
      headers: {
        'X-Reference-Id': order.reference,
        ...(this.settings.callbackUrl ? { 'X-Callback-Url': this.settings.callbackUrl } : {}),
      },
      body: {
        amount: order.amount,
        currency: order.currency,
        // Our reference again, so that a callback and MTN's statement name the attempt.
        externalId: order.reference,
        [party]: { partyIdType: 'MSISDN', partyId: mtnMsisdn(order.msisdn) },
        payerMessage: order.note,
        payeeNote: order.note,
      },
    });
    const step = this.step(call, answer);
    if (answer.status === 202) return { state: 'pending', operator_id: null, step };
    // A reused reference: MTN holds a transaction under it already, only its status says which.
    if (answer.status === 409) return { state: 'unknown', reason: 'RESOURCE_ALREADY_EXIST', step, held: true };
    // Any other 4xx is the gateway refusing the request: nothing was created.
    if (answer.status !== null && answer.status >= 400 && answer.status < 500) return { state: 'failed', reason: failureReason(answer), step };
    return { state: 'unknown', reason: failureReason(answer), step };
  }

  private async enquire(product: Product, path: string, call: Call): Promise<MoneyOutcome> {
    const answer = await this.authed(product, 'GET', path);
    const step = this.step(call, answer);
    // Only MTN's own code says "never created": a 404 from a wrong base URL says nothing.
    if (answer.status === 404 && answer.body.code === 'RESOURCE_NOT_FOUND') return { state: 'not_found', step };
    if (answer.status !== 200) return { state: 'unknown', reason: failureReason(answer), step };
    const operatorId = text(answer.body.financialTransactionId);
    switch (answer.body.status) {
      case 'SUCCESSFUL': return { state: 'succeeded', operator_id: operatorId, step };
      case 'PENDING': return { state: 'pending', operator_id: operatorId, step };
      case 'FAILED': {
        const reason = reasonCode(answer.body.reason);
        const final = reason !== null && (FINAL_FAILURES.has(reason) || (product === 'collection' && COLLECTION_FINAL_FAILURES.has(reason)));
        return final ? { state: 'failed', reason, step } : { state: 'unknown', reason: reason ?? 'FAILED', step };
      }
      default: return { state: 'unknown', reason: `status ${String(answer.body.status)}`, step };
    }
  }

  /** A call with the product's token; an expired or revoked token (401) is renewed once. */
  private async authed(product: Product, method: 'GET' | 'POST', path: string, extra: Extra = {}): Promise<Answer> {
    const answer = await this.once(product, method, path, extra, false);
    return answer.status === 401 ? this.once(product, method, path, extra, true) : answer;
  }

  private async once(product: Product, method: 'GET' | 'POST', path: string, extra: Extra, renew: boolean): Promise<Answer> {
    const token = await this.token(product, renew);
    if ('status' in token) return token;
    return this.request(method, path, {
      headers: {
        Authorization: `Bearer ${token.token}`,
        'X-Target-Environment': this.settings.targetEnvironment,
        'Ocp-Apim-Subscription-Key': this.subscriptionKey(product),
        ...extra.headers,
      },
      body: extra.body,
    });
  }

  /** The cached token until a minute (or half its life) before it expires; when none comes, the token call's answer. */
  private async token(product: Product, renew: boolean): Promise<Token | Answer> {
    const cached = renew ? undefined : await this.tokens.get(product);
    if (cached && 'token' in cached && cached.expiresAt > Date.now()) return cached;
    const fresh = this.newToken(product);
    this.tokens.set(product, fresh);
    const token = await fresh;
    if ('status' in token && this.tokens.get(product) === fresh) this.tokens.delete(product);
    return token;
  }

  private async newToken(product: Product): Promise<Token | Answer> {
    const basic = Buffer.from(`${this.settings.apiUser}:${this.settings.apiKey}`).toString('base64');
    const answer = await this.request('POST', `/${product}/token/`, {
      headers: { Authorization: `Basic ${basic}`, 'Ocp-Apim-Subscription-Key': this.subscriptionKey(product) },
    });
    if (answer.status !== 200) {
      // The step names the token call: the money call itself never left.
      return answer.status === null ? answer : { status: answer.status, body: { ...answer.body, message: `token: ${text(answer.body.message) ?? 'refused'}` } };
    }
    const token = text(answer.body.access_token);
    if (!token) return { status: 502, body: { message: 'token: answer without access_token' } };
    this.issued.set(product, token);
    const lifetimeMs = Number(answer.body.expires_in ?? 3600) * 1000;
    return { token, expiresAt: Date.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 2) };
  }

  private async request(method: 'GET' | 'POST', path: string, init: { headers: Record<string, string>; body?: Body }): Promise<Answer> {
    try {
      // Appended, not resolved: a base URL with a path (a proxy's prefix) keeps it.
      const res = await this.fetch(`${this.settings.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: { Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
        body: init.body ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      const raw = await res.text();
      return { status: res.status, body: parseBody(raw) };
    } catch (error) {
      return { status: null, reason: error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'connection_lost' };
    }
  }

  private subscriptionKey(product: Product): string {
    return product === 'disbursement' ? this.settings.disbursementKey : this.settings.collectionKey;
  }

  /** What the attempt keeps of an answer: MTN's code and message, never a credential. */
  private step(call: Call, answer: Answer): OperatorStep {
    const at = new Date().toISOString();
    if (answer.status === null) return { at, call, http_status: null, operator_code: null, message: answer.reason };
    const { body } = answer;
    const reason = body.reason;
    const code = reasonCode(reason) ?? text(body.code) ?? text(body.status);
    const message = (typeof reason === 'object' && reason !== null ? text((reason as Body).message) : null) ?? text(body.message);
    return { at, call, http_status: answer.status, operator_code: code, message: message === null ? null : this.redact(message) };
  }

  private redact(message: string): string {
    const secrets = [this.settings.apiKey, this.settings.disbursementKey, this.settings.collectionKey, ...this.issued.values()];
    let clean = message;
    for (const secret of secrets) if (secret) clean = clean.split(secret).join('…');
    // A bearer token or Basic credentials echoed back by a gateway.
    clean = clean.replace(/\b(Bearer|Basic)\s+\S+/gi, '$1 …');
    return clean.trim().slice(0, MESSAGE_LENGTH);
  }
}

/**
 * Our reference in an MTN callback (the body of the status enquiry, PUT or POST to X-Callback-Url),
 * or null when the body holds none. MTN signs nothing, so the headers prove nothing: the callback
 * only tells the app which reference to ask about.
 */
export function mtnCallbackReference(body: unknown, _headers: Record<string, string | string[] | undefined>): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const { referenceId, externalId } = body as Body;
  for (const candidate of [referenceId, externalId]) if (typeof candidate === 'string' && UUID.test(candidate)) return candidate.toLowerCase();
  return null;
}

/** E.164 (+250788123456) as MTN's partyId: digits only, country code first. */
function mtnMsisdn(msisdn: string): string {
  return msisdn.replace(/^\+/, '');
}

/** MTN's reason, as an object { code, message } (the published schema) or a bare code (seen in production). */
function reasonCode(reason: unknown): string | null {
  if (typeof reason === 'object' && reason !== null) return text((reason as Body).code);
  return text(reason);
}

function failureReason(answer: Answer): string {
  if (answer.status === null) return answer.reason;
  return text(answer.body.code) ?? reasonCode(answer.body.reason) ?? `http_${answer.status}`;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function parseBody(raw: string): Body {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Body) : {};
  } catch {
    return raw.trim() ? { message: raw } : {};
  }
}
