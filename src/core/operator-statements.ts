// Operator statements (docs/rules/payout-rails.md#operator-statements): an operator's transaction
// export read from CSV, each row's state in our words. Pure: the server reads and matches.
import type { Currency, Minor } from './money.js';
import { isCalendarDay, parseSignedMinor, readCsv } from './reconciliation.js';
import { hasControlCharacter } from './schemas.js';

/** A statement row's state, from the operator's own words (Airtel TS/TF/TIP, MTN SUCCESSFUL/FAILED/PENDING…). */
export const STATEMENT_STATES = ['succeeded', 'failed', 'pending', 'reversed'] as const;
export type StatementState = (typeof STATEMENT_STATES)[number];

/** Most rows one import takes; a longer export is split into several files. */
const MAX_ROWS = 10_000;
const MAX_REPORTED_ERRORS = 50;
const MAX_ID = 120;

/**
 * Each column and the headers the operators' portal exports give it (case, spaces, underscores
 * and dashes aside): Airtel's "Transaction ID", "External Reference", "Transaction Date"; MTN's
 * "Id", "External Transaction Id", "Date".
 */
const HEADERS = {
  transaction_id: ['transactionid', 'txnid', 'id', 'financialtransactionid'],
  reference: ['reference', 'externalreference', 'externalid', 'externaltransactionid', 'referenceid'],
  amount: ['amount', 'transactionamount'],
  currency: ['currency'],
  status: ['status', 'transactionstatus'],
  date: ['date', 'transactiondate', 'datetime', 'timestamp'],
} as const;
type Column = keyof typeof HEADERS;
const REQUIRED: readonly Column[] = ['amount', 'currency', 'status', 'date'];

/** The operators' words for a transaction's state, upper case. */
const STATES: Record<string, StatementState> = {
  TS: 'succeeded', SUCCESS: 'succeeded', SUCCESSFUL: 'succeeded', SUCCEEDED: 'succeeded', COMPLETED: 'succeeded',
  TF: 'failed', TE: 'failed', FAILED: 'failed', FAILURE: 'failed', REJECTED: 'failed', EXPIRED: 'failed',
  TIP: 'pending', TA: 'pending', PENDING: 'pending', 'IN PROGRESS': 'pending', ONGOING: 'pending',
  TR: 'reversed', REVERSED: 'reversed', REFUNDED: 'reversed',
};

export interface StatementRowInput {
  /** The file's line the row starts on (the header is line 1). */
  line: number;
  transaction_id: string | null;
  reference: string | null;
  /** Unsigned, in minor units: an export may show a payout negative. */
  amount: Minor;
  state: StatementState;
  at: Date;
}

export interface StatementRowError {
  line: number;
  column: Column | 'file';
  /** A message key of the `admin` namespace. */
  key: string;
}

export type OperatorStatementParse =
  | { ok: true; rows: StatementRowInput[] }
  | { ok: false; errors: StatementRowError[]; count: number };

/** A row's time: YYYY-MM-DD, with a time (HH:MM or HH:MM:SS) and an offset or not (UTC), or DD/MM/YYYY the same way. */
export function readStatementTime(text: string): Date | null {
  const m = /^(?:(\d{4})-(\d{2})-(\d{2})|(\d{2})\/(\d{2})\/(\d{4}))(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (!m) return null;
  const [year, month, day] = m[1] ? [m[1], m[2]!, m[3]!] : [m[6]!, m[5]!, m[4]!];
  const zone = !m[10] || m[10].toUpperCase() === 'Z' ? 'Z' : m[10].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const at = new Date(`${year}-${month}-${day}T${m[7] ?? '00'}:${m[8] ?? '00'}:${m[9] ?? '00'}${zone}`);
  return Number.isNaN(at.getTime()) || !isCalendarDay(`${year}-${month}-${day}`) ? null : at;
}

const headerKey = (name: string) => name.trim().toLowerCase().replace(/[\s_-]+/g, '');

/**
 * An operator's export: a header naming at least amount, currency, status, date and one of the
 * transaction id and the reference (in any order, other columns ignored), then one row per
 * transaction. Every row is checked; any error refuses the whole file, each error naming its line.
 */
export function parseOperatorStatement(input: string, currency: Currency): OperatorStatementParse {
  const records = readCsv(input);
  if (!records) return { ok: false, errors: [{ line: 1, column: 'file', key: 'reconciliation.csv.unclosedQuote' }], count: 1 };
  const [header, ...data] = records;
  if (!header) return { ok: false, errors: [{ line: 1, column: 'file', key: 'reconciliation.csv.empty' }], count: 1 };
  const names = header.fields.map(headerKey);
  const index = Object.fromEntries((Object.keys(HEADERS) as Column[]).map((c) => [c, names.findIndex((n) => (HEADERS[c] as readonly string[]).includes(n))])) as Record<Column, number>;
  const missing: Column[] = REQUIRED.filter((c) => index[c] < 0);
  if (index.transaction_id < 0 && index.reference < 0) missing.push('reference');
  if (missing.length) return { ok: false, errors: missing.map((c) => ({ line: header.line, column: c, key: 'reconciliation.operator.columnMissing' })), count: missing.length };
  if (data.length === 0) return { ok: false, errors: [{ line: 1, column: 'file', key: 'reconciliation.csv.noLines' }], count: 1 };
  if (data.length > MAX_ROWS) return { ok: false, errors: [{ line: data[MAX_ROWS]!.line, column: 'file', key: 'reconciliation.csv.tooManyLines' }], count: 1 };

  const errors: StatementRowError[] = [];
  const rows: StatementRowInput[] = [];
  for (const record of data) {
    const value = (c: Column) => (index[c] < 0 ? '' : (record.fields[index[c]] ?? '').trim());
    const fail = (column: Column, key: string) => errors.push({ line: record.line, column, key });
    const before = errors.length;
    for (const c of Object.keys(HEADERS) as Column[]) if (hasControlCharacter(value(c))) fail(c, 'reconciliation.csv.controlCharacters');
    if (errors.length > before) continue;
    const transactionId = value('transaction_id');
    const reference = value('reference');
    if (!transactionId && !reference) fail('reference', 'reconciliation.operator.idMissing');
    if (transactionId.length > MAX_ID || reference.length > MAX_ID) fail(transactionId.length > MAX_ID ? 'transaction_id' : 'reference', 'reconciliation.csv.referenceTooLong');
    const signed = parseSignedMinor(value('amount'), currency);
    if (!value('amount') || signed === null || signed === 0) fail('amount', 'reconciliation.operator.amountInvalid');
    if (value('currency').toUpperCase() !== currency) fail('currency', 'reconciliation.operator.currencyOther');
    const state = STATES[value('status').toUpperCase().replace(/_/g, ' ')];
    if (!state) fail('status', 'reconciliation.operator.statusUnknown');
    const at = readStatementTime(value('date'));
    if (!at) fail('date', 'reconciliation.operator.dateInvalid');
    if (errors.length === before) {
      rows.push({ line: record.line, transaction_id: transactionId || null, reference: reference || null, amount: Math.abs(signed!), state: state!, at: at! });
    }
  }
  if (errors.length) return { ok: false, errors: errors.slice(0, MAX_REPORTED_ERRORS), count: errors.length };
  return { ok: true, rows };
}
