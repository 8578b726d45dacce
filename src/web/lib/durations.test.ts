import { describe, expect, it } from 'vitest';
import { formatHours, formatMinutes } from './durations';

describe('formatHours', () => {
  it('says a duration in words: minutes under an hour, hours with the language\'s plural and decimal mark', () => {
    expect(formatHours(0.5, 'en')).toBe('30 minutes');
    expect(formatHours(0.5, 'fr')).toBe('30 minutes');
    expect(formatHours(1, 'fr')).toBe('1\u00a0heure');
    expect(formatHours(1.5, 'fr')).toBe('1,5\u00a0heure');
    expect(formatHours(36, 'fr')).toBe('36\u00a0heures');
    expect(formatHours(36, 'en')).toBe('36 hours');
    expect(formatHours(2.25, 'en')).toBe('2.3 hours');
  });
});

describe('formatMinutes', () => {
  it('says whole minutes in the largest unit they fill exactly', () => {
    expect(formatMinutes(1440, 'en')).toBe('1 day');
    expect(formatMinutes(1440, 'fr')).toBe('1\u00a0jour');
    expect(formatMinutes(10080, 'en')).toBe('7 days');
    expect(formatMinutes(120, 'fr')).toBe('2\u00a0heures');
    expect(formatMinutes(90, 'en')).toBe('90 minutes');
    expect(formatMinutes(30, 'fr')).toBe('30 minutes');
    expect(formatMinutes(1, 'en')).toBe('1 minute');
  });
});
