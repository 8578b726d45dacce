// Phone numbers as people read them ("+241 77 12 34 56"), wherever a sender sees one. Written by
// hand for the countries the app pays out to (and a few more), so core carries no phone metadata.

/** Digit groups after the country code, by country code and by how many digits follow it. */
const GROUPS: Record<string, Record<number, number[]>> = {
  '241': { 8: [2, 2, 2, 2], 9: [3, 2, 2, 2] }, // Gabon: +241 77 12 34 56
  '250': { 9: [3, 3, 3] }, // Rwanda: +250 788 123 456
  '33': { 9: [1, 2, 2, 2, 2] }, // France: +33 6 12 34 56 78
  '32': { 9: [3, 2, 2, 2] }, // Belgium: +32 470 12 34 56
  '1': { 10: [3, 3, 4] }, // North America: +1 415 555 2671
};

/**
 * An international number grouped as its country writes it; any other text (a number of a
 * country or length not known here, or not a number) is returned trimmed, never altered.
 */
export function formatPhone(value: string): string {
  const text = value.trim();
  const compact = text.replace(/[\s().-]/g, '');
  if (!/^\+\d+$/.test(compact)) return text;
  for (const [code, byLength] of Object.entries(GROUPS)) {
    if (!compact.startsWith(`+${code}`)) continue;
    const national = compact.slice(code.length + 1);
    const groups = byLength[national.length];
    if (!groups) continue;
    let at = 0;
    const parts = groups.map((size) => national.slice(at, (at += size)));
    return `+${code} ${parts.join(' ')}`;
  }
  return text;
}
