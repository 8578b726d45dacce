// The monitoring rules themselves (docs/rules/monitoring.md), pure: given a transfer, what its
// sender and its recipient account did before it, and the rules' settings, which rules it hits and
// the evidence of each (the transfers and the numbers compared). No I/O: the server reads the facts.
import { NAMED_RECIPIENT_FROM, toLimitCurrency } from '../kyc.js';
import { parseAmount, toDecimal, type Currency, type Decimal } from '../money.js';
import type { RateKey } from '../rates.js';
import type { MonitoringRule, RuleSettings } from './rules.js';

const DAY_MS = 86_400_000;

/** A transfer as the rules read it. */
export interface MonitoredTransfer {
  id: string;
  reference: string;
  profile_id: string;
  amount: Decimal;
  currency: Currency;
  /** When it was made, in milliseconds since 1970 (a number: the rules compare times again and again). */
  created_ms: number;
  /** The recipient account ({@link accountKey}), null when the transfer names none. */
  account: string | null;
  recipient_name: string | null;
}

/** What the rules know when they judge `transfer`. */
export interface MonitoringFacts {
  transfer: MonitoredTransfer;
  /** The sender's counted transfers (not cancelled or rejected) made before `transfer`, within the longest window. */
  sender_transfers: MonitoredTransfer[];
  /** The sender's latest counted transfer before `transfer`, however old; null for a first transfer. */
  previous_transfer_at: string | null;
  /** When the sender's account was opened. */
  sender_created_at: string;
  /** The sender's limit for one transfer, EUR text; null when their level has none (the corridor's maximum). */
  transfer_limit_eur: Decimal | null;
  /** Counted transfers of any sender to the same recipient account before `transfer`, within the longest window. */
  account_transfers: MonitoredTransfer[];
  rates: Partial<Record<RateKey, Decimal>>;
}

/** One transfer named in an alert's evidence. */
export interface EvidenceTransfer {
  id: string;
  reference: string;
  profile_id: string;
  amount: Decimal;
  currency: Currency;
  amount_eur: Decimal | null;
  created_at: string;
}

/** What a hit shows staff: the numbers compared and the transfers behind them. */
export interface Evidence {
  /** Each comparison that raised the alert: what was measured, its value and the threshold it reached. */
  compared: { measure: string; value: string; threshold: string; window_days?: number }[];
  transfers: EvidenceTransfer[];
  /** Details of the rule (the account, the limit that amounts fell just under, the gap in days). */
  details?: Record<string, string | number | string[]>;
}

export interface RuleHit {
  rule: MonitoringRule;
  holds: boolean;
  evidence: Evidence;
}

/**
 * The recipient account a transfer pays, as one text: `iban:` and the IBAN (stored without spaces,
 * upper case), `phone:` and the number (E.164), or `email:` and the PayPal address in lower case.
 * The database's index on transfer_requests computes the same expression.
 */
export function accountKey(details: { iban?: unknown; recipient_phone?: unknown; recipient_email?: unknown }): string | null {
  if (typeof details.iban === 'string' && details.iban) return `iban:${details.iban}`;
  if (typeof details.recipient_phone === 'string' && details.recipient_phone) return `phone:${details.recipient_phone}`;
  if (typeof details.recipient_email === 'string' && details.recipient_email) return `email:${details.recipient_email.toLowerCase()}`;
  return null;
}

/** Each transfer's EUR amount per set of rates, worked out once: the rules ask for it again and again. */
const eurOf = new WeakMap<MonitoringFacts['rates'], WeakMap<object, bigint | null>>();

/** An amount in EUR cents at the published rates (rounded up, as the limits count), null without a rate. */
function eurMinor(t: Pick<MonitoredTransfer, 'amount' | 'currency'>, rates: MonitoringFacts['rates']): bigint | null {
  let known = eurOf.get(rates);
  if (!known) eurOf.set(rates, (known = new WeakMap()));
  if (known.has(t)) return known.get(t)!;
  const minor = parseAmount(t.amount, t.currency);
  const eur = minor === null ? null : toLimitCurrency(BigInt(minor), t.currency, rates);
  known.set(t, eur);
  return eur;
}

/** A span of time in days with one decimal (12.5), rounded to the nearest tenth in whole numbers. */
function daysText(ms: number): string {
  const tenths = Math.round((ms * 10) / DAY_MS);
  return `${tenths < 0 ? '-' : ''}${Math.floor(Math.abs(tenths) / 10)}.${Math.abs(tenths) % 10}`;
}

function eurText(minor: bigint | null): Decimal | null {
  return minor === null ? null : toDecimal(Number(minor), 'EUR');
}

function eurThreshold(text: Decimal): bigint {
  return BigInt(parseAmount(text, 'EUR') ?? 0);
}

function evidenceOf(t: MonitoredTransfer, rates: MonitoringFacts['rates']): EvidenceTransfer {
  return {
    id: t.id, reference: t.reference, profile_id: t.profile_id, amount: t.amount, currency: t.currency,
    amount_eur: eurText(eurMinor(t, rates)), created_at: new Date(t.created_ms).toISOString(),
  };
}

/** Transfers made less than `days` days before `now` (a transfer exactly `days` days old is out). */
function within<T extends { created_ms: number }>(rows: readonly T[], now: number, days: number): T[] {
  const from = now - days * DAY_MS;
  return rows.filter((r) => r.created_ms > from && r.created_ms <= now);
}

/** At most this many transfers are listed in one alert's evidence (the newest); the numbers count them all. */
export const EVIDENCE_TRANSFERS = 50;

function listed(rows: readonly MonitoredTransfer[], rates: MonitoringFacts['rates']): EvidenceTransfer[] {
  return [...rows].sort((a, b) => b.created_ms - a.created_ms).slice(0, EVIDENCE_TRANSFERS).map((t) => evidenceOf(t, rates));
}

type Check = (facts: MonitoringFacts, settings: RuleSettings) => Evidence | null;

/** The velocity rule's windows, in days, shortest first, with their thresholds' keys. */
const VELOCITY_WINDOWS = [[1, 'count_24h', 'sum_24h_eur'], [7, 'count_7d', 'sum_7d_eur'], [30, 'count_30d', 'sum_30d_eur']] as const;

const velocity: Check = (f, s) => {
  const th = s.velocity.thresholds;
  const now = f.transfer.created_ms;
  // One pass over the sender's transfers: each counted in every window it falls in.
  const counts = [1, 1, 1];
  const sums = VELOCITY_WINDOWS.map(() => eurMinor(f.transfer, f.rates) ?? 0n);
  for (const r of f.sender_transfers) {
    if (r.created_ms > now) continue;
    const eur = eurMinor(r, f.rates) ?? 0n;
    VELOCITY_WINDOWS.forEach(([days], i) => {
      if (r.created_ms > now - days * DAY_MS) {
        counts[i]!++;
        sums[i]! += eur;
      }
    });
  }
  const compared: Evidence['compared'] = [];
  let widestDays = 0;
  VELOCITY_WINDOWS.forEach(([days, countKey, sumKey], i) => {
    const count = th[countKey];
    const sum = th[sumKey];
    if (counts[i]! >= count) compared.push({ measure: 'count', value: String(counts[i]), threshold: String(count), window_days: days });
    if (sums[i]! >= eurThreshold(sum)) compared.push({ measure: 'sum_eur', value: eurText(sums[i]!)!, threshold: sum, window_days: days });
    if (counts[i]! >= count || sums[i]! >= eurThreshold(sum)) widestDays = days;
  });
  if (compared.length === 0) return null;
  return { compared, transfers: listed([f.transfer, ...within(f.sender_transfers, now, widestDays)], f.rates) };
};

/** The limits amounts may fall just under: 1,000 EUR/USD (the travel rule's) and the sender's limit for one transfer. */
function justUnder(t: MonitoredTransfer, f: MonitoringFacts, marginPercent: number): string | null {
  const under = (amount: bigint, limit: bigint) => amount < limit && amount * 100n >= limit * BigInt(100 - marginPercent);
  const minor = parseAmount(t.amount, t.currency);
  if (minor === null) return null;
  const eur = eurMinor(t, f.rates);
  // 1,000 in the transfer's own currency for EUR and USD, its EUR equivalent for the others.
  const ownThousand = t.currency === 'EUR' || t.currency === 'USD';
  const thousandAmount = ownThousand ? BigInt(minor) : eur;
  if (thousandAmount !== null && under(thousandAmount, NAMED_RECIPIENT_FROM)) return ownThousand ? `1000.00 ${t.currency}` : '1000.00 EUR';
  if (f.transfer_limit_eur !== null && eur !== null) {
    const limit = eurThreshold(f.transfer_limit_eur);
    if (limit !== NAMED_RECIPIENT_FROM && under(eur, limit)) return `${f.transfer_limit_eur} EUR`;
  }
  return null;
}

const structuring: Check = (f, s) => {
  const th = s.structuring.thresholds;
  const limit = justUnder(f.transfer, f, th.margin_percent);
  if (!limit) return null;
  const now = f.transfer.created_ms;
  const rows = [f.transfer, ...within(f.sender_transfers, now, th.within_days).filter((t) => justUnder(t, f, th.margin_percent))];
  if (rows.length < th.min_transfers) return null;
  const limits = [...new Set(rows.map((t) => justUnder(t, f, th.margin_percent)!))];
  return {
    compared: [{ measure: 'transfers_just_under_a_limit', value: String(rows.length), threshold: String(th.min_transfers), window_days: th.within_days }],
    transfers: listed(rows, f.rates),
    details: { limits, margin_percent: th.margin_percent },
  };
};

const manySendersToRecipient: Check = (f, s) => {
  const th = s.many_senders_to_recipient.thresholds;
  if (!f.transfer.account) return null;
  const now = f.transfer.created_ms;
  const rows = [f.transfer, ...within(f.account_transfers, now, th.within_days).filter((t) => t.account === f.transfer.account)];
  const senders = new Set(rows.map((t) => t.profile_id));
  if (senders.size < th.min_senders) return null;
  return {
    compared: [{ measure: 'distinct_senders', value: String(senders.size), threshold: String(th.min_senders), window_days: th.within_days }],
    transfers: listed(rows, f.rates),
    details: { account: f.transfer.account },
  };
};

const oneSenderToManyRecipients: Check = (f, s) => {
  const th = s.one_sender_to_many_recipients.thresholds;
  const now = f.transfer.created_ms;
  const rows = [f.transfer, ...within(f.sender_transfers, now, th.within_days)].filter((t) => t.account);
  const accounts = new Set(rows.map((t) => t.account!));
  if (accounts.size < th.min_recipients) return null;
  return {
    compared: [{ measure: 'distinct_recipient_accounts', value: String(accounts.size), threshold: String(th.min_recipients), window_days: th.within_days }],
    transfers: listed(rows, f.rates),
    details: { accounts: [...accounts] },
  };
};

const largeFirstTransfer: Check = (f, s) => {
  const th = s.large_first_transfer.thresholds;
  if (f.previous_transfer_at !== null) return null;
  const ageDays = (f.transfer.created_ms - Date.parse(f.sender_created_at)) / DAY_MS;
  if (ageDays > th.new_account_days) return null;
  const eur = eurMinor(f.transfer, f.rates);
  if (eur === null || eur < eurThreshold(th.min_amount_eur)) return null;
  return {
    compared: [
      { measure: 'amount_eur', value: eurText(eur)!, threshold: th.min_amount_eur },
      { measure: 'account_age_days', value: daysText(ageDays * DAY_MS), threshold: String(th.new_account_days) },
    ],
    transfers: [evidenceOf(f.transfer, f.rates)],
  };
};

const ROUND_UNIT_KEY = { EUR: 'unit_eur', USD: 'unit_usd', XAF: 'unit_xaf', RWF: 'unit_rwf' } as const;

const roundAmounts: Check = (f, s) => {
  const th = s.round_amounts.thresholds;
  const isRound = (t: MonitoredTransfer) => {
    const minor = parseAmount(t.amount, t.currency);
    const unit = parseAmount(th[ROUND_UNIT_KEY[t.currency]], t.currency);
    const eur = eurMinor(t, f.rates);
    return minor !== null && unit !== null && unit > 0 && minor % unit === 0 && eur !== null && eur >= eurThreshold(th.min_amount_eur);
  };
  if (!isRound(f.transfer)) return null;
  const now = f.transfer.created_ms;
  const rows = [f.transfer, ...within(f.sender_transfers, now, th.within_days).filter(isRound)];
  if (rows.length < th.min_transfers) return null;
  return {
    compared: [{ measure: 'round_amount_transfers', value: String(rows.length), threshold: String(th.min_transfers), window_days: th.within_days }],
    transfers: listed(rows, f.rates),
    details: { unit: `${th[ROUND_UNIT_KEY[f.transfer.currency]]} ${f.transfer.currency}`, min_amount_eur: th.min_amount_eur },
  };
};

const dormantAccount: Check = (f, s) => {
  const th = s.dormant_account.thresholds;
  // Quiet since its last transfer, or since it was opened when it never sent.
  const since = f.previous_transfer_at ?? f.sender_created_at;
  const quietMs = f.transfer.created_ms - Date.parse(since);
  if (quietMs < th.dormant_days * DAY_MS) return null;
  const eur = eurMinor(f.transfer, f.rates);
  if (eur === null || eur < eurThreshold(th.min_amount_eur)) return null;
  return {
    compared: [
      { measure: 'days_without_transfer', value: daysText(quietMs), threshold: String(th.dormant_days) },
      { measure: 'amount_eur', value: eurText(eur)!, threshold: th.min_amount_eur },
    ],
    transfers: [evidenceOf(f.transfer, f.rates)],
    details: { quiet_since: since, first_transfer: f.previous_transfer_at === null ? 'yes' : 'no' },
  };
};

/** Names compared the way people write them differently: case, accents, spacing. */
function nameKey(name: string | null): string | null {
  const key = name?.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return key || null;
}

const sharedRecipientAccount: Check = (f, s) => {
  const th = s.shared_recipient_account.thresholds;
  if (!f.transfer.account) return null;
  const now = f.transfer.created_ms;
  const rows = [f.transfer, ...within(f.account_transfers, now, th.within_days).filter((t) => t.account === f.transfer.account)];
  const senders = new Set(rows.map((t) => t.profile_id));
  if (senders.size < th.min_senders) return null;
  const names = new Set(rows.flatMap((t) => nameKey(t.recipient_name) ?? []));
  if (names.size < th.min_names) return null;
  return {
    compared: [
      { measure: 'distinct_senders', value: String(senders.size), threshold: String(th.min_senders), window_days: th.within_days },
      { measure: 'distinct_recipient_names', value: String(names.size), threshold: String(th.min_names), window_days: th.within_days },
    ],
    transfers: listed(rows, f.rates),
    details: { account: f.transfer.account, names: [...new Set(rows.flatMap((t) => t.recipient_name ?? []))] },
  };
};

const CHECKS: Record<MonitoringRule, Check> = {
  velocity, structuring, many_senders_to_recipient: manySendersToRecipient, one_sender_to_many_recipients: oneSenderToManyRecipients,
  large_first_transfer: largeFirstTransfer, round_amounts: roundAmounts, dormant_account: dormantAccount,
  shared_recipient_account: sharedRecipientAccount,
};

/**
 * Every enabled rule `facts.transfer` hits, in the rules' order, each with its evidence; a rule
 * `asked` leaves out is not run (its evidence can cost more than the rest of the judgement).
 */
export function evaluateRules(facts: MonitoringFacts, settings: RuleSettings, asked: (rule: MonitoringRule) => boolean = () => true): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const rule of Object.keys(CHECKS) as MonitoringRule[]) {
    if (!settings[rule].enabled || !asked(rule)) continue;
    const evidence = CHECKS[rule](facts, settings);
    if (evidence) hits.push({ rule, holds: settings[rule].holds, evidence });
  }
  return hits;
}

