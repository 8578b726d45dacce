import { describe, expect, it } from 'vitest';
import { eraseCreditTransfers } from './erasure.js';
import { writePain001 } from './pain001.js';

const debtor = { iban: 'FR1420041010050500013M02606', bic: 'AGRIFRPP', name: 'Money Transfer SAS' };
const file = () => writePain001('BF-20260101-ERASE', new Date('2026-01-01T00:00:00Z'), new Date('2026-01-02T00:00:00Z'), debtor, [
  { endToEndId: 'MT-AAA111', amount: '120.50', creditorName: 'Jean Dupont', creditorIban: 'FR7630006000011234567890189', creditorBic: null, remittance: 'Awa Mbina MT-AAA111' },
  { endToEndId: 'MT-BBB222', amount: '75.00', creditorName: "Sean O'Brien", creditorIban: 'DE89370400440532013000', creditorBic: 'COBADEFFXXX', remittance: "Paul O'Neil MT-BBB222" },
]);

describe('a bank file erased for one sender', () => {
  it("loses that sender's recipient name, IBAN and remittance; every other byte is as the file was written", () => {
    const written = file();
    const erased = eraseCreditTransfers(written, new Map([['MT-AAA111', 'MT-AAA111']]));
    expect(erased).toBe(written
      .replace('<Cdtr><Nm>Jean Dupont</Nm></Cdtr>', '<Cdtr><Nm>ERASED</Nm></Cdtr>')
      .replace('<IBAN>FR7630006000011234567890189</IBAN>', '<IBAN>XX00ERASED</IBAN>')
      .replace('<Ustrd>Awa Mbina MT-AAA111</Ustrd>', '<Ustrd>MT-AAA111</Ustrd>'));
    // The other payout's texts, escaped as written (an apostrophe is &apos;), are untouched.
    expect(erased).toContain('<Nm>Sean O&apos;Brien</Nm>');
    expect(erased).toContain('<Ustrd>Paul O&apos;Neil MT-BBB222</Ustrd>');
  });

  it('is the file itself when it holds none of the payouts named', () => {
    const written = file();
    expect(eraseCreditTransfers(written, new Map([['MT-NOPE', 'MT-NOPE']]))).toBe(written);
  });
});
