import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountExample, readAmount } from './amount-input.js';
import { CURRENCIES, formatMoney, localizeDecimal, MAX_MAJOR_AMOUNT, MINOR_UNITS, toDecimal, type Currency } from './money.js';

const read = (text: string, currency: Currency, locale: string) => readAmount(text, currency, locale);
const LOCALES = ['en', 'fr'] as const;

describe('reading a typed amount (docs/rules/amounts.md)', () => {
  it('reads an amount however a French or English writer groups its thousands', () => {
    expect(read('1.234,56', 'EUR', 'fr')).toEqual({ minor: 123456 });
    expect(read('1 234,56', 'EUR', 'fr')).toEqual({ minor: 123456 });
    expect(read('1\u202f234,56', 'EUR', 'fr')).toEqual({ minor: 123456 });
    expect(read('1\u00a0234,56', 'EUR', 'fr')).toEqual({ minor: 123456 });
    expect(read('1234,56', 'EUR', 'fr')).toEqual({ minor: 123456 });
    expect(read('250 €', 'EUR', 'fr')).toEqual({ minor: 25000 });
    expect(read('€250', 'EUR', 'en')).toEqual({ minor: 25000 });
    expect(read('USD 250', 'USD', 'en')).toEqual({ minor: 25000 });
    expect(read('100.01', 'XAF', 'en')).toEqual({ error: 'noDecimals' });
    expect(read('100,01', 'XAF', 'fr')).toEqual({ error: 'noDecimals' });
  });

  it('reads the language\'s own way and the unambiguous others', () => {
    expect(read('1,234.56', 'USD', 'en')).toEqual({ minor: 123456 });
    expect(read('1.234,56', 'USD', 'en')).toEqual({ minor: 123456 });
    expect(read('1,234.56', 'EUR', 'fr')).toEqual({ minor: 123456 });
    expect(read('1,234,567', 'USD', 'en')).toEqual({ minor: 123456700 });
    expect(read('1.234.567', 'EUR', 'fr')).toEqual({ minor: 123456700 });
    expect(read('0,5', 'EUR', 'en')).toEqual({ minor: 50 });
    expect(read('.5', 'USD', 'en')).toEqual({ minor: 50 });
    expect(read('150.00', 'USD', 'fr')).toEqual({ minor: 15000 });
    expect(read('100.', 'USD', 'en')).toEqual({ minor: 10000 });
    expect(read('0', 'USD', 'en')).toEqual({ minor: 0 });
  });

  it('reads one separator before three digits as thousands unless it is the language\'s decimal sign', () => {
    expect(read('1,234', 'USD', 'en')).toEqual({ minor: 123400 });
    expect(read('1.234', 'EUR', 'fr')).toEqual({ minor: 123400 });
    expect(read('1.234', 'USD', 'en')).toEqual({ error: 'tooManyDecimals' });
    expect(read('1,234', 'EUR', 'fr')).toEqual({ error: 'tooManyDecimals' });
    expect(read('1,500', 'EUR', 'fr')).toEqual({ minor: 150 });
  });

  it('reads any separator before three digits as thousands in a currency without decimals', () => {
    expect(read('1.000', 'XAF', 'fr')).toEqual({ minor: 1000 });
    expect(read('1,000', 'XAF', 'fr')).toEqual({ minor: 1000 });
    expect(read('1.000', 'RWF', 'en')).toEqual({ minor: 1000 });
    expect(read('65 000 FCFA', 'XAF', 'fr')).toEqual({ minor: 65000 });
    expect(read('FCFA 65,000', 'XAF', 'en')).toEqual({ minor: 65000 });
    expect(read('61000.00', 'XAF', 'en')).toEqual({ minor: 61000 });
    expect(read('5000,5', 'RWF', 'fr')).toEqual({ error: 'noDecimals' });
  });

  it('refuses what it cannot read, saying why', () => {
    for (const text of ['abc', '-5', '1e5', '12 34', '1.2.3', '1,2,3.4,5', '1 234.567,89', '1 234 ,5', '€', '+1', '1/2', '5 $ 5']) {
      expect(read(text, 'EUR', 'fr'), text).toEqual({ error: 'unreadable' });
    }
    expect(read('   ', 'USD', 'en')).toEqual({ error: 'empty' });
    expect(read('250 €', 'USD', 'en')).toEqual({ error: 'otherCurrency' });
    expect(read('USD 250', 'XAF', 'fr')).toEqual({ error: 'otherCurrency' });
    expect(read('10.555', 'USD', 'en')).toEqual({ error: 'tooManyDecimals' });
    expect(read('1'.repeat(14), 'USD', 'en')).toEqual({ error: 'tooLarge' });
    expect(read('1'.repeat(70), 'USD', 'en')).toEqual({ error: 'unreadable' });
  });

  it('gives an example written as the language writes it', () => {
    expect(amountExample('USD', 'en')).toBe('1,250.50');
    expect(amountExample('XAF', 'fr')).toBe('61\u202f000');
  });
});

// Any amount a sender may send, in minor units.
const amountOf = (currency: Currency) => fc.bigInt(0n, MAX_MAJOR_AMOUNT * 10n ** BigInt(MINOR_UNITS[currency])).map(Number);
const cases = fc.constantFrom(...CURRENCIES).chain((currency) =>
  fc.record({ currency: fc.constant(currency), locale: fc.constantFrom(...LOCALES), minor: amountOf(currency) }));

describe('reading back what the app writes (property)', () => {
  it('reads every amount formatted as money in either language as the same amount', () => {
    fc.assert(fc.property(cases, ({ currency, locale, minor }) => {
      expect(read(formatMoney(minor, currency, locale), currency, locale)).toEqual({ minor });
    }), { numRuns: 2000 });
  });

  it('reads pasted variants: other spaces, no grouping, the code on either side, the canonical decimal', () => {
    fc.assert(fc.property(cases, fc.constantFrom(' ', '\u00a0', '\u202f', '\u2009'), ({ currency, locale, minor }, space) => {
      const localized = localizeDecimal(toDecimal(minor, currency), locale);
      const ungrouped = localized.replace(locale === 'en' ? /,/g : /\u202f/g, '');
      for (const text of [
        localized.replace(/\u202f/g, space),
        ungrouped,
        `${localized} ${currency}`,
        `${currency}${space}${localized}`,
        toDecimal(minor, currency),
      ]) {
        expect(read(text, currency, locale), text).toEqual({ minor });
      }
    }), { numRuns: 1000 });
  });

  it('never reads an amount written with more decimals than its currency has', () => {
    fc.assert(fc.property(cases, fc.integer({ min: 1, max: 9 }), ({ currency, locale, minor }, digit) => {
      const decimals = MINOR_UNITS[currency];
      const text = `${localizeDecimal(toDecimal(minor, currency), locale)}${decimals ? '' : locale === 'fr' ? ',0' : '.0'}${digit}`;
      expect(read(text, currency, locale).error).toBe(decimals ? 'tooManyDecimals' : 'noDecimals');
    }), { numRuns: 1000 });
  });
});
