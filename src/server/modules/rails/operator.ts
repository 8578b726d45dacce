// What the payout rails need from a mobile-money operator (Airtel Money, MTN MoMo): one typed
// client per operator on `fetch`, each answer reduced to what the app decides on. The operator's
// own words (HTTP status, its code, its message) are kept as a step on the attempt; never a token,
// a PIN or a secret.

/** One call to the operator as the attempt keeps it. */
export interface OperatorStep {
  at: string;
  call: 'disburse' | 'disbursement' | 'registered_name' | 'balance' | 'collect' | 'collection';
  /** null when no answer came (timeout, connection lost). */
  http_status: number | null;
  /** The operator's own code (Airtel `DP…`/`ROUTER…`, MTN `reason`/`status`), when it gave one. */
  operator_code: string | null;
  message: string | null;
}

/**
 * Where a payout or collection stands, as the operator's answer shows it.
 * - `pending`: accepted, not final yet.
 * - `succeeded`: the money moved.
 * - `failed`: the operator confirms nothing moved (a new attempt may follow).
 * - `unknown`: no answer, a late answer, a 5xx or an ambiguous code: ask again, never send again.
 *   `held`: the operator said it already holds a transaction under this reference (a duplicate).
 * - `not_found`: (status enquiry only) the operator holds no transaction with that reference.
 */
export type MoneyOutcome =
  | { state: 'pending'; operator_id: string | null; step: OperatorStep }
  | { state: 'succeeded'; operator_id: string | null; step: OperatorStep }
  | { state: 'failed'; reason: string; step: OperatorStep }
  | { state: 'unknown'; reason: string; step: OperatorStep; held?: true }
  | { state: 'not_found'; step: OperatorStep };

/** The name the operator holds for a number, or why there is none. */
export type NameAnswer =
  | { state: 'registered'; name: string; step: OperatorStep }
  | { state: 'unknown_number' | 'barred' | 'inactive'; step: OperatorStep }
  | { state: 'unavailable'; reason: string; step: OperatorStep };

export type BalanceAnswer =
  | { state: 'ok'; amount: string; currency: string; step: OperatorStep }
  | { state: 'unavailable'; reason: string; step: OperatorStep };

/**
 * Money sent to a recipient's wallet (a disbursement) or asked from a sender's (a collection: USSD
 * push, request-to-pay). `reference` is the idempotency key, written before the call.
 */
export interface MoneyOrder {
  reference: string;
  /** E.164, e.g. +24177123456. */
  msisdn: string;
  /** Exact decimal in the currency's units ("15000", "2500"): XAF and RWF have no minor unit in use. */
  amount: string;
  currency: 'XAF' | 'RWF';
  country: 'GA' | 'RW';
  /** Shown to the other side where the operator allows it. */
  note: string;
}
export type Disbursement = MoneyOrder;
export type Collection = MoneyOrder;

/**
 * Money asked from a payer's own wallet (docs/rules/payout-rails.md#collections): Airtel's USSD
 * push, MTN's request-to-pay. The payer approves it on their phone; only the status enquiry's
 * answer moves the collection.
 */
export interface MobileMoneyCollector {
  collect(order: Collection): Promise<MoneyOutcome>;
  collection(reference: string): Promise<MoneyOutcome>;
}

export interface MobileMoneyOperator extends MobileMoneyCollector {
  readonly operator: 'airtel' | 'mtn';
  disburse(order: Disbursement): Promise<MoneyOutcome>;
  /** The status enquiry: the only answer that moves an attempt. */
  disbursement(reference: string): Promise<MoneyOutcome>;
  registeredName(msisdn: string, country: 'GA' | 'RW'): Promise<NameAnswer>;
  balance(currency: 'XAF' | 'RWF', country: 'GA' | 'RW'): Promise<BalanceAnswer>;
}
