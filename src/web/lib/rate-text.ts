import { formatDecimal, localizeDecimal, parseDecimal, pow10, ratioToDecimal, roundDiv, type Currency, type Decimal } from '@core/money';
import { STORED_RATE_DECIMALS } from '@core/rates';

// Rates written the way people read them (docs/rules/fees-and-rates.md#rates-on-screen): the strong
// currency first ("1 EUR = 655.96 XAF", never "1 XAF = 0.001527 EUR"), no rate at all between a
// currency and itself, the reference rate beside ours and the margin between them.

/** How strong a currency reads: one of the stronger is written first. */
const STRENGTH: Record<Currency, number> = { EUR: 4, USD: 3, RWF: 1, XAF: 1 };

/** A rate of one unit of `base` in `counter`, exactly. */
export interface ReadableRate {
  base: Currency;
  counter: Currency;
  /** Our rate: units of `counter` per 1 `base`. */
  ours: Decimal;
  /** The reference rate, units of `counter` per 1 `base`. */
  reference: Decimal;
  /** The quote's margin, a signed fraction ("0.001459" is 0.1459 %), as the quote states it. */
  margin: Decimal;
}

/** What a quote (or a created transfer) says of its rate. */
export interface QuotedRate { currency: Currency; payout_currency: Currency; rate: Decimal; reference_rate: Decimal; margin: Decimal }

/** The stored forward rates, as GET /api/rates serves them (units of the second per one of the first). */
export type RateTable = Partial<Record<string, string>>;

const ratio = (value: Decimal) => {
  const parsed = parseDecimal(value.replace(/^-/, ''));
  return parsed && parsed.units > 0n ? parsed : null;
};

/** 1 ÷ value, `digits` decimals. */
function inverse(value: Decimal, digits: number): Decimal | null {
  const r = ratio(value);
  return r ? ratioToDecimal(pow10(r.scale), r.units, digits) : null;
}

/** value × (1 − margin), exactly, `digits` decimals: the reference behind our rate and its margin. */
function timesOneMinus(value: Decimal, margin: Decimal, digits: number): Decimal | null {
  const v = ratio(value);
  const m = parseDecimal(margin.replace(/^-/, ''));
  if (!v || !m) return null;
  const signed = margin.startsWith('-') ? -m.units : m.units;
  const factor = pow10(m.scale) - signed;
  return formatDecimal({ units: roundDiv(v.units * factor * pow10(digits), pow10(v.scale + m.scale)), scale: digits });
}

/**
 * A rate turned round (1 ÷ value), as exact as the rate given allows. A quote's or transfer's rate
 * has RATE_DECIMALS: turned round to STORED_RATE_DECIMALS it is exactly the stored rate the price
 * converted with (core/rates.ts). A rate written with 6 decimals or fewer (a transfer made before
 * rates kept 20) is the stored forward rate whose 6-decimal reciprocal it is, when one is given,
 * else the reciprocal of those 6 decimals.
 */
function turnedRound(value: Decimal, stored?: Decimal): Decimal | null {
  const r = ratio(value);
  if (!r) return null;
  if (r.scale <= 6 && stored && inverse(stored, 6) === formatDecimal(r)) return stored;
  return inverse(value, STORED_RATE_DECIMALS);
}

/**
 * A quote's rate, reference and margin with the stronger currency first; null between a currency
 * and itself. A rate the quote gives weak→strong (XAF → EUR, the 20 decimals of 1 ÷ 655.957) is
 * turned round to the stored rate it is the reciprocal of: "1 EUR = 655.96 XAF", as charged.
 */
export function readableRate(
  q: QuotedRate,
  stored?: RateTable,
): ReadableRate | null {
  const [from, to] = [q.currency, q.payout_currency];
  if (from === to) return null;
  if (STRENGTH[from] >= STRENGTH[to]) {
    return { base: from, counter: to, ours: q.rate, reference: q.reference_rate, margin: q.margin };
  }
  const ours = turnedRound(q.rate, stored?.[`${to}_${from}`]);
  if (!ours) return null;
  // A reference with 20 decimals turns round exactly; one with 6 (an older quote) is worked out
  // from ours and the margin: the margin of from→to is 1 − ours(from→to) ÷ ref(from→to)
  // = 1 − ref(to→from) ÷ ours(to→from), so the reference, base first, is ours × (1 − margin).
  const reference = (ratio(q.reference_rate)?.scale ?? 0) > 6 ? inverse(q.reference_rate, STORED_RATE_DECIMALS)
    : timesOneMinus(ours, q.margin, 6);
  return { base: to, counter: from, ours, reference: reference ?? ours, margin: q.margin };
}

/** A rate as people read it: 2 decimals from 10 up ("655.96"), else 4 ("1.08", "0.9259"). */
export function rateFigure(value: Decimal, lng: string): string {
  const r = ratio(value);
  if (!r) return localizeDecimal(value, lng);
  const digits = r.units >= 10n * pow10(r.scale) ? 2 : 4;
  return localizeDecimal(ratioToDecimal(r.units, pow10(r.scale), digits), lng);
}
