import { describe, expect, it } from 'vitest';
import {
  CURRENCIES, MINOR_UNITS, compareDecimal, localizeDecimal, decimalToMinor, formatDecimal, formatMoney, normalizeDecimal, parseAmount,
  parseDecimal, ratioToDecimal, roundDiv, toDecimal,
} from './money.js';

describe('MINOR_UNITS', () => {
  it('has 2 decimals for USD/EUR and none for XAF/RWF', () => {
    expect(MINOR_UNITS).toEqual({ USD: 2, EUR: 2, XAF: 0, RWF: 0 });
  });
});

describe('roundDiv', () => {
  it('rounds half up, away from zero', () => {
    expect(roundDiv(5n, 2n)).toBe(3n);
    expect(roundDiv(7n, 2n)).toBe(4n);
    expect(roundDiv(4n, 3n)).toBe(1n);
    expect(roundDiv(5n, 3n)).toBe(2n);
    expect(roundDiv(-5n, 2n)).toBe(-3n);
    expect(roundDiv(5n, -2n)).toBe(-3n);
    expect(roundDiv(0n, 7n)).toBe(0n);
  });
  it('refuses a zero denominator', () => {
    expect(() => roundDiv(1n, 0n)).toThrow(RangeError);
  });
});

describe('parseAmount', () => {
  it.each([
    ['100', 'USD', 10000],
    ['100.5', 'USD', 10050],
    ['100.50', 'USD', 10050],
    ['100,50', 'EUR', 10050],
    [' 42 ', 'USD', 4200],
    ['0', 'USD', 0],
    ['.5', 'USD', 50],
    ['007', 'USD', 700],
    ['61000', 'XAF', 61000],
    ['61000.00', 'XAF', 61000],
    ['100.500', 'USD', 10050],
    ['1000000000000', 'USD', 100000000000000],
  ] as const)('%s %s → %d', (input, currency, expected) => {
    expect(parseAmount(input, currency)).toBe(expected);
  });

  it.each([
    ['10.5', 'XAF'],
    ['10,5', 'RWF'],
    ['1.005', 'USD'],
    ['-5', 'USD'],
    ['+5', 'USD'],
    ['', 'USD'],
    ['   ', 'USD'],
    ['abc', 'USD'],
    ['NaN', 'USD'],
    ['Infinity', 'USD'],
    ['1e3', 'USD'],
    ['1E3', 'USD'],
    ['1,000.25', 'USD'],
    ['1 000', 'USD'],
    ['1.000,25', 'EUR'],
    ['100.', 'USD'],
    ['.', 'USD'],
    ['0x10', 'USD'],
    ['1000000000000.01', 'USD'],
    ['1000000000001', 'XAF'],
  ] as const)('refuses %j in %s', (input, currency) => {
    expect(parseAmount(input, currency)).toBeNull();
  });

  it('accepts safe numbers whose String() form is a valid amount', () => {
    expect(parseAmount(100, 'USD')).toBe(10000);
    expect(parseAmount(100.5, 'USD')).toBe(10050);
    expect(parseAmount(0.1, 'USD')).toBe(10);
    expect(parseAmount(61000, 'XAF')).toBe(61000);
    expect(parseAmount(-0, 'USD')).toBe(0);
  });

  it('refuses unsafe, negative, non-finite or exponent-form numbers', () => {
    expect(parseAmount(-1, 'USD')).toBeNull();
    expect(parseAmount(Number.NaN, 'USD')).toBeNull();
    expect(parseAmount(Number.POSITIVE_INFINITY, 'USD')).toBeNull();
    expect(parseAmount(1e21, 'USD')).toBeNull();
    expect(parseAmount(1e-7, 'USD')).toBeNull();
    expect(parseAmount(10.5, 'XAF')).toBeNull();
    expect(parseAmount(0.001, 'USD')).toBeNull();
    expect(parseAmount(2 ** 60, 'XAF')).toBeNull();
  });

  it('refuses values that are neither strings nor numbers', () => {
    expect(parseAmount(null as unknown as string, 'USD')).toBeNull();
    expect(parseAmount({} as unknown as string, 'USD')).toBeNull();
  });
});

describe('toDecimal', () => {
  it('writes the currency decimals', () => {
    expect(toDecimal(10450, 'USD')).toBe('104.50');
    expect(toDecimal(61000, 'XAF')).toBe('61000');
    expect(toDecimal(0, 'USD')).toBe('0.00');
    expect(toDecimal(5, 'EUR')).toBe('0.05');
    expect(toDecimal(-450, 'USD')).toBe('-4.50');
    expect(toDecimal(100000000000000, 'USD')).toBe('1000000000000.00');
  });
  it('refuses non-integers', () => {
    expect(() => toDecimal(1.5, 'USD')).toThrow(RangeError);
  });
  it('round-trips with parseAmount', () => {
    for (const minor of [0, 1, 99, 100, 10450, 123456789]) {
      expect(parseAmount(toDecimal(minor, 'USD'), 'USD')).toBe(minor);
      expect(parseAmount(toDecimal(minor, 'XAF'), 'XAF')).toBe(minor);
    }
  });
});

describe('formatMoney', () => {
  it('formats in English', () => {
    expect(formatMoney(10450, 'USD')).toBe('$104.50');
    expect(formatMoney(300, 'EUR', 'en')).toBe('€3.00');
    expect(formatMoney(61000, 'XAF', 'en')).toMatch(/61,000/);
    expect(formatMoney(61000, 'XAF', 'en')).not.toMatch(/\./);
  });
  it('formats in French with a decimal comma', () => {
    expect(formatMoney(10450, 'EUR', 'fr')).toMatch(/^104,50\s€$/u);
    expect(formatMoney(130000, 'RWF', 'fr')).toMatch(/^130\s000\s/u);
  });
  it('formats the largest safe amount digit for digit', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD')).toBe('$90,071,992,547,409.91');
  });
  it('formats negative amounts', () => {
    expect(formatMoney(-450, 'USD')).toBe('-$4.50');
    expect(formatMoney(-123456, 'EUR', 'fr-FR')).toBe('-1\u202f234,56\u00a0€');
  });
  it('writes what Intl writes for every currency in both languages', () => {
    const amounts = [0, 1, 9, 10, 99, 100, 999, 1000, 12345, 100000, 1234567, 98765432, -5, -100000, Number.MAX_SAFE_INTEGER];
    for (const locale of ['en', 'en-US', 'fr', 'fr-FR']) {
      for (const currency of CURRENCIES) {
        const digits = MINOR_UNITS[currency];
        const intl = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
        for (const minor of amounts) expect(formatMoney(minor, currency, locale)).toBe(intl.format(toDecimal(minor, currency) as `${number}`));
      }
    }
  });
});

describe('localizeDecimal', () => {
  it('groups thousands and writes the decimal mark of the language, keeping every digit', () => {
    expect(localizeDecimal('1234567.000123')).toBe('1,234,567.000123');
    expect(localizeDecimal('610', 'fr-FR')).toBe('610');
    expect(localizeDecimal('0.001639', 'fr')).toBe('0,001639');
    expect(localizeDecimal('-98765.4', 'fr')).toBe('-98\u202f765,4');
    expect(localizeDecimal('1000')).toBe('1,000');
  });
});

describe('decimals', () => {
  it('parses and normalizes exactly', () => {
    expect(parseDecimal('0.045')).toEqual({ units: 45n, scale: 3 });
    expect(parseDecimal('610')).toEqual({ units: 610n, scale: 0 });
    expect(parseDecimal('-1')).toBeNull();
    expect(normalizeDecimal('4.50')).toBe('4.5');
    expect(normalizeDecimal('0.000')).toBe('0');
    expect(normalizeDecimal('0010.0100')).toBe('10.01');
    // A stored rate: trailing zeros go, a whole number keeps its own.
    expect(normalizeDecimal('1300.0000000000')).toBe('1300');
    expect(normalizeDecimal('1300')).toBe('1300');
    expect(normalizeDecimal('0.0016390000')).toBe('0.001639');
    expect(normalizeDecimal(1.08)).toBe('1.08');
    expect(formatDecimal({ units: 5n, scale: 4 })).toBe('0.0005');
  });
  it('refuses text longer than 40 characters before parsing it (docs/rules/corridors.md)', () => {
    const longest = `1.${'0'.repeat(40 - 2)}`;
    expect(parseAmount(longest, 'USD')).toBe(100);
    expect(parseAmount(`${longest}0`, 'USD')).toBeNull();
    expect(parseDecimal(` ${'0'.repeat(40)}`)).toBeNull();
    // The shape that froze the server for 23 s: a long tail of zeros is refused at once.
    expect(parseAmount(`1.${'0'.repeat(200_000)}`, 'USD')).toBeNull();
  });
  it('compares across scales', () => {
    const a = parseDecimal('100')!;
    const b = parseDecimal('100.00')!;
    const c = parseDecimal('100.01')!;
    expect(compareDecimal(a, b)).toBe(0);
    expect(compareDecimal(a, c)).toBe(-1);
    expect(compareDecimal(c, a)).toBe(1);
  });
  it('writes ratios with limited decimals', () => {
    expect(ratioToDecimal(1n, 610n, 6)).toBe('0.001639');
    expect(ratioToDecimal(2n, 3n, 2)).toBe('0.67');
    expect(ratioToDecimal(610n, 1n, 6)).toBe('610');
  });
  it('converts database decimals to minor units', () => {
    expect(decimalToMinor('2.50', 'EUR')).toBe(250);
    expect(decimalToMinor('61000.00', 'XAF')).toBe(61000);
    expect(decimalToMinor('0.5', 'XAF')).toBe(1);
    expect(decimalToMinor('x', 'USD')).toBeNull();
  });
});
