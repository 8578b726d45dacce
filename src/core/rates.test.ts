import { describe, expect, it } from 'vitest';
import { SEED_RATES, convert, displayRate, expandRateSet, rateBetween } from './rates.js';

describe('SEED_RATES', () => {
  it('holds the five forward rates', () => {
    expect(SEED_RATES).toMatchObject({ USD_XAF: '610', USD_RWF: '1300', EUR_XAF: '655', EUR_RWF: '1400', EUR_USD: '1.08' });
    expect(Number.isNaN(Date.parse(SEED_RATES.updatedAt))).toBe(false);
  });
});

describe('rateBetween', () => {
  it('returns forward rates, exact reciprocals and 1 for the same currency', () => {
    expect(rateBetween('USD', 'XAF', SEED_RATES)).toEqual({ numerator: 610n, denominator: 1n });
    expect(rateBetween('XAF', 'USD', SEED_RATES)).toEqual({ numerator: 1n, denominator: 610n });
    expect(rateBetween('EUR', 'USD', SEED_RATES)).toEqual({ numerator: 108n, denominator: 100n });
    expect(rateBetween('USD', 'EUR', SEED_RATES)).toEqual({ numerator: 100n, denominator: 108n });
    expect(rateBetween('EUR', 'EUR', SEED_RATES)).toEqual({ numerator: 1n, denominator: 1n });
  });
  it('is null for missing, zero, invalid or unknown rates', () => {
    expect(rateBetween('USD', 'XAF', {})).toBeNull();
    expect(rateBetween('USD', 'XAF', { ...SEED_RATES, USD_XAF: '0' })).toBeNull();
    expect(rateBetween('XAF', 'USD', { ...SEED_RATES, USD_XAF: 'abc' })).toBeNull();
    expect(rateBetween('XAF', 'RWF', SEED_RATES)).toBeNull();
  });
});

describe('convert', () => {
  it('converts 100 USD to 61,000 XAF', () => {
    expect(convert(10000, 'USD', 'XAF', SEED_RATES)).toBe(61000);
  });
  it('rounds to whole XAF/RWF, half up', () => {
    expect(convert(1, 'USD', 'XAF', SEED_RATES)).toBe(6); // 6.1
    expect(convert(50, 'EUR', 'RWF', { ...SEED_RATES, EUR_RWF: '1401' })).toBe(701); // 700.5
    expect(convert(1050, 'EUR', 'XAF', SEED_RATES)).toBe(6878); // 10.50 × 655 = 6877.5
  });
  it('uses exact reciprocals for inverse directions', () => {
    expect(convert(61000, 'XAF', 'USD', SEED_RATES)).toBe(10000);
    expect(convert(1000, 'XAF', 'USD', SEED_RATES)).toBe(164); // 1.6393… USD
    expect(convert(100000, 'RWF', 'EUR', SEED_RATES)).toBe(7143); // 71.428… EUR
    expect(convert(10800, 'EUR', 'USD', SEED_RATES)).toBe(11664);
    expect(convert(10800, 'USD', 'EUR', SEED_RATES)).toBe(10000);
    expect(convert(12345, 'EUR', 'EUR', SEED_RATES)).toBe(12345);
  });
  it('returns 0 when the rate is missing or the amount is not a safe integer', () => {
    expect(convert(10000, 'USD', 'XAF', {})).toBe(0);
    expect(convert(10000, 'USD', 'XAF', { ...SEED_RATES, USD_XAF: '0' })).toBe(0);
    expect(convert(Number.NaN, 'USD', 'XAF', SEED_RATES)).toBe(0);
    expect(convert(1.5, 'USD', 'XAF', SEED_RATES)).toBe(0);
  });
});

describe('displayRate', () => {
  it('writes at most 6 decimals by default', () => {
    expect(displayRate('USD', 'XAF', SEED_RATES)).toBe('610');
    expect(displayRate('XAF', 'USD', SEED_RATES)).toBe('0.001639');
    expect(displayRate('USD', 'EUR', SEED_RATES)).toBe('0.925926');
    expect(displayRate('EUR', 'EUR', SEED_RATES)).toBe('1');
    expect(displayRate('XAF', 'USD', SEED_RATES, 10)).toBe('0.0016393443');
    expect(displayRate('USD', 'XAF', {})).toBe('0');
  });
});

describe('expandRateSet', () => {
  it('adds the inverses, USD_EUR and keeps updatedAt', () => {
    expect(expandRateSet(SEED_RATES)).toEqual({
      USD_XAF: '610', USD_RWF: '1300', EUR_XAF: '655', EUR_RWF: '1400',
      XAF_USD: '0.0016393443', RWF_USD: '0.0007692308', XAF_EUR: '0.0015267176', RWF_EUR: '0.0007142857',
      EUR_USD: '1.08', USD_EUR: '0.9259259259',
      updatedAt: SEED_RATES.updatedAt,
    });
  });
});
