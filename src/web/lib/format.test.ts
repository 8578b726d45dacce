import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDecimalText, formatTime, money } from './format';

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

describe('formatDateTime and formatDate', () => {
  const LOCALES = [['en', 'en-US'], ['fr', 'fr-FR']] as const;
  /** Intl's text with its spaces (narrow or not, by ICU version) as plain ones. */
  const intl = (locale: string, options: Intl.DateTimeFormatOptions, d: Date) => new Intl.DateTimeFormat(locale, options).format(d).replace(/\s/gu, ' ');

  it('write the date and time as each language does', () => {
    const d = new Date(2026, 10, 27, 15, 4, 5);
    expect(formatDateTime(d, 'en')).toBe('Nov 27, 2026, 3:04 PM');
    expect(formatDateTime(d, 'fr')).toBe('27 nov. 2026, 15:04');
    expect(formatDate(d, 'en')).toBe('Nov 27, 2026');
    expect(formatDate(d, 'fr-FR')).toBe('27 nov. 2026');
  });
  it('match Intl for every month, day and hour', () => {
    for (let month = 0; month < 12; month++) {
      for (const [day, hour] of [[1, 0], [9, 7], [27, 12], [28, 23]] as const) {
        const d = new Date(2026, month, day, hour, 5, 59);
        for (const [lng, locale] of LOCALES) {
          expect(formatDateTime(d, lng)).toBe(intl(locale, { dateStyle: 'medium', timeStyle: 'short' }, d));
          expect(formatDate(d, lng)).toBe(intl(locale, { dateStyle: 'medium' }, d));
        }
      }
    }
    for (let h = 0; h < 24; h++) {
      const d = new Date(2025, 6, 14, h, 30);
      for (const [lng, locale] of LOCALES) expect(formatDateTime(d.toISOString(), lng)).toBe(intl(locale, { dateStyle: 'medium', timeStyle: 'short' }, d));
    }
  });
  it('give nothing for an invalid date', () => {
    expect(formatDateTime('not a date', 'en')).toBe('');
    expect(formatDate(Number.NaN, 'fr')).toBe('');
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
