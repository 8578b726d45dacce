import { describe, expect, it } from 'vitest';
import { formatPhone } from './phone.js';

describe('formatPhone', () => {
  it('groups Gabon numbers in pairs, also the nine-digit national form', () => {
    expect(formatPhone('+24177123456')).toBe('+241 77 12 34 56');
    expect(formatPhone('+241 74 000 000')).toBe('+241 74 00 00 00');
    expect(formatPhone('+241077123456')).toBe('+241 077 12 34 56');
  });

  it('groups Rwanda numbers by three', () => {
    expect(formatPhone('+250788123456')).toBe('+250 788 123 456');
    expect(formatPhone('+250-72-312-3456')).toBe('+250 723 123 456');
  });

  it('groups French numbers as France writes them', () => {
    expect(formatPhone('+33612345678')).toBe('+33 6 12 34 56 78');
    expect(formatPhone(' +33 (1) 42 68 53 00 ')).toBe('+33 1 42 68 53 00');
  });

  it('leaves what it does not know as typed (trimmed)', () => {
    expect(formatPhone('+2411234')).toBe('+2411234');
    expect(formatPhone('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(formatPhone(' 0612345678 ')).toBe('0612345678');
    expect(formatPhone('')).toBe('');
  });
});
