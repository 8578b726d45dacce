import { describe, expect, it } from 'vitest';
import { formatDecimalText, formatTime, money } from './format';

describe('formatTime', () => {
  it('writes the time of day as each language does', () => {
    expect(formatTime(new Date(2026, 10, 21, 15, 4, 5), 'en')).toBe('3:04:05 PM');
    expect(formatTime(new Date(2026, 10, 21, 0, 30, 0), 'en')).toBe('12:30:00 AM');
    expect(formatTime(new Date(2026, 10, 21, 12, 0, 9), 'en')).toBe('12:00:09 PM');
    expect(formatTime(new Date(2026, 10, 21, 15, 4, 5), 'fr')).toBe('15:04:05');
    expect(formatTime(new Date(2026, 10, 21, 7, 4, 5), 'fr-FR')).toBe('07:04:05');
  });
  it('matches Intl for every hour', () => {
    for (let h = 0; h < 24; h++) {
      const d = new Date(2026, 0, 2, h, 7, 59);
      for (const [lng, locale] of [['en', 'en-US'], ['fr', 'fr-FR']] as const) {
        const intl = new Intl.DateTimeFormat(locale, { timeStyle: 'medium' }).format(d).replace(/\s/gu, ' ');
        expect(formatTime(d, lng)).toBe(intl);
      }
    }
  });
  it('gives nothing for an invalid date', () => {
    expect(formatTime('not a date', 'en')).toBe('');
  });
});

describe('formatDecimalText and money', () => {
  it('keep every digit of a rate and use the language marks', () => {
    expect(formatDecimalText('0.001639', 'fr')).toBe('0,001639');
    expect(formatDecimalText('61000', 'en')).toBe('61,000');
    expect(money(6100000, 'XAF', 'fr')).toBe('6\u202f100\u202f000\u00a0FCFA');
    expect(money(10450, 'USD', 'en')).toBe('$104.50');
  });
});
