import type { TFunction } from 'i18next';
import { localizeDecimal, parseDecimal, pow10, ratioToDecimal, type Decimal } from '@core/money';
import { rateFigure, readableRate, type QuotedRate, type RateTable } from './rate-text';

// A transfer's rate written out for the money screens (the form, the review, payment, receipts,
// the back office): the whole line and the margin. The home page's calculator draws its own line
// from ./rate-text, so these stay out of the code it loads (docs/decisions/005-web-shell-budget.md).

/** A margin as a percent with 2 decimals, unsigned ("0.15"); whether ours gives more is `marginGivesMore`. */
export function marginPercent(margin: Decimal, lng: string): string {
  const m = parseDecimal(margin.replace(/^-/, ''));
  if (!m) return localizeDecimal('0', lng);
  return localizeDecimal(ratioToDecimal(m.units * 100n, pow10(m.scale), 2), lng);
}

/** Whether our rate gives the sender more than the reference (a negative margin). */
export const marginGivesMore = (margin: Decimal) => /^-/.test(margin) && !/^-0*\.?0*$/.test(margin);

/** Whether the margin is nothing at all (a rate that is its own reference). */
export const marginIsZero = (margin: Decimal) => /^-?0*\.?0*$/.test(margin);

/** The rate as people read it ("1 EUR = 655 XAF"), or that there is no exchange; null before the price is known. */
export function rateText(
  t: TFunction, quote: QuotedRate | null, lng: string, rates?: RateTable,
): string | null {
  if (!quote) return null;
  const readable = readableRate(quote, rates);
  if (!readable) return t('common:rates.sameCurrency', { currency: quote.currency });
  return t('common:rates.line', { base: readable.base, counter: readable.counter, rate: rateFigure(readable.ours, lng) });
}
