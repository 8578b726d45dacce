// The one reader of amounts people type or paste (docs/rules/amounts.md): every amount field of the
// web app reads through here, so the same text is the same amount everywhere. It reads what it can
// read without guessing and otherwise says why not; it never turns a text it cannot read into 0.
import { localizeDecimal, MAX_MAJOR_AMOUNT, MINOR_UNITS, pow10, type Currency, type Minor } from './money.js';

/** Why a text is not an amount; each has a message `common:amount.<error>`. */
export type AmountError = 'empty' | 'unreadable' | 'otherCurrency' | 'noDecimals' | 'tooManyDecimals' | 'tooLarge';

export type AmountReading = { minor: Minor; error?: undefined } | { minor?: undefined; error: AmountError };

/** Codes and symbols written around an amount, and their currency (docs/rules/amounts.md#currency-marks). */
const MARKS: Record<string, Currency> = {
  $: 'USD', usd: 'USD', us$: 'USD', $us: 'USD', '€': 'EUR', eur: 'EUR',
  fcfa: 'XAF', xaf: 'XAF', cfa: 'XAF', rwf: 'RWF', frw: 'RWF', rf: 'RWF',
};

/** Longer texts are refused before any work (nothing real is longer). */
const MAX_TEXT = 64;

/**
 * Reads a typed or pasted amount of `currency` written in the language `locale` ("en", "fr"…),
 * e.g. "1,234.56", "1 234,56", "1.234,56", "250 €", "USD 250", in exact minor units.
 */
export function readAmount(text: string, currency: Currency, locale: string): AmountReading {
  const trimmed = text.trim();
  if (!trimmed) return { error: 'empty' };
  // Marks before and after the figures; the figures are digits, separators and spaces.
  const parts = trimmed.length <= MAX_TEXT ? /^([^\d.,]*)([\d.,\s]*?)([^\d.,]*)$/.exec(trimmed) : null;
  if (!parts) return { error: 'unreadable' };
  for (const mark of [parts[1]!, parts[3]!]) {
    const m = mark.trim().toLowerCase();
    const owner = Object.hasOwn(MARKS, m) ? MARKS[m] : undefined;
    if (m && owner !== currency) return { error: owner ? 'otherCurrency' : 'unreadable' };
  }
  const figures = parts[2]!.replace(/\s/g, ' ');
  const decimals = MINOR_UNITS[currency];
  const sign = decimalSign(figures, decimals > 0 ? (locale.startsWith('fr') ? ',' : '.') : '');
  const [whole = '', fraction = ''] = sign ? figures.split(sign) : [figures];
  // The whole part: plain digits, or groups of three after the first, all with one separator.
  if (!/^(\d*|\d{1,3}([ .,])\d{3}(\2\d{3})*)$/.test(whole) || !/^\d*$/.test(fraction) || !(whole + fraction)) {
    return { error: 'unreadable' };
  }
  const kept = fraction.replace(/0+$/, '');
  if (kept.length > decimals) return { error: decimals ? 'tooManyDecimals' : 'noDecimals' };
  const minor = BigInt(whole.replace(/\D/g, '') || '0') * pow10(decimals) + BigInt(kept.padEnd(decimals, '0') || '0');
  if (minor > MAX_MAJOR_AMOUNT * pow10(decimals)) return { error: 'tooLarge' };
  return { minor: Number(minor) };
}

/**
 * Which of '.' and ',' is the decimal sign in `figures`, or '' when none is
 * (docs/rules/amounts.md#separators). `local` is the language's decimal sign, '' for a
 * currency without decimals.
 */
function decimalSign(figures: string, local: string): string {
  // The last one written ("1,234.56", "1.234,56"), if written once: "1,234,567" has none.
  const sign = /[.,](?=[^.,]*$)/.exec(figures)?.[0] ?? '';
  const once = figures.indexOf(sign) === figures.lastIndexOf(sign);
  // The only one, between a first group (1-3 digits, no leading 0) and three digits, groups
  // thousands unless it is the language's decimal sign.
  return !once || (sign !== local && /^[1-9]\d{0,2}[.,]\d{3}$/.test(figures)) ? '' : sign;
}

/** An amount written as the language writes it, for messages: "1,250.50" (en), "61 000" (fr XAF). */
export function amountExample(currency: Currency, locale: string): string {
  return localizeDecimal(MINOR_UNITS[currency] ? '1250.50' : '61000', locale);
}
