// Transaction monitoring's rules (docs/rules/monitoring.md): their names, the thresholds each reads
// and the defaults a fresh install starts with. The admin edits thresholds, turns a rule on or off
// and says whether its hit holds the transfer.
import type { Currency, Decimal } from '../money.js';

export const MONITORING_RULES = [
  'velocity', 'structuring', 'many_senders_to_recipient', 'one_sender_to_many_recipients',
  'large_first_transfer', 'round_amounts', 'dormant_account', 'shared_recipient_account',
] as const;
export type MonitoringRule = (typeof MONITORING_RULES)[number];

/**
 * What a threshold is: a whole count (at least 1), a number of days (1 to 3,650), a percentage
 * (1 to 50), or an amount (a decimal, in EUR unless `currency` names the transfer's own currency).
 */
export type ThresholdKind = 'count' | 'days' | 'percent' | 'amount';
export interface ThresholdField {
  key: string;
  kind: ThresholdKind;
  /** An amount's currency: EUR (compared in EUR at the published rates) or the transfer's own. */
  currency?: Currency;
}

export const RULE_FIELDS = {
  velocity: [
    { key: 'count_24h', kind: 'count' }, { key: 'sum_24h_eur', kind: 'amount', currency: 'EUR' },
    { key: 'count_7d', kind: 'count' }, { key: 'sum_7d_eur', kind: 'amount', currency: 'EUR' },
    { key: 'count_30d', kind: 'count' }, { key: 'sum_30d_eur', kind: 'amount', currency: 'EUR' },
  ],
  structuring: [{ key: 'min_transfers', kind: 'count' }, { key: 'within_days', kind: 'days' }, { key: 'margin_percent', kind: 'percent' }],
  many_senders_to_recipient: [{ key: 'min_senders', kind: 'count' }, { key: 'within_days', kind: 'days' }],
  one_sender_to_many_recipients: [{ key: 'min_recipients', kind: 'count' }, { key: 'within_days', kind: 'days' }],
  large_first_transfer: [{ key: 'min_amount_eur', kind: 'amount', currency: 'EUR' }, { key: 'new_account_days', kind: 'days' }],
  round_amounts: [
    { key: 'min_transfers', kind: 'count' }, { key: 'within_days', kind: 'days' }, { key: 'min_amount_eur', kind: 'amount', currency: 'EUR' },
    { key: 'unit_eur', kind: 'amount', currency: 'EUR' }, { key: 'unit_usd', kind: 'amount', currency: 'USD' },
    { key: 'unit_xaf', kind: 'amount', currency: 'XAF' }, { key: 'unit_rwf', kind: 'amount', currency: 'RWF' },
  ],
  dormant_account: [{ key: 'dormant_days', kind: 'days' }, { key: 'min_amount_eur', kind: 'amount', currency: 'EUR' }],
  shared_recipient_account: [{ key: 'min_senders', kind: 'count' }, { key: 'min_names', kind: 'count' }, { key: 'within_days', kind: 'days' }],
} as const satisfies Record<MonitoringRule, readonly ThresholdField[]>;

type FieldValue<F> = F extends { kind: 'amount' } ? Decimal : number;
export type RuleThresholds<R extends MonitoringRule> = { [F in (typeof RULE_FIELDS)[R][number] as F['key']]: FieldValue<F> };
export type Thresholds = { [R in MonitoringRule]: RuleThresholds<R> };

/** A rule's settings as the admin leaves them. */
export interface RuleSetting<R extends MonitoringRule = MonitoringRule> {
  enabled: boolean;
  /** A hit holds the transfer (reason `monitoring`) until its case is closed. */
  holds: boolean;
  thresholds: RuleThresholds<R>;
}
export type RuleSettings = { [R in MonitoringRule]: RuleSetting<R> };

/** The defaults of a fresh install (docs/rules/monitoring.md#the-rules). */
export const DEFAULT_RULE_SETTINGS: RuleSettings = {
  velocity: {
    enabled: true, holds: false,
    thresholds: { count_24h: 5, sum_24h_eur: '3000.00', count_7d: 10, sum_7d_eur: '5000.00', count_30d: 20, sum_30d_eur: '10000.00' },
  },
  structuring: { enabled: true, holds: true, thresholds: { min_transfers: 3, within_days: 3, margin_percent: 10 } },
  many_senders_to_recipient: { enabled: true, holds: true, thresholds: { min_senders: 5, within_days: 7 } },
  one_sender_to_many_recipients: { enabled: true, holds: false, thresholds: { min_recipients: 5, within_days: 7 } },
  large_first_transfer: { enabled: true, holds: false, thresholds: { min_amount_eur: '500.00', new_account_days: 30 } },
  round_amounts: {
    enabled: true, holds: false,
    thresholds: { min_transfers: 3, within_days: 30, min_amount_eur: '500.00', unit_eur: '100', unit_usd: '100', unit_xaf: '50000', unit_rwf: '100000' },
  },
  dormant_account: { enabled: true, holds: false, thresholds: { dormant_days: 180, min_amount_eur: '200.00' } },
  shared_recipient_account: { enabled: true, holds: false, thresholds: { min_senders: 3, min_names: 2, within_days: 90 } },
};

/** The bounds of each kind of threshold, checked by the API's schema. */
export const THRESHOLD_BOUNDS: Record<Exclude<ThresholdKind, 'amount'>, { min: number; max: number }> = {
  count: { min: 1, max: 10_000 },
  days: { min: 1, max: 3_650 },
  percent: { min: 1, max: 50 },
};

/** The longest window, in days, any enabled rule looks back over: what the initiation reads of the past. */
export function lookbackDays(settings: RuleSettings): number {
  let days = 1;
  const t = settings;
  if (t.velocity.enabled) days = Math.max(days, 30);
  if (t.structuring.enabled) days = Math.max(days, t.structuring.thresholds.within_days);
  if (t.one_sender_to_many_recipients.enabled) days = Math.max(days, t.one_sender_to_many_recipients.thresholds.within_days);
  if (t.round_amounts.enabled) days = Math.max(days, t.round_amounts.thresholds.within_days);
  return days;
}

/** How far back the recipient account's other payments are read. */
export function accountLookbackDays(settings: RuleSettings): number {
  let days = 0;
  if (settings.many_senders_to_recipient.enabled) days = Math.max(days, settings.many_senders_to_recipient.thresholds.within_days);
  if (settings.shared_recipient_account.enabled) days = Math.max(days, settings.shared_recipient_account.thresholds.within_days);
  return days;
}

/**
 * How many of the sender's newest transfers (and of the account's newest payments) the initiation
 * reads: one more than the largest count threshold of an enabled rule. Rules only count up to
 * their thresholds, so a window holding more than this is over them already; what lies past it
 * is the nightly sweep's (docs/rules/monitoring.md#when-the-rules-run).
 */
export function initiationRows(settings: RuleSettings): number {
  let rows = 1;
  for (const rule of MONITORING_RULES) {
    if (!settings[rule].enabled) continue;
    for (const field of RULE_FIELDS[rule]) {
      if (field.kind === 'count') rows = Math.max(rows, (settings[rule].thresholds as Record<string, number>)[field.key]! + 1);
    }
  }
  return rows;
}
