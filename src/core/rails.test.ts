import { describe, expect, it } from 'vitest';
import { compareNames, enquiryDelayMs, nameCheckPays } from './rails.js';

describe('the name check', () => {
  it('matches the same name whatever its case, accents, word order or spelling of the same sound', () => {
    expect(compareNames('Jean Ndong', 'JEAN NDONG').outcome).toBe('match');
    expect(compareNames('Ndong Jean', 'Jean Ndong').outcome).toBe('match');
    expect(compareNames('Hélène Mba', 'HELENE MBA').outcome).toBe('match');
    expect(compareNames('Jean Ndong', 'Jean Ndoung').outcome).toBe('match');
  });

  it('calls close a typo, or a middle name only one side has', () => {
    expect(compareNames('Jean Ndong', 'Jean Ndomg').outcome).toBe('close');
    expect(compareNames('Jean Ndong', 'Jean Pierre Ndong').outcome).toBe('close');
  });

  it('refuses another person, or only the first name in common', () => {
    expect(compareNames('Jean Ndong', 'Marie Obame').outcome).toBe('mismatch');
    expect(compareNames('Jean Ndong', 'Jean Obame').outcome).toBe('mismatch');
    expect(compareNames('Jean Ndong', '').outcome).toBe('mismatch');
    // A surname alone is for staff to judge.
    expect(compareNames('Ndong', 'Jean Ndong').outcome).toBe('mismatch');
  });

  it('pays on a match or a close name only', () => {
    expect(['match', 'close', 'mismatch', 'unknown_number', 'barred', 'inactive', 'unavailable'].filter((o) => nameCheckPays(o as never))).toEqual(['match', 'close']);
  });
});

describe('the status enquiry', () => {
  it('asks after 5 s, 15 s, 30 s, 1, 2 and 5 minutes, then every 10 minutes', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(enquiryDelayMs)).toEqual([5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 600_000, 600_000]);
  });

  it('from the 24th enquiry on, asks every hour: 30 days of an unclaimed PayPal item are about 740 enquiries, not 4,300', () => {
    expect([23, 24, 500].map(enquiryDelayMs)).toEqual([600_000, 3_600_000, 3_600_000]);
    let waited = 0;
    let enquiries = 0;
    while (waited < 30 * 24 * 3_600_000) waited += enquiryDelayMs(enquiries++);
    expect(enquiries).toBeLessThan(750);
  });
});
