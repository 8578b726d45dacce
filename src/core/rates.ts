// Exchange rates (docs/rules/fees-and-rates.md#rates): five stored forward rates, inverses as
// exact reciprocals.
import {
  MINOR_UNITS, bigintToMinor, isMinor, parseDecimal, pow10, ratioToDecimal, roundDiv,
  type Currency, type Decimal, type Minor,
} from './money.js';

/** Decimals a stored rate keeps (rates.value is numeric(24, 10)). */
export const STORED_RATE_DECIMALS = 10;

/**
 * Decimals of a quote's and a transfer's rate. A direction converted by the reciprocal of a stored
 * rate (XAF → EUR is 1 ÷ EUR_XAF) is not a finite decimal: with 20 decimals, turning it round and
 * rounding to STORED_RATE_DECIMALS gives back exactly the stored rate (for any stored rate below
 * 100,000: the error is under rate² × 0.5e-20 < 0.5e-10), so the screens write "1 EUR = 655.957
 * XAF" as charged, never 1 ÷ 0.001524 = 656.17 (docs/rules/fees-and-rates.md#rates-on-screen).
 */
export const RATE_DECIMALS = 20;

export const RATE_KEYS = ['USD_XAF', 'USD_RWF', 'EUR_XAF', 'EUR_RWF', 'EUR_USD'] as const;
/** A stored rate: units of the second currency per 1 unit of the first. */
export type RateKey = (typeof RATE_KEYS)[number];
export type RateSet = Record<RateKey, Decimal> & {
  updatedAt: string;
  /** Each rate's reference as stored (the ECB's, or what staff entered); absent: ours is its own reference. */
  references?: Partial<Record<RateKey, Decimal>>;
  /** When each rate was last set (ISO): its age. */
  updated?: Partial<Record<RateKey, string>>;
  /** A rate older than this many hours is stale: quotes on it are refused (docs/rules/fees-and-rates.md#rate-sources). */
  maxAgeHours?: number;
};

/** How old a rate may get before quotes on it are refused, unless the admin sets another age. */
export const DEFAULT_RATE_MAX_AGE_HOURS = 36;

/**
 * The stored rate a direction converts with (forward, or the inverse's), stale when it was set more
 * than the maximum age before `now`; exactly the maximum age is still fresh. A rate whose
 * reference is a legal fixed parity (`fixed`) cannot age. Null when fresh.
 */
export function staleRate(from: Currency, to: Currency, rates: RateSet, now: number, fixed: readonly string[] = []): { key: RateKey; updated_at: string } | null {
  if (from === to) return null;
  const key = ([`${from}_${to}`, `${to}_${from}`] as string[]).find(isRateKey);
  if (!key || fixed.includes(key)) return null;
  const updated = rates.updated?.[key];
  if (!updated) return null;
  const maxAge = (rates.maxAgeHours ?? DEFAULT_RATE_MAX_AGE_HOURS) * 3_600_000;
  return now - Date.parse(updated) > maxAge ? { key, updated_at: updated } : null;
}

export const SEED_RATES: RateSet = {
  USD_XAF: '610',
  USD_RWF: '1300',
  EUR_XAF: '655',
  EUR_RWF: '1400',
  EUR_USD: '1.08',
  updatedAt: '2025-01-01T00:00:00.000Z',
};

/** Every pair a direction can need: the forward rates, their inverses, and USD_EUR. */
export const EXPANDED_RATE_KEYS = [
  'USD_XAF', 'USD_RWF', 'EUR_XAF', 'EUR_RWF',
  'XAF_USD', 'RWF_USD', 'XAF_EUR', 'RWF_EUR',
  'EUR_USD', 'USD_EUR',
] as const;
type ExpandedRateKey = (typeof EXPANDED_RATE_KEYS)[number];
export type ExpandedRateSet = Record<ExpandedRateKey, Decimal> & { updatedAt: string };

export interface Ratio {
  readonly numerator: bigint;
  readonly denominator: bigint;
}

function isRateKey(value: unknown): value is RateKey {
  return typeof value === 'string' && (RATE_KEYS as readonly string[]).includes(value);
}

/** Each rate's text as a fraction, parsed once: the rules and limits convert every amount they read. */
const parsedRates = new Map<Decimal, Ratio | null>();

function storedRate(key: string, rates: Partial<Record<RateKey, Decimal>>): Ratio | null {
  if (!isRateKey(key)) return null;
  const value = rates[key];
  if (value == null) return null;
  let ratio = parsedRates.get(value);
  if (ratio === undefined) {
    const parsed = parseDecimal(value);
    ratio = !parsed || parsed.units === 0n ? null : { numerator: parsed.units, denominator: pow10(parsed.scale) };
    // Rates change by hand, a few times a day: a bound only against a process that lives for years.
    if (parsedRates.size >= 1000) parsedRates.clear();
    parsedRates.set(value, ratio);
  }
  return ratio;
}

/**
 * Units of `to` per 1 unit of `from` as an exact fraction. Same currency is 1; an inverse is the
 * exact reciprocal of the stored forward rate (XAF→USD = 1/610). Null when the rate is missing,
 * unparsable or zero.
 */
export function rateBetween(
  from: Currency,
  to: Currency,
  rates: Partial<Record<RateKey, Decimal>>,
): Ratio | null {
  if (from === to) return { numerator: 1n, denominator: 1n };
  const forward = storedRate(`${from}_${to}`, rates);
  if (forward) return forward;
  const inverse = storedRate(`${to}_${from}`, rates);
  if (inverse) return { numerator: inverse.denominator, denominator: inverse.numerator };
  return null;
}

/**
 * Converts minor units of `from` into minor units of `to`, rounded half up to the target's minor
 * unit (whole XAF/RWF). Returns 0 when the rate is missing or the amount is not a safe integer
 * (a payout of 0, docs/rules/fees-and-rates.md#rates), and also when the result would leave the
 * safe-integer range.
 */
export function convert(
  amount: Minor,
  from: Currency,
  to: Currency,
  rates: Partial<Record<RateKey, Decimal>>,
): Minor {
  if (!isMinor(amount)) return 0;
  const rate = rateBetween(from, to, rates);
  if (!rate) return 0;
  const numerator = BigInt(amount) * rate.numerator * pow10(MINOR_UNITS[to]);
  const denominator = rate.denominator * pow10(MINOR_UNITS[from]);
  return bigintToMinor(roundDiv(numerator, denominator)) ?? 0;
}

/** The rate as a decimal string with at most `digits` decimals ("610", "0.001639"); "0" when missing. */
export function displayRate(
  from: Currency,
  to: Currency,
  rates: Partial<Record<RateKey, Decimal>>,
  digits = 6,
): Decimal {
  const rate = rateBetween(from, to, rates);
  return rate ? ratioToDecimal(rate.numerator, rate.denominator, digits) : '0';
}

/**
 * The exchange-rate set the API serves (forward rates, inverses, EUR/USD both ways, updatedAt) as
 * decimal strings. Inverses get `digits` decimals so 1/1300 keeps several significant digits.
 */
export function expandRateSet(rates: RateSet, digits = 10): ExpandedRateSet {
  const pair = (key: ExpandedRateKey): Decimal => {
    const [from, to] = key.split('_') as [Currency, Currency];
    return displayRate(from, to, rates, digits);
  };
  const expanded = { updatedAt: rates.updatedAt } as ExpandedRateSet;
  for (const key of EXPANDED_RATE_KEYS) expanded[key] = pair(key);
  return expanded;
}
