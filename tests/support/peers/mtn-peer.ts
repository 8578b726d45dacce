import { randomBytes, randomUUID } from 'node:crypto';
import { parseAmount, toDecimal, type Currency } from '@core/money.js';
import { LoopbackPeer, type Fault, type Handler, type PeerAnswer, type PeerRequest } from './loopback-peer.js';

// MTN MoMo's Open API on loopback, as momodeveloper.mtn.com publishes it: tokens per product,
// disbursement transfers and collection requests-to-pay held per X-Reference-Id (409 on reuse,
// never a second payment), their status enquiries, basicuserinfo, the float balance, and the one
// callback MTN sends to X-Callback-Url when a transaction is final.

export type MtnOperation = 'token' | 'transfer' | 'transfer_status' | 'userinfo' | 'requesttopay' | 'requesttopay_status' | 'balance';
type Product = 'disbursement' | 'collection';

/** How a transaction ends: at once, or PENDING for `enquiries` status calls (or until `settle`). */
export type MtnFinal = { status: 'SUCCESSFUL' } | { status: 'FAILED'; reason: string };
export type MtnScript = MtnFinal | { status: 'PENDING'; enquiries?: number; then?: MtnFinal };

export interface MtnTransaction {
  product: Product;
  reference: string;
  amount: string;
  currency: string;
  externalId: string;
  msisdn: string;
  payerMessage: string;
  payeeNote: string;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reason: string | null;
  financialTransactionId: string | null;
  callbackUrl: string | null;
  /** Status calls still answered PENDING; null: until `settle`. */
  pendingFor: number | null;
  then: MtnFinal;
}

export interface MtnPayment { product: Product; reference: string; msisdn: string; amount: string }
export interface MtnHolder { given_name: string; family_name: string; status?: string }
export interface MtnCallbackSent { url: string; reference: string; body: unknown; answered: number; forged: boolean }

const ERROR_MESSAGES: Record<string, string> = {
  RESOURCE_ALREADY_EXIST: 'Duplicated reference id. Creation of resource failed.',
  RESOURCE_NOT_FOUND: 'Requested resource was not found.',
  NOT_ENOUGH_FUNDS: 'The payer does not have enough funds.',
  APPROVAL_REJECTED: 'The payer rejected the request.',
  EXPIRED: 'The request expired before the payer approved it.',
};

export class MtnPeer extends LoopbackPeer<MtnOperation> {
  readonly apiUser = randomUUID();
  readonly apiKey = randomBytes(16).toString('hex');
  readonly disbursementKey = randomBytes(16).toString('hex');
  readonly collectionKey = randomBytes(16).toString('hex');
  readonly targetEnvironment: string;
  readonly currency: Currency;
  /** Every move of money, in order: a test asserts exactly-once on it. */
  readonly payments: MtnPayment[] = [];
  readonly callbacks: MtnCallbackSent[] = [];
  readonly tokensIssued: { product: Product; token: string }[] = [];
  /** Seconds each token lives (MTN: 3600); past it the token answers 401. */
  tokenLifetimeSeconds = 3600;
  private float: number;
  private readonly transactions = { disbursement: new Map<string, MtnTransaction>(), collection: new Map<string, MtnTransaction>() };
  private readonly holders = new Map<string, MtnHolder>();
  private readonly scripts = new Map<string, MtnScript>();
  private readonly nextScripts: MtnScript[] = [];
  private readonly tokens = new Map<string, { product: Product; expiresAt: number }>();
  /** How every request-to-pay ends unless scripted by its reference (default: PENDING until the test settles it). */
  requestToPayScript: MtnScript = { status: 'PENDING' };
  private callbacksToLose = 0;
  private held: MtnTransaction[] | null = null;
  private readonly sending = new Set<Promise<unknown>>();

  constructor(options: { targetEnvironment?: string; currency?: Currency; float?: string } = {}) {
    super();
    this.targetEnvironment = options.targetEnvironment ?? 'mtnrwanda';
    this.currency = options.currency ?? 'RWF';
    this.float = this.minor(options.float ?? '10000000');
  }

  /** The app's variables that point its disbursements at this peer (collections also need `MTN_MOMO_COLLECTION_KEY`: `collectionKey`). */
  env(): Record<'MTN_MOMO_BASE_URL' | 'MTN_MOMO_TARGET_ENVIRONMENT' | 'MTN_MOMO_API_USER' | 'MTN_MOMO_API_KEY' | 'MTN_MOMO_DISBURSEMENT_KEY', string> {
    return {
      MTN_MOMO_BASE_URL: this.url, MTN_MOMO_TARGET_ENVIRONMENT: this.targetEnvironment, MTN_MOMO_API_USER: this.apiUser,
      MTN_MOMO_API_KEY: this.apiKey, MTN_MOMO_DISBURSEMENT_KEY: this.disbursementKey,
    };
  }

  // --- scripting -------------------------------------------------------------------------------

  /** The wallet's holder as basicuserinfo gives it; an unregistered number is unknown to MTN. */
  register(msisdn: string, holder: MtnHolder): void {
    this.holders.set(digits(msisdn), holder);
  }

  /** How the transaction under `reference` ends (default: a transfer succeeds, a request-to-pay waits for the payer). */
  script(reference: string, script: MtnScript): void {
    this.scripts.set(reference, script);
  }

  /** The next `times` transfers created without a script of their own follow this one. */
  scriptNext(script: MtnScript, times = 1): void {
    for (let i = 0; i < times; i++) this.nextScripts.push(script);
  }

  /** A PENDING transaction becomes final now (the payer approved, MTN finished). */
  settle(reference: string, final: MtnFinal): void {
    const tx = this.transactions.disbursement.get(reference) ?? this.transactions.collection.get(reference);
    if (!tx) throw new Error(`MtnPeer: no transaction ${reference}`);
    if (tx.status === 'PENDING') this.finish(tx, final);
  }

  approve(reference: string): void {
    this.settle(reference, { status: 'SUCCESSFUL' });
  }

  refuse(reference: string): void {
    this.settle(reference, { status: 'FAILED', reason: 'APPROVAL_REJECTED' });
  }

  expire(reference: string): void {
    this.settle(reference, { status: 'FAILED', reason: 'EXPIRED' });
  }

  setFloat(amount: string): void {
    this.float = this.minor(amount);
  }

  floatBalance(): string {
    return toDecimal(this.float, this.currency);
  }

  /** Every token issued so far stops working (401), as when they expire. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  transaction(reference: string): MtnTransaction | undefined {
    return this.transactions.disbursement.get(reference) ?? this.transactions.collection.get(reference);
  }

  /** The references of the requests-to-pay received, oldest first. */
  requestsToPay(): string[] {
    return [...this.transactions.collection.keys()];
  }

  /** How many times money moved under `reference`: 0 or 1, never more. */
  paidCount(reference: string): number {
    return this.payments.filter((p) => p.reference === reference).length;
  }

  // --- callbacks: sent once, never retried; and their faults -----------------------------------

  /** The next `times` callbacks are lost on the way. */
  loseCallbacks(times = 1): void {
    this.callbacksToLose += times;
  }

  /** Callbacks wait until `releaseCallbacks`, then go out last first (out of order). */
  holdCallbacks(): void {
    this.held ??= [];
  }

  releaseCallbacks(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const tx of held.reverse()) this.deliver(tx);
  }

  /** The transaction's callback once more (a repeat), whatever happened to the first. */
  repeatCallback(reference: string): void {
    const tx = this.transaction(reference);
    if (!tx?.callbackUrl) throw new Error(`MtnPeer: no callback URL for ${reference}`);
    this.deliver(tx);
  }

  /** A callback MTN never sent: the transaction's body claiming `status`, nothing changed here. */
  forgeCallback(url: string, reference: string, status: 'SUCCESSFUL' | 'FAILED' = 'SUCCESSFUL'): Promise<number> {
    const tx = this.transaction(reference);
    const body = tx ? { ...this.statusBody(tx), status, financialTransactionId: '999999999' } : { externalId: reference, referenceId: reference, status };
    return this.post(url, reference, body, true);
  }

  /** Resolves when every callback sent so far has been answered (or refused). */
  async callbacksDelivered(): Promise<void> {
    while (this.sending.size) await Promise.all(this.sending);
  }

  // --- the API --------------------------------------------------------------------------------

  protected route(method: string, path: string): { operation: MtnOperation; handle: Handler } | undefined {
    const token = /^\/(disbursement|collection)\/token\/?$/.exec(path);
    if (method === 'POST' && token) return { operation: 'token', handle: (req, fault) => this.issueToken(req, fault, token[1] as Product) };
    if (method === 'POST' && path === '/disbursement/v1_0/transfer') return { operation: 'transfer', handle: (req, fault) => this.create(req, fault, 'disbursement') };
    if (method === 'POST' && path === '/collection/v1_0/requesttopay') return { operation: 'requesttopay', handle: (req, fault) => this.create(req, fault, 'collection') };
    const transfer = /^\/disbursement\/v1_0\/transfer\/([^/]+)$/.exec(path);
    if (method === 'GET' && transfer) return { operation: 'transfer_status', handle: (req, fault) => this.status(req, fault, 'disbursement', transfer[1]!) };
    const request = /^\/collection\/v1_0\/requesttopay\/([^/]+)$/.exec(path);
    if (method === 'GET' && request) return { operation: 'requesttopay_status', handle: (req, fault) => this.status(req, fault, 'collection', request[1]!) };
    const holder = /^\/disbursement\/v1_0\/accountholder\/msisdn\/([^/]+)\/basicuserinfo$/.exec(path);
    if (method === 'GET' && holder) return { operation: 'userinfo', handle: (req, fault) => this.userInfo(req, fault, holder[1]!) };
    if (method === 'GET' && path === '/disbursement/v1_0/account/balance') return { operation: 'balance', handle: (req, fault) => this.balance(req, fault) };
    return undefined;
  }

  private issueToken(req: PeerRequest, fault: Fault | undefined, product: Product): PeerAnswer {
    if (req.headers['ocp-apim-subscription-key'] !== this.key(product)) return subscriptionDenied();
    if (fault?.kind === 'error') return mtnError(fault.code, fault.status ?? 500);
    const basic = `Basic ${Buffer.from(`${this.apiUser}:${this.apiKey}`).toString('base64')}`;
    if (req.headers.authorization !== basic) return { status: 401, body: { error: 'login_failed' } };
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, { product, expiresAt: Date.now() + this.tokenLifetimeSeconds * 1000 });
    this.tokensIssued.push({ product, token });
    return { status: 200, body: { access_token: token, token_type: 'access_token', expires_in: this.tokenLifetimeSeconds } };
  }

  /** Token, subscription key and target environment, as MTN's gateway checks them; an answer when refused. */
  private refused(req: PeerRequest, product: Product, fault: Fault | undefined): PeerAnswer | undefined {
    if (req.headers['ocp-apim-subscription-key'] !== this.key(product)) return subscriptionDenied();
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const live = bearer ? this.tokens.get(bearer) : undefined;
    if (live?.product !== product || live.expiresAt <= Date.now()) return { status: 401, body: { statusCode: 401, message: 'Access denied due to invalid or expired token.' } };
    if (req.headers['x-target-environment'] !== this.targetEnvironment) return mtnError('NOT_ALLOWED_TARGET_ENVIRONMENT', 500);
    if (fault?.kind === 'error') return mtnError(fault.code, fault.status ?? 500);
    return undefined;
  }

  private create(req: PeerRequest, fault: Fault | undefined, product: Product): PeerAnswer {
    const refusal = this.refused(req, product, fault);
    if (refusal) return refusal;
    const reference = req.headers['x-reference-id'];
    if (typeof reference !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(reference)) {
      return { status: 400, body: { message: 'X-Reference-Id must be a UUID.' } };
    }
    const held = this.transactions[product];
    if (held.has(reference)) return mtnError('RESOURCE_ALREADY_EXIST', 409);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const party = (product === 'disbursement' ? body.payee : body.payer) as { partyIdType?: unknown; partyId?: unknown } | undefined;
    const amount = typeof body.amount === 'string' ? body.amount : '';
    if (party?.partyIdType !== 'MSISDN' || typeof party.partyId !== 'string' || !/^\d{8,15}$/.test(party.partyId) || parseAmount(amount, this.currency) === null) {
      return { status: 400, body: { message: 'Request does not follow the specification.' } };
    }
    if (body.currency !== this.currency) return mtnError('INVALID_CURRENCY', 500);
    const script: MtnScript = this.scripts.get(reference)
      ?? (product === 'disbursement' ? this.nextScripts.shift() ?? { status: 'SUCCESSFUL' } : this.requestToPayScript);
    const tx: MtnTransaction = {
      product, reference, amount, currency: this.currency, msisdn: party.partyId,
      externalId: String(body.externalId ?? ''), payerMessage: String(body.payerMessage ?? ''), payeeNote: String(body.payeeNote ?? ''),
      status: 'PENDING', reason: null, financialTransactionId: null,
      callbackUrl: typeof req.headers['x-callback-url'] === 'string' ? req.headers['x-callback-url'] : null,
      pendingFor: script.status === 'PENDING' ? (script.enquiries ?? null) : 0,
      then: script.status === 'PENDING' ? (script.then ?? { status: 'SUCCESSFUL' }) : script,
    };
    held.set(reference, tx);
    if (tx.pendingFor === 0) this.finish(tx, tx.then);
    return { status: 202 };
  }

  private status(req: PeerRequest, fault: Fault | undefined, product: Product, reference: string): PeerAnswer {
    const refusal = this.refused(req, product, fault);
    if (refusal) return refusal;
    const tx = this.transactions[product].get(decodeURIComponent(reference));
    if (!tx) return mtnError('RESOURCE_NOT_FOUND', 404);
    if (tx.status === 'PENDING' && tx.pendingFor !== null) {
      if (tx.pendingFor === 0) this.finish(tx, tx.then);
      else tx.pendingFor -= 1;
    }
    return { status: 200, body: this.statusBody(tx) };
  }

  private userInfo(req: PeerRequest, fault: Fault | undefined, msisdn: string): PeerAnswer {
    const refusal = this.refused(req, 'disbursement', fault);
    if (refusal) return refusal;
    const holder = this.holders.get(msisdn);
    if (!holder) return { status: 404, body: { code: 'NOT_FOUND', message: 'Account holder not found.' } };
    return { status: 200, body: { ...holder, name: `${holder.given_name} ${holder.family_name}`, locale: 'en', gender: '', birthdate: '' } };
  }

  private balance(req: PeerRequest, fault: Fault | undefined): PeerAnswer {
    const refusal = this.refused(req, 'disbursement', fault);
    return refusal ?? { status: 200, body: { availableBalance: this.floatBalance(), currency: this.currency } };
  }

  /** The transaction ends: a transfer moves money once out of the float, then the callback goes. */
  private finish(tx: MtnTransaction, final: MtnFinal): void {
    let outcome = final;
    if (outcome.status === 'SUCCESSFUL' && !this.holders.has(tx.msisdn)) {
      outcome = { status: 'FAILED', reason: tx.product === 'disbursement' ? 'PAYEE_NOT_FOUND' : 'PAYER_NOT_FOUND' };
    }
    const amount = this.minor(tx.amount);
    if (outcome.status === 'SUCCESSFUL' && tx.product === 'disbursement' && amount > this.float) outcome = { status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' };
    tx.status = outcome.status;
    tx.reason = outcome.status === 'FAILED' ? outcome.reason : null;
    if (outcome.status === 'SUCCESSFUL') {
      if (tx.product === 'disbursement') this.float -= amount;
      tx.financialTransactionId = String(1_000_000_000 + this.payments.length);
      this.payments.push({ product: tx.product, reference: tx.reference, msisdn: tx.msisdn, amount: tx.amount });
    }
    if (!tx.callbackUrl) return;
    if (this.held) this.held.push(tx);
    else this.deliver(tx);
  }

  private deliver(tx: MtnTransaction): void {
    if (this.callbacksToLose > 0) {
      this.callbacksToLose -= 1;
      return;
    }
    void this.post(tx.callbackUrl!, tx.reference, this.statusBody(tx), false);
  }

  private post(url: string, reference: string, body: unknown, forged: boolean): Promise<number> {
    const sent = this.sendCallback(url, body).then((answered) => {
      this.callbacks.push({ url, reference, body, answered, forged });
      return answered;
    });
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
    return sent;
  }

  /** What GET …/{referenceId} answers, and what the callback carries. */
  statusBody(tx: MtnTransaction): Record<string, unknown> {
    return {
      amount: tx.amount,
      currency: tx.currency,
      ...(tx.financialTransactionId ? { financialTransactionId: tx.financialTransactionId } : {}),
      externalId: tx.externalId,
      [tx.product === 'disbursement' ? 'payee' : 'payer']: { partyIdType: 'MSISDN', partyId: tx.msisdn },
      payerMessage: tx.payerMessage,
      payeeNote: tx.payeeNote,
      status: tx.status,
      ...(tx.reason ? { reason: { code: tx.reason, message: ERROR_MESSAGES[tx.reason] ?? tx.reason } } : {}),
    };
  }

  private key(product: Product): string {
    return product === 'disbursement' ? this.disbursementKey : this.collectionKey;
  }

  private minor(amount: string): number {
    const minor = parseAmount(amount, this.currency);
    if (minor === null) throw new Error(`MtnPeer: not an amount in ${this.currency}: ${amount}`);
    return minor;
  }
}

function mtnError(code: string, status: number): PeerAnswer {
  return { status, body: { code, message: ERROR_MESSAGES[code] ?? code } };
}

function subscriptionDenied(): PeerAnswer {
  return { status: 401, body: { statusCode: 401, message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.' } };
}

function digits(msisdn: string): string {
  return msisdn.replace(/^\+/, '');
}
