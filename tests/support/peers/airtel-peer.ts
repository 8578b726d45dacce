import { constants, createHmac, generateKeyPairSync, privateDecrypt, randomBytes, type KeyObject } from 'node:crypto';
import { LoopbackPeer, type Fault, type Handler, type PeerAnswer, type PeerRequest } from './loopback-peer.js';

// Airtel Africa's Open API as a loopback peer: client-credentials tokens, disbursement v2 with its
// RSA-encrypted PIN, its status enquiry, the user enquiry (registered name), the balance, the USSD
// push collection and its enquiry, and the callbacks Airtel posts when a transaction is final.
// Every answer is Airtel's envelope { data, status: { code, message, result_code, response_code,
// success } }, refusals inside HTTP 200 as Airtel sends them. Money is held exactly (BigInt whole
// units: XAF and RWF have no minor unit in use).

export type AirtelOperation = 'token' | 'disburse' | 'enquire' | 'user' | 'collect' | 'collect_enquire' | 'balance';
type Country = 'GA' | 'RW';
/** Airtel's transaction statuses: success, failed, in progress, ambiguous, expired. */
export type AirtelStatus = 'TS' | 'TF' | 'TIP' | 'TA' | 'TE';

/**
 * What a disbursement with a given reference does (unscripted: paid at once):
 * `fail` refuses it with that DP code and pays nothing; `pending` stays TIP for `enquiries`
 * enquiries (or until `settle`), then succeeds or fails as `then` says.
 */
export type DisbursementScript =
  | { outcome: 'fail'; code: string }
  | { outcome: 'pending'; enquiries?: number; then?: 'succeed' | 'fail' };

interface Transaction {
  kind: 'disbursement' | 'collection';
  id: string;
  msisdn: string;
  amount: bigint;
  currency: string;
  status: AirtelStatus;
  /** The DP code that says how it stands. */
  code: string;
  airtelMoneyId: string;
  /** Enquiries left before a pending transaction settles by itself; null: until told. */
  enquiriesLeft: number | null;
  settlesTo: 'TS' | 'TF' | 'TE';
}

/**
 * How the payers answer every USSD push from now on (unscripted: the push waits, TIP, until
 * `approve`, `refuse` or `expire`): approved (TS), refused (TF) or left to expire (TE), settled
 * at the `enquiries`-th status enquiry.
 */
export interface PushScript { answer: 'TS' | 'TF' | 'TE'; enquiries: number }

interface Subscriber { first: string; last: string; state: 'active' | 'barred' | 'inactive' }
export interface Payment { reference: string; msisdn: string; amount: string; currency: string }

const COUNTRIES: Record<Country, { dialCode: string; currency: string }> = {
  GA: { dialCode: '241', currency: 'XAF' },
  RW: { dialCode: '250', currency: 'RWF' },
};

const MESSAGES: Record<string, string> = {
  DP00900001000: 'The transaction is still processing and is in ambiguous state. Please do the transaction enquiry to fetch the transaction status.',
  DP00900001001: 'Transaction is successful.',
  DP00900001004: 'Amount entered is out of range with respect to defined limits.',
  DP00900001005: 'Transaction failed.',
  DP00900001006: 'Transaction is in process.',
  DP00900001007: 'Not enough funds in account to complete the transaction.',
  DP00900001012: 'Mobile number entered is incorrect.',
  DP00900001013: 'The transaction was refused.',
  DP00900001015: 'Transaction Not Found.',
  DP00900001017: 'Duplicate Transaction Id. To know the status of the actual transaction, please do transaction enquiry.',
  DP00800001000: 'The transaction is still processing and is in ambiguous state. Please do the transaction enquiry to fetch the transaction status.',
  DP00800001001: 'Transaction is successful.',
  DP00800001006: 'Transaction in pending state. Please check after sometime.',
  DP00800001008: 'The transaction was refused.',
  DP00800001025: 'Transaction Not Found.',
  DP00800001029: 'Transaction has been expired.',
  DP02100000001: 'Balance enquiry is successful.',
  DP02200000001: 'User enquiry is successful.',
  DP02200000002: 'Invalid MSISDN provided as input.',
  ESB000041: 'External Transaction ID already exists.',
  ROUTER003: 'Mandatory parameters are missing either in the header or body.',
  ROUTER006: 'Invalid country code provided.',
  ROUTER112: 'Invalid currency provided.',
  ROUTER115: 'Pin you have entered is incorrect.',
  ROUTER116: 'The encrypted value of the pin is incorrect. Kindly re-check the encryption mechanism.',
};
const AMBIGUOUS = { disbursement: 'DP00900001000', collection: 'DP00800001000' };

export class AirtelPeer extends LoopbackPeer<AirtelOperation> {
  readonly clientId = 'airtel-test-client';
  readonly clientSecret = 'airtel-test-secret';
  /** The disbursement wallet's PIN the peer expects, encrypted with `publicKeyPem`. */
  readonly pin = '4831';
  readonly publicKeyPem: string;
  private readonly privateKey: KeyObject;
  /**
   * What each encrypted PIN read as (null: the wallet's; else the refusal's code): a client
   * encrypts its PIN once and sends that text with every disbursement. Decrypting it again each
   * time was a sixth of the payouts bench's own process, on the machine it measures.
   */
  private readonly pinsRead = new Map<string, string | null>();
  tokenLifetimeSeconds = 180;
  /** Every token issued, so that a test can look for one where it must not be. */
  readonly issuedTokens: string[] = [];
  private tokens = new Map<string, number>();
  private float = new Map<string, bigint>([['XAF', 10_000_000n], ['RWF', 10_000_000n]]);
  private subscribers = new Map<string, Subscriber>();
  private transactions = new Map<string, Transaction>();
  private scripts = new Map<string, DisbursementScript>();
  private nextScripts: DisbursementScript[] = [];
  /** Each credit to a recipient's wallet, in order. */
  readonly payments: Payment[] = [];
  /** Each paid disbursement Airtel took back from the recipient's wallet, in order. */
  readonly reversals: Payment[] = [];
  /** How payers answer the USSD pushes; null: each waits until the test settles it. */
  pushScript: PushScript | null = null;
  /** The balance enquiry's answer as a test words it (decimals, another currency); null: the float held, in the country's currency. */
  balanceAnswer: { balance: string; currency: string } | null = null;
  /** Where Airtel posts callbacks (set in the application's settings); null: none sent. */
  callbackUrl: string | null = null;
  /** Airtel's callback authentication key; null: callbacks carry no hash. */
  callbackSecret: string | null = null;
  readonly callbacksSent: { body: unknown; status: number }[] = [];
  private callbacksToLose = 0;
  private serial = 0;

  constructor() {
    super();
    const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKeyPem = keys.publicKey.export({ type: 'spki', format: 'pem' }) as string;
    this.privateKey = keys.privateKey;
  }

  /** The app's variables that point it at this peer, as a business sets them for Airtel. */
  env(): Record<'AIRTEL_BASE_URL' | 'AIRTEL_CLIENT_ID' | 'AIRTEL_CLIENT_SECRET' | 'AIRTEL_PIN' | 'AIRTEL_PUBLIC_KEY', string> {
    return { AIRTEL_BASE_URL: this.url, AIRTEL_CLIENT_ID: this.clientId, AIRTEL_CLIENT_SECRET: this.clientSecret, AIRTEL_PIN: this.pin, AIRTEL_PUBLIC_KEY: this.publicKeyPem };
  }

  /** A wallet for this E.164 number under that name; unregistered numbers are unknown to Airtel. */
  register(msisdn: string, name: { first: string; last: string }, state: Subscriber['state'] = 'active'): void {
    this.subscribers.set(msisdn, { ...name, state });
  }

  script(reference: string, script: DisbursementScript): void {
    this.scripts.set(reference, script);
  }

  /** The next `times` disbursements created without a script of their own follow this one. */
  scriptNext(script: DisbursementScript, times = 1): void {
    for (let i = 0; i < times; i++) this.nextScripts.push(script);
  }

  /** The references of the USSD pushes received, oldest first. */
  pushes(): string[] {
    return [...this.transactions.values()].filter((t) => t.kind === 'collection').map((t) => t.id);
  }

  /** Each payment taken from a payer's wallet by an approved USSD push. */
  collected(reference: string): boolean {
    const transaction = this.transactions.get(reference);
    return transaction?.kind === 'collection' && transaction.status === 'TS';
  }

  /** Ends a pending disbursement, or answers a collection's USSD push. */
  settle(reference: string, outcome: 'TS' | 'TF' | 'TE'): void {
    const transaction = this.transactions.get(reference);
    if (!transaction || transaction.status !== 'TIP') throw new Error(`no pending transaction ${reference}`);
    this.finish(transaction, outcome);
  }

  approve(reference: string): void { this.settle(reference, 'TS'); }
  refuse(reference: string): void { this.settle(reference, 'TF'); }
  expire(reference: string): void { this.settle(reference, 'TE'); }

  statusOf(reference: string): AirtelStatus | undefined {
    return this.transactions.get(reference)?.status;
  }

  /**
   * Airtel takes a paid disbursement back (its operations team reverses it: a wrong number
   * reported, a wallet closed): the money returns to the float, and the transaction, asked
   * about, answers failed from then on. Airtel posts its callback as for any final state.
   */
  reverse(reference: string): void {
    const transaction = this.transactions.get(reference);
    if (transaction?.kind !== 'disbursement' || transaction.status !== 'TS') throw new Error(`no paid disbursement ${reference}`);
    this.float.set(transaction.currency, (this.float.get(transaction.currency) ?? 0n) + transaction.amount);
    this.reversals.push({ reference, msisdn: transaction.msisdn, amount: String(transaction.amount), currency: transaction.currency });
    transaction.status = 'TF';
    transaction.code = 'DP00900001005';
    if (this.callbackUrl) void this.callback(reference);
  }

  /** How many times the recipient was paid under this reference: never more than once. */
  paidCount(reference: string): number {
    return this.payments.filter((p) => p.reference === reference).length;
  }

  setFloat(currency: string, amount: string): void {
    this.float.set(currency, BigInt(amount));
  }

  floatOf(currency: string): string {
    return String(this.float.get(currency) ?? 0n);
  }

  /** Every token stops being accepted (as when Airtel restarts or revokes): the next call answers 401. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  /** The next `times` callbacks Airtel would send are lost on the way. */
  loseCallbacks(times = 1): void {
    this.callbacksToLose += times;
  }

  /**
   * Posts a transaction's callback (again) to `callbackUrl`: `status_code` sends another state
   * than its own (out of order), `forged` signs it with a key that is not the secret, `times`
   * repeats it. Answers the receiver's statuses.
   */
  async callback(reference: string, options: { status_code?: 'TS' | 'TF'; forged?: boolean; times?: number } = {}): Promise<number[]> {
    const transaction = this.transactions.get(reference);
    if (!transaction || !this.callbackUrl) throw new Error(`no transaction ${reference} or no callback URL`);
    const statusCode = options.status_code ?? (transaction.status === 'TS' ? 'TS' : 'TF');
    const payload = {
      transaction: {
        id: transaction.id,
        message: statusCode === 'TS'
          ? `Paid ${transaction.currency} ${transaction.amount} to ${transaction.msisdn}, Trans ID ${transaction.airtelMoneyId}.`
          : 'Transaction failed.',
        status_code: statusCode,
        airtel_money_id: transaction.airtelMoneyId,
      },
    };
    const key = options.forged ? randomBytes(32).toString('base64') : this.callbackSecret;
    const body = key ? { ...payload, hash: createHmac('sha256', key).update(JSON.stringify(payload)).digest('base64') } : payload;
    const statuses: number[] = [];
    for (let i = 0; i < (options.times ?? 1); i++) {
      const status = await this.sendCallback(this.callbackUrl, body);
      this.callbacksSent.push({ body, status });
      statuses.push(status);
    }
    return statuses;
  }

  protected route(method: string, path: string): { operation: AirtelOperation; handle: Handler } | undefined {
    if (method === 'POST' && path === '/auth/oauth2/token') return { operation: 'token', handle: (req) => this.token(req) };
    if (method === 'POST' && /^\/standard\/v2\/disbursements\/?$/.test(path)) return { operation: 'disburse', handle: this.authorised((req, fault) => this.disburse(req, fault)) };
    if (method === 'GET' && path.startsWith('/standard/v2/disbursements/')) return { operation: 'enquire', handle: this.authorised((req, fault) => this.enquire(req, fault, 'disbursement')) };
    if (method === 'GET' && path === '/standard/v1/users/balance') return { operation: 'balance', handle: this.authorised((req, fault) => this.balance(req, fault)) };
    if (method === 'GET' && path.startsWith('/standard/v1/users/')) return { operation: 'user', handle: this.authorised((req, fault) => this.user(req, fault)) };
    if (method === 'POST' && /^\/merchant\/v2\/payments\/?$/.test(path)) return { operation: 'collect', handle: this.authorised((req, fault) => this.collect(req, fault)) };
    if (method === 'GET' && path.startsWith('/standard/v1/payments/')) return { operation: 'collect_enquire', handle: this.authorised((req, fault) => this.enquire(req, fault, 'collection')) };
    return undefined;
  }

  private token(req: PeerRequest): PeerAnswer {
    const body = record(req.body);
    if (body?.client_id !== this.clientId || body.client_secret !== this.clientSecret || body.grant_type !== 'client_credentials') {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
    }
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, Date.now() + this.tokenLifetimeSeconds * 1000);
    this.issuedTokens.push(token);
    // Airtel writes expires_in as a string.
    return { status: 200, body: { access_token: token, expires_in: String(this.tokenLifetimeSeconds), token_type: 'bearer' } };
  }

  /** A valid bearer token, then X-Country and X-Currency that agree; an `error` fault answers its code inside the HTTP status it names (200 by default). */
  private authorised(handle: (req: PeerRequest & { country: Country }, fault: Fault | undefined) => PeerAnswer): Handler {
    return (req, fault) => {
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      const expiresAt = token ? this.tokens.get(token) : undefined;
      if (expiresAt === undefined || expiresAt <= Date.now()) return { status: 401, body: { error: 'invalid_token', error_description: 'Access token expired or invalid' } };
      const country = req.headers['x-country'];
      const currency = req.headers['x-currency'];
      if (typeof country !== 'string' || typeof currency !== 'string') return envelope('ROUTER003', false, undefined, 400);
      if (country !== 'GA' && country !== 'RW') return envelope('ROUTER006', false, undefined, 400);
      if (COUNTRIES[country].currency !== currency) return envelope('ROUTER112', false, undefined, 400);
      return handle({ ...req, country }, fault);
    };
  }

  private disburse(req: PeerRequest & { country: Country }, fault: Fault | undefined): PeerAnswer {
    const body = exactJson(req.raw);
    const payee = record(body?.payee);
    const order = record(body?.transaction);
    const id = text(order?.id);
    const national = text(payee?.msisdn);
    const amount = text(order?.amount);
    const pin = text(body?.pin);
    if (!id || !national || !amount || !pin || order?.type !== 'B2C') return envelope('ROUTER003', false, undefined, 400);
    const refusedPin = this.checkPin(pin);
    if (refusedPin) return envelope(refusedPin, false, undefined, 400);
    if (fault?.kind === 'error' && fault.code !== AMBIGUOUS.disbursement) return envelope(fault.code, false, undefined, fault.status ?? 200);
    // A reused id is answered, never paid again.
    if (this.transactions.has(id)) return envelope('DP00900001017', false);
    if (!/^[1-9]\d*$/.test(amount)) return envelope('DP00900001004', false);
    const msisdn = `+${COUNTRIES[req.country].dialCode}${national}`;
    const transaction = this.create('disbursement', id, msisdn, BigInt(amount), COUNTRIES[req.country].currency);
    const subscriber = this.subscribers.get(msisdn);
    const script = this.scripts.get(id) ?? this.nextScripts.shift();
    if (!subscriber) this.finish(transaction, 'TF', 'DP00900001012');
    else if (subscriber.state !== 'active') this.finish(transaction, 'TF', 'DP00900001013');
    else if (script?.outcome === 'fail') this.finish(transaction, 'TF', script.code);
    else if (script?.outcome === 'pending') {
      transaction.enquiriesLeft = script.enquiries ?? null;
      transaction.settlesTo = script.then === 'fail' ? 'TF' : 'TS';
    } else this.finish(transaction, 'TS');
    // Ambiguous: the work is done as it would be, only the answer says nothing of it.
    if (fault?.kind === 'error') return envelope(fault.code, false, undefined, fault.status ?? 200);
    return envelope(transaction.code, transaction.status !== 'TF', {
      transaction: { reference_id: `ref-${transaction.airtelMoneyId}`, airtel_money_id: transaction.airtelMoneyId, id, status: transaction.status, message: MESSAGES[transaction.code] ?? '' },
    });
  }

  private collect(req: PeerRequest & { country: Country }, fault: Fault | undefined): PeerAnswer {
    const body = exactJson(req.raw);
    const subscriber = record(body?.subscriber);
    const order = record(body?.transaction);
    const id = text(order?.id);
    const national = text(subscriber?.msisdn);
    const amount = text(order?.amount);
    if (!id || !national || !amount) return envelope('ROUTER003', false, undefined, 400);
    if (fault?.kind === 'error' && fault.code !== AMBIGUOUS.collection) return envelope(fault.code, false, undefined, fault.status ?? 200);
    if (this.transactions.has(id)) return envelope('ESB000041', false);
    if (!/^[1-9]\d*$/.test(amount)) return envelope('DP00800001004', false);
    const transaction = this.create('collection', id, `+${COUNTRIES[req.country].dialCode}${national}`, BigInt(amount), COUNTRIES[req.country].currency);
    if (this.pushScript) {
      transaction.enquiriesLeft = this.pushScript.enquiries;
      transaction.settlesTo = this.pushScript.answer;
    }
    if (fault?.kind === 'error') return envelope(fault.code, false, undefined, fault.status ?? 200);
    return envelope(transaction.code, true, { transaction: { id, status: 'SUCCESS' } });
  }

  private enquire(req: PeerRequest, fault: Fault | undefined, kind: Transaction['kind']): PeerAnswer {
    if (fault?.kind === 'error') return envelope(fault.code, false, undefined, fault.status ?? 200);
    const id = decodeURIComponent(req.url.pathname.split('/').pop() ?? '');
    const transaction = this.transactions.get(id);
    if (!transaction || transaction.kind !== kind) return envelope(kind === 'disbursement' ? 'DP00900001015' : 'DP00800001025', false);
    if (transaction.status === 'TIP' && transaction.enquiriesLeft !== null && --transaction.enquiriesLeft <= 0) this.finish(transaction, transaction.settlesTo);
    return envelope(transaction.code, true, {
      transaction: { id, status: transaction.status, message: MESSAGES[transaction.code] ?? '', airtel_money_id: transaction.airtelMoneyId },
    });
  }

  private user(req: PeerRequest & { country: Country }, fault: Fault | undefined): PeerAnswer {
    if (fault?.kind === 'error') return envelope(fault.code, false, undefined, fault.status ?? 200);
    const national = req.url.pathname.split('/').pop() ?? '';
    const subscriber = this.subscribers.get(`+${COUNTRIES[req.country].dialCode}${national}`);
    if (!subscriber) return envelope('DP02200000002', false);
    return envelope('DP02200000001', true, {
      first_name: subscriber.first,
      last_name: subscriber.last,
      grade: 'SUBS',
      is_barred: subscriber.state === 'barred',
      is_pin_set: true,
      msisdn: national,
      account_status: subscriber.state === 'inactive' ? 'N' : 'Y',
      registration: { status: 'SUBS' },
    });
  }

  private balance(req: PeerRequest & { country: Country }, fault: Fault | undefined): PeerAnswer {
    if (fault?.kind === 'error') return envelope(fault.code, false, undefined, fault.status ?? 200);
    const currency = COUNTRIES[req.country].currency;
    return envelope('DP02100000001', true, { ...(this.balanceAnswer ?? { balance: this.floatOf(currency), currency }), account_status: 'Active' });
  }

  /** ROUTER116 when the PIN cannot be decrypted, ROUTER115 when it is not the wallet's; null when right. */
  private checkPin(encrypted: string): string | null {
    let refusal = this.pinsRead.get(encrypted);
    if (refusal !== undefined) return refusal;
    try {
      const pin = privateDecrypt({ key: this.privateKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(encrypted, 'base64')).toString();
      refusal = pin === this.pin ? null : 'ROUTER115';
    } catch {
      refusal = 'ROUTER116';
    }
    // A client encrypting its PIN anew for each request is still checked, without the texts piling up.
    if (this.pinsRead.size >= 1000) this.pinsRead.clear();
    this.pinsRead.set(encrypted, refusal);
    return refusal;
  }

  private create(kind: Transaction['kind'], id: string, msisdn: string, amount: bigint, currency: string): Transaction {
    const transaction: Transaction = {
      kind, id, msisdn, amount, currency,
      status: 'TIP',
      code: kind === 'disbursement' ? 'DP00900001006' : 'DP00800001006',
      airtelMoneyId: `MP${String(++this.serial).padStart(6, '0')}`,
      enquiriesLeft: null,
      settlesTo: 'TS',
    };
    this.transactions.set(id, transaction);
    return transaction;
  }

  /** A transaction becomes final: a paid disbursement debits the float and credits the recipient, once. */
  private finish(transaction: Transaction, status: 'TS' | 'TF' | 'TE', failureCode?: string): void {
    const disbursement = transaction.kind === 'disbursement';
    const float = this.float.get(transaction.currency) ?? 0n;
    if (status === 'TS' && disbursement && float < transaction.amount) return this.finish(transaction, 'TF', 'DP00900001007');
    transaction.status = status;
    if (status === 'TS') {
      transaction.code = disbursement ? 'DP00900001001' : 'DP00800001001';
      if (disbursement) {
        this.float.set(transaction.currency, float - transaction.amount);
        this.payments.push({ reference: transaction.id, msisdn: transaction.msisdn, amount: String(transaction.amount), currency: transaction.currency });
      }
    } else if (status === 'TE') transaction.code = 'DP00800001029';
    else transaction.code = failureCode ?? (disbursement ? 'DP00900001005' : 'DP00800001008');
    if (this.callbackUrl && status !== 'TE') {
      if (this.callbacksToLose > 0) this.callbacksToLose--;
      else void this.callback(transaction.id);
    }
  }
}

/** Airtel's envelope: a DP code goes in response_code, a router or ESB code in result_code. */
function envelope(code: string, success: boolean, data?: unknown, httpStatus = 200): PeerAnswer {
  const dp = code.startsWith('DP');
  return {
    status: httpStatus,
    body: {
      ...(data === undefined ? {} : { data }),
      status: {
        code: String(httpStatus),
        message: MESSAGES[code] ?? 'Something went wrong',
        result_code: dp ? (success ? 'ESB000010' : 'ESB000011') : code,
        ...(dp ? { response_code: code } : {}),
        success,
      },
    },
  };
}

/** The request's JSON with numbers kept as their text, so that an amount is read exactly. */
function exactJson(raw: string): Record<string, unknown> | null {
  try {
    return record(JSON.parse(raw, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' && context?.source !== undefined ? context.source : value));
  } catch {
    return null;
  }
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
