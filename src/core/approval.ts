import { type Currency, type Decimal, compareDecimal, parseDecimal } from './money.js';

// Four-eyes (D12): from a threshold per source currency, completing a transfer needs a second
// staff member's approval. The admin edits the thresholds; these are the defaults.

export const DEFAULT_APPROVAL_THRESHOLDS: Record<Currency, Decimal> = {
  USD: '1000', EUR: '1000', XAF: '600000', RWF: '1300000',
};

/** True when an amount is at or above its currency's threshold (an unknown threshold counts as the default). */
export function needsApproval(amount: Decimal, currency: Currency, thresholds: Partial<Record<Currency, Decimal>>): boolean {
  const a = parseDecimal(amount);
  const t = parseDecimal(thresholds[currency] ?? DEFAULT_APPROVAL_THRESHOLDS[currency]);
  return a !== null && t !== null && compareDecimal(a, t) >= 0;
}
