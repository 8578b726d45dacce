// Reconciliation (docs/rules/money-states.md#reconciliation): a provider's statement read
// from CSV, and its lines matched to the ledger's lines of that provider account. Pure: the
// server reads and writes, the rules live here.
import { parseAmount, type Currency, type Minor } from './money.js';
import { hasControlCharacter } from './schemas.js';

/** Most data lines one import takes; a longer statement is split into several files. */
const MAX_STATEMENT_LINES = 10_000;
/** Line errors an answer lists at most (the count says how many there were). */
const MAX_REPORTED_ERRORS = 50;
const MAX_STATEMENT_REFERENCE = 120;
const MAX_STATEMENT_DESCRIPTION = 500;
/** The columns every statement file names in its first line, in any order (others are ignored). */
const STATEMENT_COLUMNS = ['date', 'reference', 'description', 'amount'] as const;
type StatementColumn = (typeof STATEMENT_COLUMNS)[number];

/** A signed amount in minor units: "-12.50", "+3", "1250,5", "0" (money in positive, out negative). Null when unreadable. */
export function parseSignedMinor(input: string | number, currency: Currency): Minor | null {
  if (typeof input === 'number' && !Number.isFinite(input)) return null;
  const text = String(input).trim().replace(/^\u2212/, '-');
  const negative = text.startsWith('-');
  const unsigned = negative || text.startsWith('+') ? text.slice(1) : text;
  if (unsigned.trim() !== unsigned) return null;
  const minor = parseAmount(unsigned, currency);
  if (minor === null) return null;
  return negative && minor !== 0 ? -minor : minor;
}

/** A statement line's amount: signed, never zero (no movement is a zero). */
export function parseSignedAmount(input: string, currency: Currency): Minor | null {
  const minor = parseSignedMinor(input, currency);
  return minor === 0 ? null : minor;
}

/** A real calendar day written YYYY-MM-DD. */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const t = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === text;
}

interface StatementLineInput {
  /** The file's line number the record starts on (the header is line 1). */
  line: number;
  posted_on: string;
  reference: string | null;
  description: string | null;
  amount: Minor;
}

/** What is wrong with one line: the message key is of the `admin` namespace. */
interface StatementLineError {
  line: number;
  column: StatementColumn | 'file';
  key: string;
}

export type StatementParse =
  | { ok: true; lines: StatementLineInput[] }
  | { ok: false; errors: StatementLineError[]; count: number };

/** RFC 4180 records with their starting line numbers: quoted fields may hold separators, quotes ("") and line breaks. */
function csvRecords(text: string, separator: string): { line: number; fields: string[] }[] | null {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let touched = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') { field += '"'; i += 1; } else quoted = false;
      } else {
        if (c === '\n') line += 1;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') { quoted = true; touched = true; } else if (c === separator) { fields.push(field); field = ''; touched = true; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      fields.push(field);
      if (touched || fields.some((f) => f !== '')) out.push({ line: start, fields });
      fields = [];
      field = '';
      touched = false;
      line += 1;
      start = line;
    } else { field += c; touched = true; }
  }
  if (quoted) return null;
  fields.push(field);
  if (touched || fields.some((f) => f !== '')) out.push({ line: start, fields });
  return out;
}

/**
 * A CSV file's records (null when a quoted field is never closed): its byte-order mark dropped,
 * its separator the one of comma, semicolon and tab its first line holds most of.
 */
export function readCsv(input: string): { line: number; fields: string[] }[] | null {
  const text = input.replace(/^\uFEFF/, '');
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const separator = [',', ';', '\t'].map((s) => [s, firstLine.split(s).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
  return csvRecords(text, separator);
}

/**
 * A statement file: a header naming date, reference, description and amount (comma, semicolon or
 * tab separated), then one line per movement: the day (YYYY-MM-DD), the provider's reference,
 * a description, and the signed amount in the account's currency (money in positive, out
 * negative; "." or "," before the decimals, no thousands separator). Every line is checked; any
 * error refuses the whole file, each error naming its line.
 */
export function parseStatementCsv(input: string, currency: Currency): StatementParse {
  const rows = readCsv(input);
  if (!rows) return { ok: false, errors: [{ line: 1, column: 'file', key: 'reconciliation.csv.unclosedQuote' }], count: 1 };
  const [header, ...data] = rows;
  if (!header) return { ok: false, errors: [{ line: 1, column: 'file', key: 'reconciliation.csv.empty' }], count: 1 };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const index = Object.fromEntries(STATEMENT_COLUMNS.map((c) => [c, names.indexOf(c)])) as Record<StatementColumn, number>;
  const missing = STATEMENT_COLUMNS.filter((c) => index[c] < 0);
  if (missing.length) return { ok: false, errors: missing.map((c) => ({ line: header.line, column: c, key: 'reconciliation.csv.columnMissing' })), count: missing.length };
  if (data.length === 0) return { ok: false, errors: [{ line: 1, column: 'file', key: 'reconciliation.csv.noLines' }], count: 1 };
  if (data.length > MAX_STATEMENT_LINES) return { ok: false, errors: [{ line: data[MAX_STATEMENT_LINES]!.line, column: 'file', key: 'reconciliation.csv.tooManyLines' }], count: 1 };

  const errors: StatementLineError[] = [];
  const lines: StatementLineInput[] = [];
  for (const row of data) {
    const value = (c: StatementColumn) => (row.fields[index[c]] ?? '').trim();
    const fail = (column: StatementColumn, key: string) => errors.push({ line: row.line, column, key });
    const controlled = STATEMENT_COLUMNS.filter((c) => hasControlCharacter(row.fields[index[c]] ?? ''));
    if (controlled.length > 0) {
      for (const c of controlled) fail(c, 'reconciliation.csv.controlCharacters');
      continue;
    }
    const date = value('date');
    const reference = value('reference');
    const description = value('description');
    const amountText = value('amount');
    const before = errors.length;
    if (!date) fail('date', 'reconciliation.csv.dateMissing');
    else if (!isCalendarDay(date)) fail('date', 'reconciliation.csv.dateInvalid');
    if (reference.length > MAX_STATEMENT_REFERENCE) fail('reference', 'reconciliation.csv.referenceTooLong');
    if (description.length > MAX_STATEMENT_DESCRIPTION) fail('description', 'reconciliation.csv.descriptionTooLong');
    const amount = amountText ? parseSignedAmount(amountText, currency) : null;
    if (!amountText) fail('amount', 'reconciliation.csv.amountMissing');
    else if (amount === null) fail('amount', 'reconciliation.csv.amountInvalid');
    if (errors.length === before) {
      lines.push({ line: row.line, posted_on: date, reference: reference || null, description: description || null, amount: amount! });
    }
  }
  if (errors.length) return { ok: false, errors: errors.slice(0, MAX_REPORTED_ERRORS), count: errors.length };
  return { ok: true, lines };
}

/** Transfer references (MT-…) written anywhere in a statement line's reference or description. */
const TRANSFER_REFERENCE = /\bMT-[A-Z0-9]{4,}\b/gi;

/**
 * What a statement line can be matched by: its reference as written (compared without case),
 * and any transfer reference quoted in its reference or description (senders quote it when they
 * pay by hand).
 */
export function matchKeys(line: { reference: string | null; description: string | null }): { references: string[]; transfers: string[] } {
  const references = line.reference?.trim() ? [line.reference.trim().toLowerCase()] : [];
  const quoted = `${line.reference ?? ''} ${line.description ?? ''}`.match(TRANSFER_REFERENCE) ?? [];
  const transfers = [...new Set([...(line.reference?.trim() ? [line.reference.trim().toUpperCase()] : []), ...quoted.map((q) => q.toUpperCase())])];
  return { references, transfers };
}

export interface UnmatchedStatementLine {
  id: number;
  reference: string | null;
  description: string | null;
  amount: Minor;
}

export interface CandidateBookLine {
  id: number;
  amount: Minor;
  /** The entry's reference (what staff typed, or PayPal's capture id). */
  entry_reference: string | null;
  /** The transfer's own reference (MT-…). */
  transfer_reference: string | null;
}

/**
 * Pairs statement lines with book lines of the same account: same signed amount, and the line's
 * reference equal to the entry's reference or naming the transfer. Each line on either side is
 * used once; statement lines are taken in order and each takes its oldest candidate, an entry's
 * own reference before a quoted transfer reference.
 */
export function matchLines(statement: readonly UnmatchedStatementLine[], book: readonly CandidateBookLine[]): { statement_line_id: number; ledger_line_id: number }[] {
  const byAmount = new Map<Minor, CandidateBookLine[]>();
  for (const b of [...book].sort((x, y) => x.id - y.id)) {
    const same = byAmount.get(b.amount);
    if (same) same.push(b);
    else byAmount.set(b.amount, [b]);
  }
  const taken = new Set<number>();
  const pairs: { statement_line_id: number; ledger_line_id: number }[] = [];
  for (const line of statement) {
    const keys = matchKeys(line);
    const free = (byAmount.get(line.amount) ?? []).filter((b) => !taken.has(b.id));
    const pick = free.find((b) => b.entry_reference !== null && keys.references.includes(b.entry_reference.trim().toLowerCase()))
      ?? free.find((b) => b.transfer_reference !== null && keys.transfers.includes(b.transfer_reference.toUpperCase()));
    if (pick) {
      taken.add(pick.id);
      pairs.push({ statement_line_id: line.id, ledger_line_id: pick.id });
    }
  }
  return pairs;
}
