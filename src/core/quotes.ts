import { MINOR_UNITS, pow10, ratioToDecimal, type Currency, type Decimal, type Minor } from './money.js';
import { RATE_DECIMALS, displayRate, rateBetween, type RateKey } from './rates.js';

// A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise): its price holds until
// it expires, and it names the reference rate beside ours and the margin between them.

/** How long a quote holds when its corridor sets nothing else, in minutes. */
export const DEFAULT_QUOTE_MINUTES = 30;
/**
 * EUR↔XAF is a legal fixed parity: its rate cannot move under a quote, so it is promised for a
 * day (admin-editable like every corridor's).
 */
export const FIXED_PARITY_QUOTE_MINUTES = 24 * 60;
/** The longest validity an admin may set: a week. */
export const MAX_QUOTE_MINUTES = 7 * 24 * 60;

/**
 * The legal fixed parities: a rate whose reference is one of these takes it from here (never
 * stored), and cannot go stale. Other references are stored with the rates (the ECB's EUR↔USD,
 * what staff enter for RWF); a pair with none is its own reference (margin 0).
 */
export const REFERENCE_RATES: Partial<Record<RateKey, Decimal>> = { EUR_XAF: '655.957' };

/** The directions whose two currencies are bound by a fixed parity. */
export function isFixedParity(from: Currency, to: Currency): boolean {
  return (from === 'EUR' && to === 'XAF') || (from === 'XAF' && to === 'EUR');
}

/** A corridor's default validity, as seeded. */
export function defaultQuoteMinutes(from: Currency, to: Currency): number {
  return isFixedParity(from, to) ? FIXED_PARITY_QUOTE_MINUTES : DEFAULT_QUOTE_MINUTES;
}

export interface ReferenceAndMargin {
  /** Units of `to` per unit of `from` at the reference, RATE_DECIMALS at most (as `rate`). */
  reference_rate: Decimal;
  /**
   * 1 − ours ÷ reference, a fraction with 6 decimals ("0.001459" is 0.1459 %): what we keep of
   * the reference; negative when our rate gives more than the reference.
   */
  margin: Decimal;
}

/** The reference rate of from→to and our margin on it, computed exactly from the stored rates. */
export function referenceAndMargin(
  from: Currency, to: Currency, rates: Partial<Record<RateKey, Decimal>>, stored: Partial<Record<RateKey, Decimal>> = {},
): ReferenceAndMargin {
  // Ours where nothing else is known, the stored references (ECB, staff) over it, the legal parity over all.
  const references = { ...rates, ...stored, ...REFERENCE_RATES };
  const ours = rateBetween(from, to, rates);
  const reference = rateBetween(from, to, references);
  if (!ours || !reference) return { reference_rate: displayRate(from, to, references, RATE_DECIMALS), margin: '0' };
  // 1 − (on/od) ÷ (rn/rd) = (od·rn − on·rd) ÷ (od·rn)
  const numerator = ours.denominator * reference.numerator - ours.numerator * reference.denominator;
  const denominator = ours.denominator * reference.numerator;
  const magnitude = ratioToDecimal(numerator < 0n ? -numerator : numerator, denominator, 6);
  return {
    reference_rate: displayRate(from, to, references, RATE_DECIMALS),
    margin: numerator < 0n && magnitude !== '0' ? `-${magnitude}` : magnitude,
  };
}

/**
 * The smallest amount of `from`, in its minor units, whose payout (converted as every quote
 * converts, rounded half up) is at least `payout` minor units of `to`; null when the rate is
 * missing. Solved exactly: round(a·N/D) ≥ P ⟺ 2aN + D ≥ 2PD ⟺ a ≥ (2P − 1)·D ÷ 2N.
 */
export function amountForPayout(payout: Minor, from: Currency, to: Currency, rates: Partial<Record<RateKey, Decimal>>): Minor | null {
  if (payout <= 0) return 0;
  const rate = rateBetween(from, to, rates);
  if (!rate) return null;
  const n = rate.numerator * pow10(MINOR_UNITS[to]);
  const d = rate.denominator * pow10(MINOR_UNITS[from]);
  const top = (2n * BigInt(payout) - 1n) * d;
  const amount = (top + 2n * n - 1n) / (2n * n);
  return amount > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(amount);
}
