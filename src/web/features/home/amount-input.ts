import { MINOR_UNITS, parseAmount, type Currency, type Minor } from '@core/money';

/**
 * A non-numeric amount is reset to 0 (docs/rules/fees-and-rates.md#quote). Digits with one '.' or
 * ',' are kept while typing; decimals beyond the currency's (any for XAF and RWF) are cut.
 */
export function sanitizeAmountInput(raw: string, currency: Currency): string {
  const value = raw.trim();
  if (value === '') return '';
  if (!/^\d*[.,]?\d*$/.test(value)) return '0';
  const sep = value.search(/[.,]/);
  if (sep === -1) return value;
  const digits = MINOR_UNITS[currency];
  if (digits === 0) return value.slice(0, sep) || '0';
  return value.slice(0, sep + 1 + digits);
}

/** The amount typed, in minor units (0 when empty or unparsable). */
export function amountToMinor(value: string, currency: Currency): Minor {
  if (value === '' || value === '.' || value === ',') return 0;
  return parseAmount(value, currency) ?? 0;
}
