import { describe, expect, it } from 'vitest';
import { FRANCE_BANK_IBAN_COUNTRIES, formatIban, groupIbanAsTyped, isIbanOfCountries, isValidBic, isValidIban, normalizeIban } from './iban.js';

describe('isValidIban', () => {
  it.each([
    'FR76 3000 6000 0112 3456 7890 189',
    'FR7630006000011234567890189',
    'fr76 3000 6000 0112 3456 7890 189',
    'DE89 3704 0044 0532 0130 00',
    'GB82 WEST 1234 5698 7654 32',
    'BE68 5390 0754 7034',
    'NL91 ABNA 0417 1643 00',
    'ES91 2100 0418 4502 0005 1332',
    'IT60 X054 2811 1010 0000 0123 456',
    'CH93 0076 2011 6238 5295 7',
  ])('accepts %s', (iban) => {
    expect(isValidIban(iban)).toBe(true);
  });

  it.each([
    ['wrong checksum', 'FR76 3000 6000 0112 3456 7890 188'],
    ['wrong length for FR', 'FR76 3000 6000 0112 3456 7890 18'],
    ['unknown country', 'ZZ76 3000 6000 0112 3456 7890 189'],
    ['punctuation', 'FR76-3000-6000-0112-3456-7890-189'],
    ['empty', ''],
    ['letters in check digits', 'FRAB 3000 6000 0112 3456 7890 189'],
  ])('refuses %s', (_label, iban) => {
    expect(isValidIban(iban)).toBe(false);
  });

  it('normalizes and formats', () => {
    expect(normalizeIban(' fr76 3000\t6000 ')).toBe('FR7630006000');
    expect(formatIban('FR7630006000011234567890189')).toBe('FR76 3000 6000 0112 3456 7890 189');
  });
});

describe('isValidBic', () => {
  it('accepts 8 or 11 characters', () => {
    expect(isValidBic('BNPAFRPP')).toBe(true);
    expect(isValidBic('BNPAFRPPXXX')).toBe(true);
    expect(isValidBic('deutdeff500')).toBe(true);
    expect(isValidBic(' BNPA FR PP ')).toBe(true);
  });
  it('refuses other shapes', () => {
    expect(isValidBic('BNPAFRP')).toBe(false);
    expect(isValidBic('BNPAFRPPXX')).toBe(false);
    expect(isValidBic('1NPAFRPP')).toBe(false);
    expect(isValidBic('BNPA12PP')).toBe(false);
    expect(isValidBic('')).toBe(false);
  });
});

describe('the France bank channel\'s countries', () => {
  it('takes French and Monegasque IBANs, however typed, and refuses a valid German one', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isIbanOfCountries('DE89 3704 0044 0532 0130 00', FRANCE_BANK_IBAN_COUNTRIES)).toBe(false);
    expect(isIbanOfCountries('fr76 3000 6000 0112 3456 7890 189', FRANCE_BANK_IBAN_COUNTRIES)).toBe(true);
    expect(isIbanOfCountries('MC5811222000010123456789030', FRANCE_BANK_IBAN_COUNTRIES)).toBe(true);
  });
});

describe('groupIbanAsTyped', () => {
  it('groups by four as typed, upper case, whatever spacing or dashes were typed', () => {
    expect(groupIbanAsTyped('fr7630006000011234567890189')).toBe('FR76 3000 6000 0112 3456 7890 189');
    expect(groupIbanAsTyped('FR76')).toBe('FR76');
    expect(groupIbanAsTyped('FR763')).toBe('FR76 3');
    expect(groupIbanAsTyped('FR76-3000  6000')).toBe('FR76 3000 6000');
    expect(groupIbanAsTyped('')).toBe('');
  });
});
