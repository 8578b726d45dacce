import { describe, expect, it } from 'vitest';
import { csvCell } from '@server/lib/csv.js';

describe('CSV cells (RFC 4180, safe to open in a spreadsheet)', () => {
  it('quotes semicolons, which French spreadsheets split on', () => {
    expect(csvCell('Rue de la Paix; Libreville')).toBe('"Rue de la Paix; Libreville"');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Bob "The" Builder, Jr')).toBe('"Bob ""The"" Builder, Jr"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });

  it('defuses text a spreadsheet would run as a formula, not numbers', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('+24177123456')).toBe("'+24177123456");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell('104.50')).toBe('104.50');
  });
});
