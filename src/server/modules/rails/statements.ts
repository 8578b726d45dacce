import { createHash } from 'node:crypto';
import { and, count, desc, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import type { OperatorStatementJson, OperatorStatementResult, StatementDifference } from '@core/api/operator-statements.js';
import { AppError } from '@core/errors.js';
import { csvInvalid } from '@server/lib/csv-refusal.js';
import { parseAmount, toDecimal } from '@core/money.js';
import { parseOperatorStatement, type StatementState } from '@core/operator-statements.js';
import { RAIL_CURRENCY, type AttemptState, type MobileRailId } from '@core/rails.js';
import type { Db } from '@server/db/client.js';
import { operatorStatementRows, operatorStatements, payoutAttempts, transferRequests } from '@server/db/schema.js';
import { recordAudit, type Actor } from '../audit/service.js';

// Operators' statements (docs/rules/payout-rails.md#operator-statements): staff import an
// operator's transaction export for a rail; each row is matched with our payout attempt by
// reference (ours or the operator's id), and what the two sides do not agree on is listed. The
// same file imported again changes nothing.

type StatementRow = typeof operatorStatements.$inferSelect;
type Row = typeof operatorStatementRows.$inferSelect;
type Attempt = Pick<typeof payoutAttempts.$inferSelect, 'id' | 'transfer_id' | 'reference' | 'operator_id' | 'amount' | 'state' | 'created_at' | 'settled_at'> & { transfer_reference: string };

const DAY_MS = 86_400_000;
const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

function statementJson(s: StatementRow, rows: number): OperatorStatementJson {
  return {
    id: s.id, rail: s.rail as MobileRailId, filename: s.filename, period_from: s.period_from.toISOString(), period_to: s.period_to.toISOString(),
    rows, imported_at: s.imported_at.toISOString(),
  };
}

/**
 * Imports an operator's export for a rail: every row checked first (a file with any wrong row is
 * refused whole, each error naming its line and column), then kept with the days it covers.
 * The same file (by its SHA-256) for the same rail is kept once: imported again, it is answered
 * with what it showed, and nothing changes.
 */
export async function importOperatorStatement(db: Db, actor: Actor, rail: MobileRailId, file: { bytes: Uint8Array; text: string; filename: string | null }): Promise<OperatorStatementResult> {
  const currency = RAIL_CURRENCY[rail];
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const [known] = await db.select().from(operatorStatements).where(and(eq(operatorStatements.rail, rail), eq(operatorStatements.sha256, sha256)));
  if (known) return { ...await statementResult(db, known.id), already_imported: true };

  const parsed = parseOperatorStatement(file.text, currency);
  if (!parsed.ok) {
    throw csvInvalid(parsed, currency);
  }
  const times = parsed.rows.map((r) => r.at.getTime());
  const id = await db.transaction(async (tx) => {
    const [statement] = await tx.insert(operatorStatements).values({
      rail, sha256, filename: file.filename, imported_by: actor.profile_id,
      period_from: startOfDay(new Date(Math.min(...times))), period_to: new Date(startOfDay(new Date(Math.max(...times))).getTime() + DAY_MS - 1),
    }).onConflictDoNothing().returning();
    // Imported by someone else a moment ago: theirs stands.
    if (!statement) return null;
    await tx.insert(operatorStatementRows).values(parsed.rows.map((r) => ({
      statement_id: statement.id, line: r.line, transaction_id: r.transaction_id, reference: r.reference,
      amount: toDecimal(r.amount, currency), currency, state: r.state, at: r.at,
    })));
    await recordAudit(tx, actor, { action: 'operator_statement.import', target: 'operator_statement', id: statement.id, after: { rail, filename: file.filename, rows: parsed.rows.length } });
    return statement.id;
  });
  if (id) return { ...await statementResult(db, id), already_imported: false };
  const [theirs] = await db.select().from(operatorStatements).where(and(eq(operatorStatements.rail, rail), eq(operatorStatements.sha256, sha256)));
  return { ...await statementResult(db, theirs!.id), already_imported: true };
}

/** A rail's statements, newest first. */
export async function listOperatorStatements(db: Db, rail: MobileRailId): Promise<OperatorStatementJson[]> {
  const rows = await db.select({ statement: operatorStatements, rows: count(operatorStatementRows.id) })
    .from(operatorStatements).leftJoin(operatorStatementRows, eq(operatorStatementRows.statement_id, operatorStatements.id))
    .where(eq(operatorStatements.rail, rail)).groupBy(operatorStatements.id).orderBy(desc(operatorStatements.imported_at)).limit(50);
  return rows.map((r) => statementJson(r.statement, Number(r.rows)));
}

/** Our states that agree with the operator's. */
const AGREES: Record<StatementState, readonly AttemptState[]> = {
  succeeded: ['succeeded'], failed: ['failed'], pending: ['submitting', 'pending', 'unknown'], reversed: ['reversed'],
};

/**
 * A statement's rows set against our attempts as they stand now: each row matched by our
 * reference or the operator's id; the attempts of the rail that succeeded within the days it
 * covers and are on none of its rows; and every disagreement.
 */
export async function statementResult(db: Db, id: string): Promise<Omit<OperatorStatementResult, 'already_imported'>> {
  const [statement] = await db.select().from(operatorStatements).where(eq(operatorStatements.id, id));
  if (!statement) throw new AppError('not_found');
  const rail = statement.rail as MobileRailId;
  const currency = RAIL_CURRENCY[rail];
  const rows = await db.select().from(operatorStatementRows).where(eq(operatorStatementRows.statement_id, id)).orderBy(operatorStatementRows.line);
  const keys = [...new Set(rows.flatMap((r) => [r.reference, r.transaction_id]).filter((k): k is string => !!k))];
  const columns = {
    id: payoutAttempts.id, transfer_id: payoutAttempts.transfer_id, reference: payoutAttempts.reference, operator_id: payoutAttempts.operator_id,
    amount: payoutAttempts.amount, state: payoutAttempts.state, created_at: payoutAttempts.created_at, settled_at: payoutAttempts.settled_at,
    transfer_reference: transferRequests.reference,
  };
  const attempts: Attempt[] = await db.select(columns).from(payoutAttempts).innerJoin(transferRequests, eq(transferRequests.id, payoutAttempts.transfer_id))
    .where(and(eq(payoutAttempts.rail, rail), or(
      keys.length ? or(inArray(payoutAttempts.reference, keys), inArray(payoutAttempts.operator_id, keys)) : sql`false`,
      and(eq(payoutAttempts.state, 'succeeded'), gte(payoutAttempts.settled_at, statement.period_from), lte(payoutAttempts.settled_at, statement.period_to)),
    )));
  const byKey = new Map<string, Attempt>();
  for (const a of attempts) {
    byKey.set(a.reference, a);
    if (a.operator_id) byKey.set(a.operator_id, a);
  }
  const minor = (amount: string) => parseAmount(amount, currency)!;
  const ours = (a: Attempt) => ({ amount: toDecimal(minor(a.amount), currency), state: a.state, at: (a.settled_at ?? a.created_at).toISOString() });
  const theirs = (r: Row) => ({ amount: toDecimal(minor(r.amount), currency), state: r.state, at: r.at.toISOString(), line: r.line });
  const differences: StatementDifference[] = [];
  const seen = new Set<string>();
  let matched = 0;
  for (const row of rows) {
    const attempt = (row.reference && byKey.get(row.reference)) || (row.transaction_id && byKey.get(row.transaction_id)) || null;
    const facts = {
      reference: attempt?.reference ?? row.reference ?? row.transaction_id, operator_id: attempt?.operator_id ?? row.transaction_id,
      transfer_id: attempt?.transfer_id ?? null, transfer_reference: attempt?.transfer_reference ?? null,
      ours: attempt ? ours(attempt) : null, theirs: theirs(row),
    };
    if (!attempt) { differences.push({ kind: 'not_ours', ...facts }); continue; }
    seen.add(attempt.id);
    matched += 1;
    if (minor(attempt.amount) !== minor(row.amount)) differences.push({ kind: 'amount_differs', ...facts });
    if (!AGREES[row.state as StatementState].includes(attempt.state)) differences.push({ kind: 'state_differs', ...facts });
  }
  for (const a of attempts) {
    if (seen.has(a.id) || a.state !== 'succeeded') continue;
    differences.push({ kind: 'not_on_statement', reference: a.reference, operator_id: a.operator_id, transfer_id: a.transfer_id, transfer_reference: a.transfer_reference, ours: ours(a), theirs: null });
  }
  return { statement: statementJson(statement, rows.length), matched, currency, differences };
}
