import type {
  BookLine, FrozenMoney, ReconciliationSummary, ReconciliationView, Statement, StatementBalanceInput, StatementImportQuery, StatementLine, StatementResult,
} from '@core/api/reconciliation.js';
import type { ChannelId } from '@core/channels.js';
import { PROVIDER_ACCOUNTS, providerCurrency } from '@core/ledger.js';
import { toDecimal, type Currency } from '@core/money.js';
import { matchKeys, matchLines, parseSignedMinor, parseStatementCsv } from '@core/reconciliation.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { csvInvalid } from '@server/lib/csv-refusal.js';
import { recordAudit, type Actor } from '../audit/service.js';
import {
  bookBalances, candidateBookLines, frozenTransfers, insertStatement, insertStatementLines, latestStatements, lockAccount, matchedLines, setMatches,
  statementCounts, unmatchedBookLines, unmatchedStatement, unmatchedStatementLines,
  type BookLineRow, type LineCounts, type StatementLineRow, type StatementRow,
} from './repo.js';

// Reconciliation (docs/rules/money-states.md#reconciliation): staff enter a provider
// statement's balance or import its lines as CSV; lines are matched to the provider account's
// book lines by reference and amount; the view sets the book balance against the statement's
// and lists what explains the difference.

/** Exact arithmetic on decimal texts of one currency (through minor units, never floats). */
function minorOf(value: string, currency: Currency): number {
  const minor = parseSignedMinor(value, currency);
  if (minor === null) throw new RangeError(`reconciliation: unreadable amount ${value}`);
  return minor;
}

/** A decimal from the database ("8100.00" XAF) written with the currency's decimals ("8100"). */
const amountText = (value: string, currency: Currency) => toDecimal(minorOf(value, currency), currency);

/** A statement's date: a day is read as the end of that day (UTC); an ISO time as it is. */
function readAsOf(text: string | undefined): Date {
  if (!text) return new Date();
  const day = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = new Date(day ? `${text}T23:59:59.999Z` : text);
  if (Number.isNaN(at.getTime()) || (day && at.toISOString().slice(0, 10) !== text)) {
    throw new AppError('validation_failed', { fields: { as_of: 'admin.reconciliation.asOfInvalid' } });
  }
  return at;
}

function readBalance(value: string | number, currency: Currency): string {
  const minor = parseSignedMinor(value, currency);
  if (minor === null) {
    throw new AppError('validation_failed', { fields: { balance: 'admin.reconciliation.balanceInvalid' } });
  }
  return toDecimal(minor, currency);
}

function statementToJson(s: StatementRow): Statement {
  return {
    id: s.id, account: s.account, currency: s.currency, as_of: s.as_of.toISOString(), balance: s.balance === null ? null : amountText(s.balance, s.currency), filename: s.filename,
    created_at: s.created_at.toISOString(),
  };
}

/**
 * Pairs every unmatched statement line of the account with a free book line of the same amount
 * whose entry reference or transfer reference it names; in the caller's transaction, which holds
 * the account's lock. Gives how many pairs it made.
 */
async function matchAccount(tx: Tx, account: ChannelId): Promise<number> {
  const currency = providerCurrency(account);
  const open = (await unmatchedStatementLines(tx, account)).map((l) => ({ ...l, amount: minorOf(l.amount, currency) }));
  if (open.length === 0) return 0;
  const references = new Set<string>();
  const transfers = new Set<string>();
  for (const line of open) {
    const keys = matchKeys(line);
    keys.references.forEach((r) => references.add(r));
    keys.transfers.forEach((r) => transfers.add(r));
  }
  const candidates = (await candidateBookLines(tx, account, currency, [...references], [...transfers]))
    .map((c) => ({ ...c, amount: minorOf(c.amount, currency) }));
  const pairs = matchLines(open, candidates);
  await setMatches(tx, pairs);
  return pairs.length;
}

/** A statement's closing balance entered by hand; unmatched lines are matched again. */
export async function recordStatementBalance(db: Db, actor: Actor, account: ChannelId, body: StatementBalanceInput): Promise<StatementResult> {
  const currency = providerCurrency(account);
  const balance = readBalance(body.balance, currency);
  const asOf = readAsOf(body.as_of);
  return db.transaction(async (tx) => {
    await lockAccount(tx, account);
    const statement = await insertStatement(tx, { account, currency, as_of: asOf, balance, filename: null, created_by: actor.profile_id });
    const result = { statement: statementToJson(statement), lines: 0, matched: await matchAccount(tx, account) };
    await recordAudit(tx, actor, { action: 'reconciliation.statement', target: 'reconciliation', id: statement.id, after: { account, ...result } });
    return result;
  });
}

/**
 * A statement's lines from CSV (docs/rules/money-states.md#reconciliation): every line checked
 * first, and a file with any wrong line refused whole, each error naming its line and column.
 */
export async function importStatement(db: Db, actor: Actor, account: ChannelId, file: { text: string; filename: string | null }, query: StatementImportQuery): Promise<StatementResult> {
  const currency = providerCurrency(account);
  const balance = query.balance === undefined || query.balance.trim() === '' ? null : readBalance(query.balance, currency);
  const asOf = readAsOf(query.as_of);
  const parsed = parseStatementCsv(file.text, currency);
  if (!parsed.ok) {
    throw csvInvalid(parsed, currency);
  }
  // The last posted day when no date was given: the statement is as of its own lines.
  const lastDay = parsed.lines.reduce((max, l) => (l.posted_on > max ? l.posted_on : max), parsed.lines[0]!.posted_on);
  return db.transaction(async (tx) => {
    await lockAccount(tx, account);
    const statement = await insertStatement(tx, {
      account, currency, as_of: query.as_of ? asOf : readAsOf(lastDay), balance, filename: file.filename, created_by: actor.profile_id,
    });
    await insertStatementLines(tx, statement.id, account, parsed.lines.map((l) => ({ ...l, amount: toDecimal(l.amount, currency) })));
    const result = { statement: statementToJson(statement), lines: parsed.lines.length, matched: await matchAccount(tx, account) };
    await recordAudit(tx, actor, { action: 'reconciliation.statement', target: 'reconciliation', id: statement.id, after: { account, ...result } });
    return result;
  });
}

/** Matches again the account's unmatched statement lines (after payments or payouts were recorded since). */
export function rematch(db: Db, actor: Actor, account: ChannelId): Promise<number> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, account);
    const matched = await matchAccount(tx, account);
    await recordAudit(tx, actor, { action: 'reconciliation.match', target: 'reconciliation', id: account, after: { matched } });
    return matched;
  });
}

function summaryOf(account: ChannelId, book: { balance: string; lines: number } | undefined, statement: StatementRow | undefined, counts: LineCounts | undefined): ReconciliationSummary {
  const currency = providerCurrency(account);
  const bookMinor = book ? minorOf(book.balance, currency) : 0;
  const lines = book?.lines ?? 0;
  const matched = counts?.matched ?? 0;
  return {
    account, currency,
    book_balance: toDecimal(bookMinor, currency),
    book_lines: lines,
    statement: statement ? statementToJson(statement) : null,
    difference: statement?.balance != null ? toDecimal(bookMinor - minorOf(statement.balance, currency), currency) : null,
    statement_lines: counts?.lines ?? 0,
    matched,
    unmatched_statement_lines: (counts?.lines ?? 0) - matched,
    unmatched_book_lines: lines - matched,
  };
}

/** Every provider account: book balance, latest statement balance, the difference and the counts. */
export async function summaries(db: Db): Promise<ReconciliationSummary[]> {
  const [books, statements, counts] = await Promise.all([bookBalances(db), latestStatements(db), statementCounts(db)]);
  return PROVIDER_ACCOUNTS.map((account) => summaryOf(
    account,
    books.find((b) => b.account === account && b.currency === providerCurrency(account)),
    statements.find((s) => s.account === account),
    counts.find((c) => c.account === account),
  ));
}

const iso = (value: string | Date) => new Date(value).toISOString();

function bookLineToJson(r: BookLineRow, currency: Currency): BookLine {
  return {
    id: Number(r.id), entry_id: Number(r.entry_id), kind: r.kind, reference: r.reference, amount: amountText(r.amount, currency), created_at: iso(r.created_at),
    transfer: r.transfer_id ? {
      id: r.transfer_id, reference: r.transfer_reference!, sender_name: r.sender_name,
      amount: amountText(r.transfer_amount!, r.transfer_currency!), total: amountText(r.transfer_total!, r.transfer_currency!), currency: r.transfer_currency!,
      payout_amount: amountText(r.payout_amount!, r.payout_currency!), payout_currency: r.payout_currency!, status: r.transfer_status!,
    } : null,
  };
}

function statementLineToJson(r: StatementLineRow, currency: Currency): StatementLine {
  return {
    id: Number(r.id), statement_id: r.statement_id, posted_on: r.posted_on, reference: r.reference, description: r.description,
    amount: amountText(r.amount, currency),
  };
}

/** One account in full: the summary, the totals that explain the difference, and the newest lines of each list. */
export async function accountView(db: Db, account: ChannelId, limit: number): Promise<ReconciliationView> {
  const currency = providerCurrency(account);
  const [books, statements, counts, book, statement, matched] = await Promise.all([
    bookBalances(db), latestStatements(db, account), statementCounts(db, account),
    unmatchedBookLines(db, account, currency, limit), unmatchedStatement(db, account, limit), matchedLines(db, account, limit),
  ]);
  const summary = summaryOf(account, books.find((b) => b.account === account && b.currency === currency), statements[0], counts[0]);
  const bookMinor = minorOf(summary.book_balance, currency);
  const unmatchedBook = bookMinor - minorOf(counts[0]?.matched_total ?? '0', currency);
  const unmatchedStatementTotal = minorOf(counts[0]?.unmatched_total ?? '0', currency);
  return {
    ...summary,
    unmatched_book_total: toDecimal(unmatchedBook, currency),
    unmatched_statement_total: toDecimal(unmatchedStatementTotal, currency),
    unexplained: summary.difference === null ? null
      : toDecimal(minorOf(summary.difference, currency) - (unmatchedBook - unmatchedStatementTotal), currency),
    limit,
    unmatched_book: book.map((b) => bookLineToJson(b, currency)),
    unmatched_statement: statement.map((l) => statementLineToJson(l, currency)),
    matched_lines: matched.map((m) => ({ statement_line: statementLineToJson(m, currency), book_line: bookLineToJson(m.book, currency) })),
  };
}

/**
 * The money compliance close-outs froze: each transfer's received payment, and the totals per
 * currency, so the books' received money that is owed to no one is explained on the board.
 */
export async function frozenMoney(db: Db): Promise<FrozenMoney> {
  const rows = await frozenTransfers(db);
  const totals = new Map<Currency, { minor: number; count: number }>();
  const transfers = rows.map((r) => {
    const minor = minorOf(r.amount, r.currency);
    const total = totals.get(r.currency) ?? { minor: 0, count: 0 };
    totals.set(r.currency, { minor: total.minor + minor, count: total.count + 1 });
    return { id: r.id, reference: r.reference, account: r.account, currency: r.currency, amount: toDecimal(minor, r.currency), sender_name: r.sender_name, closed_at: r.closed_at.toISOString() };
  });
  return {
    totals: [...totals].map(([currency, t]) => ({ currency, amount: toDecimal(t.minor, currency), count: t.count })).sort((a, b) => a.currency.localeCompare(b.currency)),
    transfers,
  };
}
