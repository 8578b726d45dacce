import { constants, createHmac, publicEncrypt, timingSafeEqual } from 'node:crypto';
import { normalizeDecimal } from '@core/money.js';
import type {
  BalanceAnswer, Collection, Disbursement, MobileMoneyOperator, MoneyOutcome, NameAnswer, OperatorStep,
} from './operator.js';

// Airtel Africa's Open API (developers.airtel.africa): a client-credentials token, then JSON calls
// naming the country and currency in X-Country / X-Currency. Every answer is an envelope
// { data, status: { code, message, result_code, response_code, success } } and its code, not the
// HTTP status, says what happened: refusals often arrive inside an HTTP 200.

type Country = 'GA' | 'RW';

export interface AirtelSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The disbursement wallet's PIN: it leaves only encrypted with `publicKeyPem`. */
  pin: string;
  /** Airtel's RSA public key: PEM, or the base64 body the portal shows. */
  publicKeyPem: string;
  /** One client per Airtel country: the status enquiries name it, and they carry only our reference. */
  country: Country;
  timeoutMs: number;
  fetch?: typeof fetch;
}

const COUNTRIES: Record<Country, { dialCode: string; currency: 'XAF' | 'RWF' }> = {
  GA: { dialCode: '241', currency: 'XAF' },
  RW: { dialCode: '250', currency: 'RWF' },
};

type Call = OperatorStep['call'];
type Body = Record<string, unknown>;
/** Airtel's answer (HTTP status, and the body when it was JSON), or why none came. */
type Answer = { status: number; body: Body } | { status: null; reason: 'timeout' | 'connection_lost' | 'token_unavailable'; message: string };
type Verdict = { state: 'succeeded' | 'pending' } | { state: 'failed'; reason: string } | { state: 'unknown'; reason: string; held?: true };
interface Token { value: string; renewAt: number }

const failed = (reason: string): Verdict => ({ state: 'failed', reason });
const unknown = (reason: string): Verdict => ({ state: 'unknown', reason });
/** Airtel says it already holds a transaction under this id: only its status says how it stands. */
const held = (reason: string): Verdict => ({ state: 'unknown', reason, held: true });

/**
 * Disbursement codes (DP009…) as Airtel documents them. Only a refusal is `failed`; an ambiguous,
 * timed-out, duplicate or unlisted code may hide money that moved, so it is `unknown` and asked
 * about again.
 */
const DISBURSE_CODES: Record<string, Verdict> = {
  DP00900001001: { state: 'succeeded' },
  DP00900001006: { state: 'pending' },
  DP00900001000: unknown('ambiguous'),
  DP00900001011: held('already_exists'),
  DP00900001014: unknown('operator_timeout'),
  DP00900001017: held('duplicate_id'),
  DP00900001003: failed('limit_reached'),
  DP00900001004: failed('invalid_amount'),
  DP00900001005: failed('failed'),
  DP00900001007: failed('insufficient_funds'),
  DP00900001009: failed('invalid_initiatee'),
  DP00900001010: failed('payer_not_allowed'),
  DP00900001012: failed('invalid_number'),
  DP00900001013: failed('refused'),
  DP00900001016: failed('signature_mismatch'),
};

/** Collection (USSD push) codes (DP008…): 1006 says the push reached the phone. */
const COLLECT_CODES: Record<string, Verdict> = {
  DP00800001001: { state: 'succeeded' },
  DP00800001006: { state: 'pending' },
  DP00800001000: unknown('ambiguous'),
  DP00800001024: unknown('operator_timeout'),
  DP00800001002: failed('incorrect_pin'),
  DP00800001003: failed('limit_reached'),
  DP00800001004: failed('invalid_amount'),
  DP00800001005: failed('pin_not_entered'),
  DP00800001007: failed('insufficient_balance'),
  DP00800001008: failed('refused'),
  DP00800001009: failed('do_not_honor'),
  DP00800001010: failed('payer_not_permitted'),
  DP00800001029: failed('expired'),
};

/**
 * The router's answers in front of every API (result_code): a refusal, the request went no
 * further; or the id already used, by a transaction the router holds.
 */
const ROUTER_REFUSALS: Record<string, Verdict> = {
  ESB000041: held('already_exists'),
  ROUTER001: failed('wallet_not_configured'),
  ROUTER003: failed('missing_parameters'),
  ROUTER005: failed('country_not_configured'),
  ROUTER006: failed('invalid_country'),
  ROUTER007: failed('country_not_authorized'),
  ROUTER112: failed('invalid_currency'),
  ROUTER114: failed('pin_refused'),
  ROUTER115: failed('pin_refused'),
  ROUTER116: failed('pin_refused'),
  ROUTER119: failed('invalid_currency'),
};

/** Enquiry codes saying Airtel holds no transaction under that id. */
const NOT_FOUND_CODES = new Set(['DP00900001015', 'DP00800001025']);
const USER_FOUND = 'DP02200000001';
const USER_NOT_FOUND = 'DP02200000002';
const BALANCE_FOUND = 'DP02100000001';
/** Airtel's only documented registration status of a subscriber's wallet. */
const SUBSCRIBER = 'SUBS';
const MESSAGE_LENGTH = 200;

export class AirtelOperator implements MobileMoneyOperator {
  readonly operator = 'airtel';
  /** In flight or cached, so that a burst of payouts asks for one token, not one each. */
  private token: Promise<Token | Answer> | null = null;
  /** Issued tokens, kept only to be cut out of any message that echoes one. */
  private issued = new Set<string>();
  private readonly encryptedPin: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly settings: AirtelSettings) {
    this.fetch = settings.fetch ?? fetch;
    // PKCS#1 v1.5, as Airtel's samples encrypt it; random padding, so once is as good as each time.
    this.encryptedPin = publicEncrypt({ key: pemOf(settings.publicKeyPem), padding: constants.RSA_PKCS1_PADDING }, Buffer.from(settings.pin)).toString('base64');
  }

  async disburse(order: Disbursement): Promise<MoneyOutcome> {
    const answer = await this.authed('POST', '/standard/v2/disbursements/', order.country, {
      payee: { msisdn: this.nationalNumber(order.msisdn, order.country), wallet_type: 'NORMAL' },
      reference: airtelReference(order.note, order.reference),
      pin: this.encryptedPin,
      transaction: { amount: exactAmount(order.amount), id: order.reference, type: 'B2C' },
    });
    return this.moneyOutcome('disburse', answer, DISBURSE_CODES);
  }

  async disbursement(reference: string): Promise<MoneyOutcome> {
    const answer = await this.authed('GET', `/standard/v2/disbursements/${encodeURIComponent(reference)}?transactionType=B2C`, this.settings.country);
    return this.enquiryOutcome('disbursement', answer, DISBURSE_CODES);
  }

  async collect(order: Collection): Promise<MoneyOutcome> {
    const answer = await this.authed('POST', '/merchant/v2/payments/', order.country, {
      reference: airtelReference(order.note, order.reference),
      subscriber: { country: order.country, currency: order.currency, msisdn: this.nationalNumber(order.msisdn, order.country) },
      transaction: { amount: exactAmount(order.amount), country: order.country, currency: order.currency, id: order.reference },
    });
    return this.moneyOutcome('collect', answer, COLLECT_CODES);
  }

  async collection(reference: string): Promise<MoneyOutcome> {
    const answer = await this.authed('GET', `/standard/v1/payments/${encodeURIComponent(reference)}`, this.settings.country);
    return this.enquiryOutcome('collection', answer, COLLECT_CODES);
  }

  async registeredName(msisdn: string, country: Country): Promise<NameAnswer> {
    const answer = await this.authed('GET', `/standard/v1/users/${this.nationalNumber(msisdn, country)}`, country);
    const step = this.step('registered_name', answer);
    if (answer.status === null) return { state: 'unavailable', reason: answer.reason, step };
    if (step.operator_code === USER_NOT_FOUND) return { state: 'unknown_number', step };
    const user = record(answer.body.data);
    if (step.operator_code !== USER_FOUND || !user) return { state: 'unavailable', reason: unavailableReason(answer, step), step };
    if (user.is_barred === true || user.is_barred === 'true') return { state: 'barred', step };
    const registration = text(record(user.registration)?.status);
    const accountStatus = text(user.account_status);
    if ((registration && registration !== SUBSCRIBER) || (accountStatus && accountStatus !== 'Y')) return { state: 'inactive', step };
    const name = [text(user.first_name), text(user.last_name)].filter(Boolean).join(' ');
    return name ? { state: 'registered', name, step } : { state: 'unavailable', reason: 'no_name', step };
  }

  async balance(currency: 'XAF' | 'RWF', country: Country): Promise<BalanceAnswer> {
    if (COUNTRIES[country].currency !== currency) throw new RangeError(`Airtel ${country} holds no ${currency} wallet`);
    const answer = await this.authed('GET', '/standard/v1/users/balance', country);
    const step = this.step('balance', answer);
    if (answer.status === null) return { state: 'unavailable', reason: answer.reason, step };
    const data = record(answer.body.data);
    const amount = step.operator_code === BALANCE_FOUND ? normalizeDecimal(text(data?.balance) ?? '') : null;
    if (!amount) return { state: 'unavailable', reason: unavailableReason(answer, step), step };
    return { state: 'ok', amount, currency: text(data?.currency) ?? currency, step };
  }

  /** The answer to a disbursement or a USSD push: its code decides, the HTTP status only when no code came. */
  private moneyOutcome(call: Call, answer: Answer, codes: Record<string, Verdict>): MoneyOutcome {
    const step = this.step(call, answer);
    if (answer.status === null) return { state: 'unknown', reason: answer.reason, step };
    if (answer.status >= 500) return { state: 'unknown', reason: `http_${answer.status}`, step };
    const code = step.operator_code;
    const verdict = code ? codes[code] ?? ROUTER_REFUSALS[code] ?? unknown(code) : unknown(`http_${answer.status}`);
    return this.outcome(verdict, answer, step);
  }

  /**
   * A status enquiry: the transaction's status (TS, TF, TIP, TA, TE) decides. An enquiry that
   * failed says nothing of the transaction (unknown), except Airtel's own "not found".
   */
  private enquiryOutcome(call: Call, answer: Answer, codes: Record<string, Verdict>): MoneyOutcome {
    const step = this.step(call, answer);
    if (answer.status === null) return { state: 'unknown', reason: answer.reason, step };
    const code = step.operator_code;
    const status = text(record(record(answer.body.data)?.transaction)?.status);
    if (!status && answer.status < 500 && code && NOT_FOUND_CODES.has(code)) return { state: 'not_found', step };
    const refusal = code ? codes[code] : undefined;
    const verdict = status
      ? statusVerdict(status, call, refusal?.state === 'failed' ? refusal.reason : 'failed')
      : unknown(answer.status >= 500 ? `http_${answer.status}` : code ?? 'unreadable_answer');
    return this.outcome(verdict, answer, step);
  }

  private outcome(verdict: Verdict, answer: Answer & { status: number }, step: OperatorStep): MoneyOutcome {
    if (verdict.state === 'failed' || verdict.state === 'unknown') return { ...verdict, step };
    const operatorId = text(record(record(answer.body.data)?.transaction)?.airtel_money_id);
    return { state: verdict.state, operator_id: operatorId, step };
  }

  /** A call with the cached token; an expired or revoked token (401) is renewed once. */
  private async authed(method: 'GET' | 'POST', path: string, country: Country, body?: Body): Promise<Answer> {
    if (country !== this.settings.country) throw new RangeError(`this Airtel client serves ${this.settings.country}, not ${country}`);
    const answer = await this.once(method, path, body, false);
    return answer.status === 401 ? this.once(method, path, body, true) : answer;
  }

  private async once(method: 'GET' | 'POST', path: string, body: Body | undefined, renew: boolean): Promise<Answer> {
    const token = await this.bearer(renew);
    if ('status' in token) return token;
    return this.request(method, path, {
      Authorization: `Bearer ${token.value}`,
      'X-Country': this.settings.country,
      'X-Currency': COUNTRIES[this.settings.country].currency,
    }, body);
  }

  /** The cached token until 30 s (or half its life) before it expires; when none comes, why. */
  private async bearer(renew: boolean): Promise<Token | Answer> {
    const cached = renew ? null : await this.token;
    if (cached && 'value' in cached && cached.renewAt > Date.now()) return cached;
    const fresh = this.newToken();
    this.token = fresh;
    const token = await fresh;
    if ('status' in token && this.token === fresh) this.token = null;
    return token;
  }

  private async newToken(): Promise<Token | Answer> {
    const answer = await this.request('POST', '/auth/oauth2/token', {}, {
      client_id: this.settings.clientId, client_secret: this.settings.clientSecret, grant_type: 'client_credentials',
    });
    // The money call never left: the step says why, in the token call's words.
    if (answer.status === null) return { ...answer, message: `token: ${answer.message}` };
    const value = text(answer.body.access_token);
    if (answer.status !== 200 || !value) return { status: null, reason: 'token_unavailable', message: `token: HTTP ${answer.status}` };
    this.issued.add(value);
    const lifetimeMs = (Number(answer.body.expires_in) || 180) * 1000;
    return { value, renewAt: Date.now() + lifetimeMs - Math.min(30_000, lifetimeMs / 2) };
  }

  private async request(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: Body): Promise<Answer> {
    try {
      const res = await this.fetch(`${this.settings.baseUrl.replace(/\/$/, '')}${path}`, {
        method,
        headers: { Accept: '*/*', ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      return { status: res.status, body: parseExact(await res.text()) };
    } catch (error) {
      return error instanceof Error && error.name === 'TimeoutError'
        ? { status: null, reason: 'timeout', message: `no answer within ${this.settings.timeoutMs} ms` }
        : { status: null, reason: 'connection_lost', message: 'connection lost' };
    }
  }

  /** What the attempt keeps of an answer: Airtel's code and message, never a credential. */
  private step(call: Call, answer: Answer): OperatorStep {
    const at = new Date().toISOString();
    if (answer.status === null) return { at, call, http_status: null, operator_code: null, message: answer.message };
    const status = record(answer.body.status);
    // response_code (DP…) says what happened; result_code (ESB…, ROUTER…) when there is no DP code.
    const code = text(status?.response_code) ?? text(status?.result_code);
    const message = text(status?.message) ?? text(answer.body.error_description) ?? text(answer.body.message);
    return { at, call, http_status: answer.status, operator_code: code, message: message === null ? null : this.redact(message) };
  }

  private redact(message: string): string {
    const secrets = [this.settings.clientSecret, this.settings.pin, this.encryptedPin, ...this.issued];
    let clean = message;
    for (const secret of secrets) if (secret) clean = clean.split(secret).join('…');
    return clean.replace(/\bBearer\s+\S+/gi, 'Bearer …').trim().slice(0, MESSAGE_LENGTH);
  }

  /** Airtel wants the number without its country code: +24177123456 → 77123456. */
  private nationalNumber(msisdn: string, country: Country): string {
    const prefix = `+${COUNTRIES[country].dialCode}`;
    const national = msisdn.startsWith(prefix) ? msisdn.slice(prefix.length) : '';
    if (!/^\d{6,10}$/.test(national)) throw new RangeError(`not an E.164 number of ${country}`);
    return national;
  }
}

/**
 * Our reference in an Airtel callback, or null when the body holds none or, with
 * AIRTEL_CALLBACK_SECRET set, its hash is missing or wrong. Airtel signs in the body: `hash` is
 * base64 HMAC-SHA256, keyed by the secret, of the JSON of { transaction } as sent (Airtel sends it
 * compact, and JSON.parse keeps the key order). The headers prove nothing for Airtel; they are
 * taken so that both operators' callbacks are read alike.
 */
export function airtelCallbackReference(body: unknown, _headers: Record<string, string | string[] | undefined>, secret?: string): string | null {
  const transaction = record(record(body)?.transaction);
  const reference = text(transaction?.id);
  if (!transaction || !reference) return null;
  if (!secret) return reference;
  const hash = text(record(body)?.hash);
  if (!hash) return null;
  const expected = createHmac('sha256', secret).update(JSON.stringify({ transaction })).digest();
  const given = Buffer.from(hash, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? reference : null;
}

/** A transaction's status in an enquiry: TS success, TF failed, TIP in progress, TA ambiguous, TE expired. */
function statusVerdict(status: string, call: Call, failureReason: string): Verdict {
  switch (status) {
    case 'TS': return { state: 'succeeded' };
    case 'TIP': return { state: 'pending' };
    case 'TF': return failed(failureReason);
    case 'TA': return unknown('ambiguous');
    // An expired USSD push took nothing; an expired payout is not documented as undone.
    case 'TE': return call === 'collection' ? failed('expired') : unknown('expired');
    default: return unknown(`status_${status}`);
  }
}

/** Airtel's `reference` (shown to the customer): 4 to 64 letters and digits. */
function airtelReference(note: string, reference: string): string {
  const clean = note.replace(/[^A-Za-z0-9]/g, '').slice(0, 64);
  return clean.length >= 4 ? clean : reference.replace(/[^A-Za-z0-9]/g, '').slice(0, 64);
}

/** The amount as a JSON number written digit for digit from its decimal text: never through a float. */
function exactAmount(amount: string): unknown {
  if (!/^\d+(\.\d+)?$/.test(amount)) throw new RangeError(`not a decimal amount: ${amount}`);
  return (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(amount);
}

/** JSON with every number kept as its text, so that a balance is read exactly; {} when not JSON. */
function parseExact(raw: string): Body {
  try {
    const parsed: unknown = JSON.parse(raw, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' && context?.source !== undefined ? context.source : value);
    return record(parsed) ?? {};
  } catch {
    return {};
  }
}

function pemOf(key: string): string {
  if (key.includes('-----BEGIN')) return key;
  const body = key.replace(/\s/g, '').match(/.{1,64}/g)?.join('\n') ?? '';
  return `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`;
}

function unavailableReason(answer: Answer & { status: number }, step: OperatorStep): string {
  return answer.status >= 500 ? `http_${answer.status}` : step.operator_code ?? `http_${answer.status}`;
}

function record(value: unknown): Body | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
