// IBAN and BIC checks for the France bank channel (docs/rules/corridors.md#iban).

/** IBAN lengths by country (SWIFT IBAN registry). An IBAN of a country not listed is refused. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22,
  IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20,
  LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18, NO: 15,
  PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19,
  SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** Uppercase, without spaces: the electronic form ("FR76 3000 …" → "FR763000…"). */
export function normalizeIban(s: string): string {
  return s.replace(/\s+/g, '').toUpperCase();
}

/** ISO 13616 mod-97 over the rearranged IBAN, digit by digit so no big number is needed. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= 'A' && ch <= 'Z' ? ch.charCodeAt(0) - 55 : ch.charCodeAt(0) - 48;
    remainder = value >= 10 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder;
}

/** Spaces allowed, case-insensitive; country length and checksum must both hold. */
export function isValidIban(s: string): boolean {
  if (typeof s !== 'string') return false;
  const iban = normalizeIban(s);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  return mod97(iban) === 1;
}

/**
 * The countries whose accounts the France bank channel pays into (docs/rules/corridors.md#iban):
 * France and Monaco (Monaco's banks are in the French banking system); a German IBAN is refused.
 */
export const FRANCE_BANK_IBAN_COUNTRIES = ['FR', 'MC'] as const;

/** The IBAN's country is one of these (its first two letters, spaces and case aside). */
export function isIbanOfCountries(s: string, countries: readonly string[]): boolean {
  return countries.includes(normalizeIban(s).slice(0, 2));
}

/**
 * Grouped by four as it is typed: "fr7630006000" → "FR76 3000 6000" (a space appears as the next
 * group starts). Characters other than letters and digits go.
 */
export function groupIbanAsTyped(s: string): string {
  const compact = s.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return compact.replace(/(.{4})(?=.)/g, '$1 ');
}

/** Grouped by four for display: "FR76 3000 6000 0112 3456 7890 189". */
export function formatIban(s: string): string {
  return normalizeIban(s).replace(/(.{4})(?=.)/g, '$1 ');
}

export function normalizeBic(s: string): string {
  return s.replace(/\s+/g, '').toUpperCase();
}

/** ISO 9362: 4-letter bank, 2-letter country, 2-character location, optional 3-character branch. */
export function isValidBic(s: string): boolean {
  if (typeof s !== 'string') return false;
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(normalizeBic(s));
}
