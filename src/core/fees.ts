// Fee tiers, corridor limits and quotes (docs/rules/fees-and-rates.md). One price everywhere:
// the calculator, the fees page, the transfer screen and the server all compute through here.
import type { ErrorCode } from './errors.js';
import { CHANNELS, directionById, type ChannelId, type DirectionId } from './channels.js';
import {
  bigintToMinor, compareDecimal, decimalToMinor, isMinor, parseDecimal, pow10, roundDiv,
  type Currency, type Decimal, type Minor, type ParsedDecimal,
} from './money.js';
import { RATE_DECIMALS, convert, displayRate, type RateKey } from './rates.js';

/** Amounts are major-unit decimal strings in the source currency, as the numeric columns arrive. */
export interface FeeTier {
  id?: string;
  direction: DirectionId;
  /** A fraction: "0.045" is 4.5 %. */
  percentage: Decimal;
  min_amount: Decimal;
  /** Null means unbounded. */
  max_amount: Decimal | null;
  min_fee: Decimal | null;
}

export interface Corridor {
  direction: DirectionId;
  min_amount: Decimal;
  max_amount: Decimal;
  processing_time: string;
}

/** With no tier at all, 4 % of the amount (docs/rules/fees-and-rates.md#choosing-the-tier). */
export const DEFAULT_FEE_PERCENTAGE: Decimal = '0.04';

const PAYPAL_TO_MOBILE = '10-60 min';
const MOBILE_TO_PAYPAL = '10-90 min';
const FRANCE_BANK = '1-2 business days';

function corridor(direction: DirectionId, min: string, max: string, processing_time: string): Corridor {
  return { direction, min_amount: min, max_amount: max, processing_time };
}

/** Corridor limits and processing times of the fees page, France bank directions included. */
export const SEED_CORRIDORS: readonly Corridor[] = [
  corridor('USD_XAF', '5', '2000', PAYPAL_TO_MOBILE),
  corridor('USD_RWF', '5', '2000', PAYPAL_TO_MOBILE),
  corridor('USD_EUR', '5', '2000', FRANCE_BANK),
  corridor('EUR_XAF', '5', '2000', PAYPAL_TO_MOBILE),
  corridor('EUR_RWF', '5', '2000', PAYPAL_TO_MOBILE),
  corridor('EUR_EUR', '5', '2000', FRANCE_BANK),
  corridor('XAF_USD', '3000', '1200000', MOBILE_TO_PAYPAL),
  corridor('RWF_USD', '5000', '2000000', MOBILE_TO_PAYPAL),
  corridor('EUR_USD', '5', '2000', FRANCE_BANK),
  corridor('XAF_EUR', '3000', '1200000', MOBILE_TO_PAYPAL),
  corridor('RWF_EUR', '5000', '2000000', MOBILE_TO_PAYPAL),
  corridor('EUR_EUR_FRANCE', '5', '2000', FRANCE_BANK),
];

/** Three tiers: [start, low], [low, high], [high, ∞); the minimum fee applies to the first only. */
function tiers(
  direction: DirectionId,
  [start, low, high]: [string, string, string],
  [first, second, third]: [Decimal, Decimal, Decimal],
  minFee: Decimal | null,
): FeeTier[] {
  return [
    { direction, percentage: first, min_amount: start, max_amount: low, min_fee: minFee },
    { direction, percentage: second, min_amount: low, max_amount: high, min_fee: null },
    { direction, percentage: third, min_amount: high, max_amount: null, min_fee: null },
  ];
}

const MAJOR_BOUNDS: [string, string, string] = ['1', '100', '500'];

/**
 * Seeded from the fees-page table; the France bank directions from the calculator tiers. Pure and
 * without spreads, so that browser bundles, which never seed, leave it out (home page budget).
 */
export const SEED_FEE_TIERS: readonly FeeTier[] = /* @__PURE__ */ [
  tiers('USD_XAF', MAJOR_BOUNDS, ['0.045', '0.039', '0.032'], '3'),
  tiers('USD_RWF', MAJOR_BOUNDS, ['0.048', '0.041', '0.034'], '3'),
  tiers('USD_EUR', MAJOR_BOUNDS, ['0.032', '0.028', '0.024'], null),
  tiers('EUR_XAF', MAJOR_BOUNDS, ['0.043', '0.037', '0.03'], '2.5'),
  tiers('EUR_RWF', MAJOR_BOUNDS, ['0.046', '0.039', '0.032'], '2.5'),
  tiers('EUR_EUR', MAJOR_BOUNDS, ['0.025', '0.021', '0.018'], null),
  tiers('XAF_USD', ['3000', '60000', '300000'], ['0.042', '0.036', '0.03'], '1800'),
  tiers('RWF_USD', ['5000', '120000', '600000'], ['0.044', '0.037', '0.031'], '1500'),
  tiers('EUR_USD', MAJOR_BOUNDS, ['0.031', '0.027', '0.023'], null),
  tiers('XAF_EUR', ['3000', '65000', '327500'], ['0.04', '0.034', '0.028'], '1500'),
  tiers('RWF_EUR', ['5000', '140000', '700000'], ['0.042', '0.035', '0.029'], '1400'),
  tiers('EUR_EUR_FRANCE', MAJOR_BOUNDS, ['0.024', '0.02', '0.017'], null),
].flat();

/** An admin's tier as FeeTierInputSchema gives it: `percentage` is already the stored fraction. */
export interface FeeTierInputFields {
  direction: DirectionId;
  percentage: Decimal;
  min_amount: Decimal;
  max_amount: Decimal | null;
  min_fee?: Decimal | null | undefined;
}

/** The stored form of an admin's tier (no min fee is null). */
export function feeTierFromInput(input: FeeTierInputFields): FeeTier {
  return {
    direction: input.direction,
    percentage: input.percentage,
    min_amount: input.min_amount,
    max_amount: input.max_amount,
    min_fee: input.min_fee ?? null,
  };
}

interface TierBounds {
  tier: FeeTier;
  min: Minor;
  max: Minor | null;
}

function boundsOf(tier: FeeTier, currency: Currency): TierBounds | null {
  const min = decimalToMinor(tier.min_amount, currency);
  const max = tier.max_amount == null ? null : decimalToMinor(tier.max_amount, currency);
  if (min == null || (tier.max_amount != null && max == null)) return null;
  return { tier, min, max };
}

/**
 * The tier for an amount, among the tiers of ONE direction: the one whose
 * min_amount ≤ amount ≤ max_amount (null max = unbounded). On a shared boundary the lower tier wins
 * (100 USD is charged the first tier's 4.5 %). Below every tier: the lowest tier. Otherwise, when
 * none matches: the tier with the highest min_amount. Null when there are no (usable) tiers.
 */
export function selectTier(tiers: readonly FeeTier[], amount: Minor, currency: Currency): FeeTier | null {
  return pickTier(planOf(tiers, currency).usable, amount);
}

/** A tier set read once: its usable tiers by min_amount, and each tier's fee rule as first asked. */
interface TierPlan {
  usable: TierBounds[];
  rules: Map<FeeTier | null, (amount: Minor) => Minor>;
}

/**
 * Tier sets are not changed once made (the server's published prices are frozen and shared by
 * every price), so each set is read once per currency, or per direction among a set of several,
 * and not again at every price.
 */
const plans = new WeakMap<readonly FeeTier[], Map<string, TierPlan>>();
function planOf(tiers: readonly FeeTier[], currency: Currency, direction?: DirectionId): TierPlan {
  let ofSet = plans.get(tiers);
  if (!ofSet) plans.set(tiers, (ofSet = new Map()));
  const key = `${direction ?? ''} ${currency}`;
  let plan = ofSet.get(key);
  if (!plan) {
    const own = direction ? tiers.filter((t) => t.direction === direction) : tiers;
    ofSet.set(key, (plan = { usable: usableTiers(own, currency), rules: new Map() }));
  }
  return plan;
}

/** The tiers that read as amounts of the currency, by min_amount. */
function usableTiers(tiers: readonly FeeTier[], currency: Currency): TierBounds[] {
  return tiers
    .map((tier) => boundsOf(tier, currency))
    .filter((b): b is TierBounds => b !== null)
    .sort((a, b) => a.min - b.min);
}

function pickTier(usable: readonly TierBounds[], amount: Minor): FeeTier | null {
  const lowest = usable[0];
  if (!lowest) return null;
  const match = usable.find((b) => b.min <= amount && (b.max === null || amount <= b.max));
  if (match) return match.tier;
  if (amount < lowest.min) return lowest.tier;
  return usable[usable.length - 1]!.tier;
}

/**
 * amount × percentage rounded half up to the currency's minor unit, raised to min_fee when set.
 * No tier: 4 %. An amount of 0 or less (or not a safe integer) has no fee.
 */
export function computeFee(amount: Minor, currency: Currency, tier: FeeTier | null): Minor {
  return feeRule(tier, currency)(amount);
}

/** computeFee for one tier, its percentage and minimum fee read once. */
function feeRule(tier: FeeTier | null, currency: Currency): (amount: Minor) => Minor {
  const percentage = parseDecimal(tier?.percentage ?? DEFAULT_FEE_PERCENTAGE)
    ?? (parseDecimal(DEFAULT_FEE_PERCENTAGE) as ParsedDecimal);
  const scale = pow10(percentage.scale);
  const minFee = tier?.min_fee == null ? null : decimalToMinor(tier.min_fee, currency);
  return (amount) => {
    if (!isMinor(amount) || amount <= 0) return 0;
    // Percentages are below 1, so the fee of a safe amount is itself safe.
    const fee = bigintToMinor(roundDiv(BigInt(amount) * percentage.units, scale)) ?? 0;
    return minFee != null && fee < minFee ? minFee : fee;
  };
}

/**
 * The fee of an amount among the tiers of ONE direction (docs/rules/fees-and-rates.md#fee-computation):
 * its own tier's fee (selectTier, computeFee), raised to the highest fee any smaller amount pays,
 * so a bigger transfer never costs less ($100.01 pays at least what $100 pays). The selected tier
 * only changes just after a tier's max or just before a tier's min, and within one tier the fee
 * grows with the amount, so those edges are the only smaller amounts to look at.
 */
export function tierFee(tiers: readonly FeeTier[], amount: Minor, currency: Currency): Minor {
  return planFee(planOf(tiers, currency), amount, currency);
}

function planFee({ usable, rules }: TierPlan, amount: Minor, currency: Currency): Minor {
  if (!isMinor(amount) || amount <= 0) return 0;
  const own = (a: Minor) => {
    const tier = pickTier(usable, a);
    let rule = rules.get(tier);
    if (!rule) rules.set(tier, (rule = feeRule(tier, currency)));
    return rule(a);
  };
  let fee = own(amount);
  for (const bounds of usable) {
    for (const edge of [bounds.max, bounds.min - 1]) {
      if (edge !== null && edge > 0 && edge < amount) fee = Math.max(fee, own(edge));
    }
  }
  return fee;
}

type CorridorLimitCode = 'below_min' | 'above_max';
export interface CorridorLimitError {
  code: CorridorLimitCode;
  /** The limit that was crossed, in minor units of the source currency. */
  limit: Minor;
}

/** The corridor's min and max, inclusive. Null when the amount is within them. */
export function checkCorridorLimits(amount: Minor, currency: Currency, corridor: Corridor): CorridorLimitError | null {
  const min = decimalToMinor(corridor.min_amount, currency);
  const max = decimalToMinor(corridor.max_amount, currency);
  if (min != null && amount < min) return { code: 'below_min', limit: min };
  if (max != null && amount > max) return { code: 'above_max', limit: max };
  return null;
}

export interface Quote {
  direction: DirectionId;
  source: ChannelId;
  destination: ChannelId;
  /** The source currency: amount, fee and total are in it. */
  currency: Currency;
  payout_currency: Currency;
  amount: Minor;
  fee: Minor;
  total: Minor;
  /** Units of payout currency per unit of source currency, RATE_DECIMALS at most (exact when the direction's stored rate is forward). */
  rate: Decimal;
  /** What the recipient gets: the converted amount (the fee is paid on top). */
  payout: Minor;
  tier: FeeTier | null;
  /** Corridor limit crossed, when a corridor was given; null otherwise. */
  limit_error: CorridorLimitError | null;
  processing_time: string | null;
}

export interface QuoteInput {
  direction: DirectionId;
  amount: Minor;
  /** May hold every direction's tiers: only this direction's are used. */
  tiers: readonly FeeTier[];
  corridor?: Corridor | null;
  rates: Partial<Record<RateKey, Decimal>>;
}

/**
 * The full price of a transfer. An amount of 0 or less gives fee 0, total = amount and payout 0
 * Throws only on an unknown direction, which the schemas rule out.
 */
export function computeQuote({ direction, amount, tiers, corridor, rates }: QuoteInput): Quote {
  const info = directionById(direction);
  if (!info) throw new RangeError(`computeQuote: unknown direction ${String(direction)}`);
  const currency = CHANNELS[info.source].currency;
  const positive = isMinor(amount) && amount > 0;
  const plan = planOf(tiers, currency, direction);
  const tier = positive ? pickTier(plan.usable, amount) : null;
  const fee = positive ? planFee(plan, amount, currency) : 0;
  return {
    direction,
    source: info.source,
    destination: info.destination,
    currency,
    payout_currency: info.to,
    amount,
    fee,
    total: isMinor(amount) ? amount + fee : 0,
    rate: displayRate(info.from, info.to, rates, RATE_DECIMALS),
    payout: positive ? convert(amount, info.from, info.to, rates) : 0,
    tier,
    limit_error: corridor && positive ? checkCorridorLimits(amount, currency, corridor) : null,
    processing_time: corridor?.processing_time ?? null,
  };
}

/** Exact decimal, non-negative; used to validate tier sets without a currency. */
function decimalOrNull(value: Decimal | number | null | undefined): ParsedDecimal | null {
  return value == null ? null : parseDecimal(value);
}

/**
 * The first amount of the corridor's range [min, max] that none of its tiers holds, in minor
 * units of the source currency; null when the tiers cover it all (docs/rules/fees-and-rates.md#tiers). Tiers touching at a
 * boundary ([1,100] and [100,500]) or one minor unit apart ([1,100] and [100.01,500]) leave no gap.
 */
export function firstUncoveredAmount(tiers: readonly FeeTier[], corridor: Corridor): Minor | null {
  const currency = directionById(corridor.direction)?.from;
  if (!currency) return null;
  const min = decimalToMinor(corridor.min_amount, currency);
  const max = decimalToMinor(corridor.max_amount, currency);
  if (min == null || max == null) return null;
  const sorted = tiers
    .filter((t) => t.direction === corridor.direction)
    .map((t) => boundsOf(t, currency))
    .filter((b): b is TierBounds => b !== null)
    .sort((a, b) => a.min - b.min);
  let covered = min - 1; // every amount from min to `covered` is in a tier
  for (const b of sorted) {
    if (covered >= max || b.min > covered + 1) break;
    covered = b.max === null ? Infinity : Math.max(covered, b.max);
  }
  return covered >= max ? null : covered + 1;
}

/**
 * Validates all tiers of one direction. Returns the refusal's error code or null.
 * 0 < percentage < 1 (a fraction), min_amount < max_amount, min_fee ≥ 0, and no overlap
 * (tiers may touch at a boundary: [1,100] and [100,500]). With the direction's corridor, the
 * tiers must also cover its whole range with no gap (docs/rules/fees-and-rates.md#tiers): `fee_tier_gap`.
 */
export function validateTierSet(tiers: readonly FeeTier[], corridor?: Corridor | null): ErrorCode | null {
  const first = tiers[0];
  if (!first) return corridor ? 'fee_tier_gap' : null;
  if (tiers.some((t) => t.direction !== first.direction)) return 'fee_tier_direction_mixed';
  const zero: ParsedDecimal = { units: 0n, scale: 0 };
  const one: ParsedDecimal = { units: 1n, scale: 0 };
  const parsed: { min: ParsedDecimal; max: ParsedDecimal | null }[] = [];
  for (const tier of tiers) {
    const percentage = decimalOrNull(tier.percentage);
    if (!percentage || compareDecimal(percentage, zero) <= 0 || compareDecimal(percentage, one) >= 0) {
      return 'fee_percentage_range';
    }
    const min = decimalOrNull(tier.min_amount);
    const max = decimalOrNull(tier.max_amount);
    if (!min || (tier.max_amount != null && !max)) return 'fee_amount_invalid';
    if (max && compareDecimal(min, max) >= 0) return 'fee_min_max';
    // parseDecimal refuses signs, so an unparsable min_fee is the negative (or garbage) case.
    if (tier.min_fee != null && !decimalOrNull(tier.min_fee)) return 'fee_min_fee_invalid';
    parsed.push({ min, max });
  }
  parsed.sort((a, b) => compareDecimal(a.min, b.min));
  for (let i = 1; i < parsed.length; i += 1) {
    const previous = parsed[i - 1]!;
    const current = parsed[i]!;
    if (previous.max === null || compareDecimal(current.min, previous.max) < 0) return 'fee_tier_overlap';
  }
  if (corridor && firstUncoveredAmount(tiers, corridor) !== null) return 'fee_tier_gap';
  return null;
}

const sameDecimal = (a: Decimal | null, b: Decimal | null): boolean => {
  const x = a == null ? null : parseDecimal(a);
  const y = b == null ? null : parseDecimal(b);
  return x !== null && y !== null && compareDecimal(x, y) === 0;
};

/**
 * One admin edit of one tier, applied to the direction's other tiers so that a shared edge moves
 * for both tiers that share it (docs/rules/fees-and-rates.md#editing-tiers):
 * - a changed min_amount moves the max_amount of the tier that ended there;
 * - a changed max_amount moves the min_amount of the tier that started there;
 * - a deleted tier (`after` null) leaves its range to the tier below it (the lowest tier's to the
 *   tier above it).
 * A new tier (`before` null) moves nothing. Returns the other tiers, those changed as new objects;
 * the caller validates the whole set (a neighbour left with min ≥ max is an overlap).
 */
export function shareEdges<T extends FeeTier>(others: readonly T[], before: FeeTier | null, after: FeeTier | null): T[] {
  if (!before) return [...others];
  const below = others.find((o) => sameDecimal(o.max_amount, before.min_amount));
  const above = others.find((o) => sameDecimal(o.min_amount, before.max_amount));
  return others.map((o) => {
    if (after === null) {
      if (o === below) return { ...o, max_amount: before.max_amount };
      if (o === above && !below) return { ...o, min_amount: before.min_amount };
      return o;
    }
    if (o === below && !sameDecimal(after.min_amount, before.min_amount)) return { ...o, max_amount: after.min_amount };
    if (o === above && after.max_amount !== null && !sameDecimal(after.max_amount, before.max_amount)) {
      return { ...o, min_amount: after.max_amount };
    }
    return o;
  });
}
