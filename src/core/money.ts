// Exact money (docs/rules/fees-and-rates.md#exact-money): amounts are integers of the currency's
// minor unit and every multiplication or division goes through BigInt. No binary floating point
// touches an amount.

export const CURRENCIES = ['USD', 'EUR', 'XAF', 'RWF'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** ISO 4217 minor units: XAF and RWF have none, so they are paid out in whole units. */
export const MINOR_UNITS: Record<Currency, number> = { USD: 2, EUR: 2, XAF: 0, RWF: 0 };

/** An amount in integer minor units (cents for USD/EUR, whole francs for XAF/RWF). Always a safe integer. */
export type Minor = number;

/** An exact decimal written as a string, e.g. a rate "1.08" or a fee fraction "0.045". */
export type Decimal = string;

/** Largest amount accepted from a user, in major units: far above any corridor, far below 2^53 minor units. */
export const MAX_MAJOR_AMOUNT = 1_000_000_000_000n;

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/** The powers of ten amounts and rates use, made once: every conversion asks for them. */
const POWERS_OF_TEN = Array.from({ length: 41 }, (_, i) => 10n ** BigInt(i));

export function pow10(exponent: number): bigint {
  return POWERS_OF_TEN[exponent] ?? 10n ** BigInt(exponent);
}

/**
 * numerator / denominator rounded half away from zero (so 2.5 → 3 and -2.5 → -3).
 * Fees, conversions and display rates all round through here.
 */
export function roundDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('roundDiv: division by zero');
  if (denominator < 0n) return roundDiv(-numerator, -denominator);
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const q = (2n * n + denominator) / (2n * denominator);
  return negative ? -q : q;
}

// Digits, optionally one '.' or ',' and more digits. No sign, exponent, grouping or spaces inside.
const DECIMAL_PATTERN = /^(\d*)(?:[.,](\d+))?$/;

/**
 * Longest decimal text read at all, surrounding spaces included. The largest value anything takes
 * (1e12 major units, a rate's 10 decimals, a numeric column's trailing zeros) fits in well under
 * 40 characters; longer input is refused before any parsing, since BigInt work on a long digit
 * string is superlinear and one request could hold the event loop for minutes.
 */
export const MAX_DECIMAL_TEXT = 40;

export interface ParsedDecimal {
  /** The value times 10^scale. */
  units: bigint;
  scale: number;
}

/**
 * Parses a non-negative decimal ("610", "0.045", "100,50") exactly. Numbers are accepted when
 * finite and their String() form parses by the same rules (so 1e21 or 1e-7 are refused).
 */
export function parseDecimal(input: string | number): ParsedDecimal | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || Math.abs(input) > Number.MAX_SAFE_INTEGER) return null;
    text = String(input);
  } else if (typeof input === 'string') {
    if (input.length > MAX_DECIMAL_TEXT) return null;
    text = input.trim();
  } else {
    return null;
  }
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (whole === '' && fraction === '') return null;
  return { units: BigInt((whole || '0') + fraction), scale: fraction.length };
}

/** Canonical text of a parsed decimal: no trailing fractional zeros, no leading zeros ("4.50" → "4.5"). */
export function formatDecimal({ units, scale }: ParsedDecimal): Decimal {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  let s = scale;
  while (s > 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    s -= 1;
  }
  const text = s === 0 ? digits : `${digits.slice(0, -s)}.${digits.slice(-s)}`;
  return negative ? `-${text}` : text;
}

/** Normalizes a decimal input to its canonical string, or null when it is not a valid decimal. */
export function normalizeDecimal(input: string | number): Decimal | null {
  const parsed = parseDecimal(input);
  return parsed ? formatDecimal(parsed) : null;
}

/** Exact comparison of two parsed decimals: negative, zero or positive like a sort comparator. */
export function compareDecimal(a: ParsedDecimal, b: ParsedDecimal): number {
  const scale = Math.max(a.scale, b.scale);
  const left = a.units * pow10(scale - a.scale);
  const right = b.units * pow10(scale - b.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The rational numerator / denominator written with `digits` decimals at most, rounded half up. */
export function ratioToDecimal(numerator: bigint, denominator: bigint, digits: number): Decimal {
  return formatDecimal({ units: roundDiv(numerator * pow10(digits), denominator), scale: digits });
}

/**
 * A major-unit decimal (as stored in the database, e.g. "2.50" or "61000.00") in minor units,
 * rounded half up when it has more decimals than the currency. Null when not a valid decimal
 * or beyond a safe integer.
 */
export function decimalToMinor(input: string | number, currency: Currency): Minor | null {
  const parsed = parseDecimal(input);
  if (!parsed) return null;
  const minor = roundDiv(parsed.units * pow10(MINOR_UNITS[currency]), pow10(parsed.scale));
  return bigintToMinor(minor);
}

/**
 * A BigInt result as a Minor, or null when it would not be a safe integer. The one place an exact
 * integer becomes a JS number: within the safe range the conversion is lossless.
 */
export function bigintToMinor(value: bigint): Minor | null {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(value);
}

export function isMinor(value: unknown): value is Minor {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/**
 * A user-entered amount in minor units, or null. Accepts "100", "100.5", "100.50", "100,50"
 * (French decimal comma) and safe numbers. Refuses signs, exponents, grouping separators, empty
 * input, more than 1e12 major units, and decimals the currency does not have (XAF "10.5").
 * Trailing zeros beyond the currency's decimals are harmless and accepted ("61000.00" XAF), since
 * that is how the database's numeric columns come back.
 */
export function parseAmount(input: string | number, currency: Currency): Minor | null {
  const parsed = parseDecimal(input);
  if (!parsed) return null;
  const minorUnits = MINOR_UNITS[currency];
  let { units, scale } = parsed;
  while (scale > minorUnits && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  if (scale > minorUnits) return null;
  const minor = units * pow10(minorUnits - scale);
  if (minor > MAX_MAJOR_AMOUNT * pow10(minorUnits)) return null;
  return bigintToMinor(minor);
}

/** Minor units as a plain decimal string with the currency's decimals: "104.50", "61000", "0.00". */
export function toDecimal(minor: Minor, currency: Currency): Decimal {
  if (!isMinor(minor)) throw new RangeError(`toDecimal: not a safe integer amount: ${String(minor)}`);
  const minorUnits = MINOR_UNITS[currency];
  const negative = minor < 0;
  const digits = BigInt(negative ? -minor : minor).toString().padStart(minorUnits + 1, '0');
  const text = minorUnits === 0 ? digits : `${digits.slice(0, -minorUnits)}.${digits.slice(-minorUnits)}`;
  return negative ? `-${text}` : text;
}

/**
 * How English and French write numbers and money: CLDR's patterns, as Intl writes them for en and fr.
 * Written out rather than asked of Intl so that the server (e-mails, receipts) and every browser
 * print the same text whatever their ICU data, and because a page's first Intl formatter costs
 * 20-50 ms of main thread (measured on the home page; docs/decisions/005-web-shell-budget.md).
 */
const NUMBER_STYLES = {
  en: { group: ',', decimal: '.', money: { USD: '$#', EUR: '€#', XAF: 'FCFA\u00a0#', RWF: 'RWF\u00a0#' } },
  fr: { group: '\u202f', decimal: ',', money: { USD: '#\u00a0$US', EUR: '#\u00a0€', XAF: '#\u00a0FCFA', RWF: '#\u00a0RWF' } },
} as const satisfies Record<string, { group: string; decimal: string; money: Record<Currency, string> }>;

function numberStyle(locale: string) {
  return locale.toLowerCase().startsWith('fr') ? NUMBER_STYLES.fr : NUMBER_STYLES.en;
}

/** An exact decimal string ("-1234567.5") as the language writes it: "-1,234,567.5" (en), "-1 234 567,5" (fr). */
export function localizeDecimal(value: Decimal, locale = 'en'): string {
  const { group, decimal } = numberStyle(locale);
  const negative = value.startsWith('-');
  const [whole = '0', fraction] = (negative ? value.slice(1) : value).split('.');
  const grouped = (whole || '0').replace(/\B(?=(\d{3})+$)/g, group);
  return `${negative ? '-' : ''}${grouped}${fraction ? `${decimal}${fraction}` : ''}`;
}

/** Localized money text, e.g. "$104.50" (en) or "104,50 $US" (fr). The exact decimal string is written, never a float. */
export function formatMoney(minor: Minor, currency: Currency, locale = 'en'): string {
  const text = localizeDecimal(toDecimal(Math.abs(minor), currency), locale);
  return `${minor < 0 ? '-' : ''}${numberStyle(locale).money[currency].replace('#', text)}`;
}
