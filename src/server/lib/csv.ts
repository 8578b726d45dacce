// CSV the back office downloads (RFC 4180), safe to open in a spreadsheet.

/**
 * One CSV cell (RFC 4180). Text that a spreadsheet would run as a formula (=, +, -, @ first) is
 * prefixed with a quote; plain numbers such as amounts are left as they are.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value == null) return '';
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  // ';' too: French spreadsheets split on it.
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
