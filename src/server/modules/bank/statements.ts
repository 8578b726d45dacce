import { desc, eq, inArray, and, sql } from 'drizzle-orm';
import type { BankStatementJson, BankStatementResult, StatementEntryJson } from '@core/api/bank.js';
import type { StatementOutcome } from '@core/bank.js';
import { AppError } from '@core/errors.js';
import { parseAmount } from '@core/money.js';
import { matchKeys } from '@core/reconciliation.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { bankStatementEntries, bankStatements, payoutAttempts, transferRequests, type AttemptStep } from '@server/db/schema.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { recordPayment, recordRailPayout, recordRailReturn } from '../transfers/service.js';
import { CamtReader, type CamtLine } from './camt.js';

// Bank statements (docs/rules/bank-rail.md#statements): each booked line of a camt.053 or
// camt.054 settles or returns a payout of ours by its EndToEndId, records a sender's payment by
// the transfer reference its remittance names, or is listed as unmatched. A line is known by the
// bank's own reference: read again, in the same statement or in another, it changes nothing.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/** What one line did, as the entry row keeps it. */
interface Outcome {
  outcome: StatementOutcome;
  transfer_id?: string | null;
  flagged?: boolean;
  note?: string | null;
}

/** The line's key: the bank's reference of it, else its place in this message. */
function entryKey(msgId: string, line: CamtLine): string {
  return line.bankReference
    ? `ref:${line.bankReference}:${line.credit ? 'C' : 'D'}:${line.endToEndId ?? ''}`
    : `pos:${msgId}:${line.position}`;
}

/** A step the statement writes on an attempt: the bank's reference and code, the state it left. */
function statementStep(line: CamtLine, state: 'succeeded' | 'reversed', msgId: string): AttemptStep {
  return { at: new Date().toISOString(), call: 'bank_statement', http_status: null, operator_code: line.returnReason, message: `${msgId} ${line.bankReference ?? line.position}`, state };
}

async function lockAttempt(tx: Tx, endToEndId: string | null) {
  if (!endToEndId) return undefined;
  const [attempt] = await tx.select().from(payoutAttempts)
    .where(and(eq(payoutAttempts.reference, endToEndId), eq(payoutAttempts.rail, 'sepa_france'))).for('update');
  return attempt;
}

async function moveAttempt(tx: Tx, id: string, state: 'succeeded' | 'reversed', step: AttemptStep, bankReference: string | null) {
  await tx.update(payoutAttempts).set({
    state, operator_id: bankReference ?? undefined, steps: sql`${payoutAttempts.steps} || ${JSON.stringify([step])}::jsonb`,
    updated_at: new Date(), settled_at: new Date(),
  }).where(eq(payoutAttempts.id, id));
}

/** A booked debit: the bank paid one of our payouts. */
async function settle(ctx: Ctx, tx: Tx, line: CamtLine, minor: number, msgId: string): Promise<Outcome> {
  const attempt = await lockAttempt(tx, line.endToEndId);
  if (!attempt) return { outcome: 'unmatched', note: 'no payout of ours has this EndToEndId' };
  if (attempt.state === 'failed') return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: 'paid from a cancelled bank file: this transfer may be paid twice' };
  if (attempt.state !== 'pending') return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: `the payout is already ${attempt.state}` };
  if (parseAmount(attempt.amount, 'EUR') !== minor) return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: `the bank paid another amount than the payout's ${attempt.amount}` };
  await moveAttempt(tx, attempt.id, 'succeeded', statementStep(line, 'succeeded', msgId), line.bankReference);
  await recordRailPayout(ctx, tx, attempt.transfer_id, line.bankReference ?? attempt.reference);
  return { outcome: 'settled', transfer_id: attempt.transfer_id };
}

/** A credit with a return reason: the bank sent one of our payouts back. */
async function giveBack(ctx: Ctx, tx: Tx, line: CamtLine, msgId: string): Promise<Outcome> {
  const attempt = await lockAttempt(tx, line.endToEndId);
  if (!attempt) return { outcome: 'unmatched', flagged: true, note: 'a return naming no payout of ours' };
  if (attempt.state !== 'pending' && attempt.state !== 'succeeded') {
    return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: `a return of a payout that is ${attempt.state}` };
  }
  // A return read before the payment it returns: the payment happened, so it is booked first.
  if (attempt.state === 'pending') await recordRailPayout(ctx, tx, attempt.transfer_id, line.bankReference ?? attempt.reference);
  await moveAttempt(tx, attempt.id, 'reversed', statementStep(line, 'reversed', msgId), line.bankReference);
  await recordRailReturn(ctx, tx, attempt.transfer_id, line.bankReference ?? attempt.reference, line.returnReason);
  return { outcome: 'returned', transfer_id: attempt.transfer_id };
}

/** A credit naming a transfer that awaits its payment: recorded received by the importing staff member, as by hand. */
async function payment(ctx: Ctx, tx: Tx, actor: Actor, line: CamtLine, msgId: string): Promise<Outcome> {
  const { transfers } = matchKeys({ reference: line.endToEndId, description: line.remittance });
  if (transfers.length === 0) return { outcome: 'unmatched', note: 'names no transfer reference' };
  const [row] = await tx.select({ id: transferRequests.id, total: transferRequests.total }).from(transferRequests)
    .where(and(inArray(transferRequests.reference, transfers), eq(transferRequests.payment_status, 'awaiting'), eq(transferRequests.currency, 'EUR')));
  if (!row) return { outcome: 'unmatched', note: 'names no transfer awaiting a payment in euros' };
  try {
    await recordPayment(ctx, actor, row.id, { amount: line.amount, reference: line.bankReference ?? msgId }, tx);
  } catch (error) {
    if (error instanceof AppError) return { outcome: 'unmatched', transfer_id: row.id, flagged: true, note: `not recorded: ${error.code}` };
    throw error;
  }
  return { outcome: 'payment', transfer_id: row.id, flagged: parseAmount(row.total, 'EUR') !== parseAmount(line.amount, 'EUR') };
}

/** What a line is without looking anything up: not in euros, or money in naming no transfer; null when it needs a lookup. */
function quickOutcome(line: CamtLine): Outcome | null {
  const minor = line.currency === 'EUR' ? parseAmount(line.amount, 'EUR') : null;
  if (minor === null || minor <= 0) return { outcome: 'unmatched', flagged: true, note: 'not an amount in euros' };
  if (line.credit && !line.returnReason && !line.reversal && matchKeys({ reference: line.endToEndId, description: line.remittance }).transfers.length === 0) {
    return { outcome: 'unmatched', note: 'names no transfer reference' };
  }
  return null;
}

/** Inserts the lines not read before (their key free), as their quick outcome or unmatched for now: key → row id. */
async function claim(tx: Tx, statementId: string, lines: { line: CamtLine; key: string; quick: Outcome | null }[]): Promise<Map<string, number>> {
  const claimed = new Map<string, number>();
  for (let i = 0; i < lines.length; i += 1000) {
    const rows = await tx.insert(bankStatementEntries).values(lines.slice(i, i + 1000).map(({ line, key, quick }) => ({
      statement_id: statementId, entry_key: key, outcome: quick?.outcome ?? 'unmatched', flagged: quick?.flagged ?? false, note: quick?.note ?? null,
      // An amount the bank wrote unreadably is kept as 0 (the line is flagged and its text is the bank's).
      credit: line.credit, amount: parseAmount(line.amount, 'EUR') === null ? '0' : line.amount, currency: line.currency.slice(0, 3), booked_on: line.bookedOn, end_to_end_id: line.endToEndId,
      remittance: line.remittance?.slice(0, 500) ?? null, return_reason: line.returnReason,
    }))).onConflictDoNothing().returning({ id: bankStatementEntries.id, key: bankStatementEntries.entry_key });
    for (const r of rows) claimed.set(r.key, r.id);
  }
  return claimed;
}

async function matchLine(ctx: Ctx, tx: Tx, actor: Actor, line: CamtLine, msgId: string): Promise<Outcome> {
  const minor = line.currency === 'EUR' ? parseAmount(line.amount, 'EUR') : null;
  if (minor === null || minor <= 0) return { outcome: 'unmatched', flagged: true, note: 'not an amount in euros' };
  if (!line.credit) return line.reversal ? { outcome: 'unmatched', flagged: true, note: 'a reversal of an earlier credit' } : settle(ctx, tx, line, minor, msgId);
  if (line.returnReason || line.reversal) return giveBack(ctx, tx, line, msgId);
  return payment(ctx, tx, actor, line, msgId);
}

function entryJson(e: typeof bankStatementEntries.$inferSelect & { transfer_reference: string | null }): StatementEntryJson {
  return {
    outcome: e.outcome, credit: e.credit, amount: e.amount, currency: e.currency, booked_on: e.booked_on, end_to_end_id: e.end_to_end_id,
    remittance: e.remittance, return_reason: e.return_reason, transfer_reference: e.transfer_reference, flagged: e.flagged, note: e.note,
  };
}

/** How many lines are matched in one go while the rest of the file arrives. */
const BATCH = 2000;

/**
 * POST /api/bank/statements (staff): reads the statement as it arrives and matches each booked
 * line in one transaction with the statement; audited. Lines already read before change nothing
 * and are counted apart.
 */
export async function importBankStatement(ctx: Ctx, actor: Actor, pieces: AsyncIterable<Buffer | string>, filename: string | null): Promise<BankStatementResult> {
  const reader = new CamtReader();
  return ctx.db.transaction(async (tx) => {
    let statementId: string | null = null;
    const counts = { settled: 0, returned: 0, payments: 0, unmatched: 0, already_imported: 0 };
    const ids: number[] = [];
    const decoder = new TextDecoder('utf-8');
    const flush = async (lines: CamtLine[]) => {
      if (lines.length === 0) return;
      if (!statementId) {
        if (!reader.msgId || !reader.kind) throw new AppError('bank_statement_invalid');
        statementId = await statementOf(tx, actor, reader.msgId, reader.kind, filename);
      }
      // Each line is claimed by its key in one insert per batch; what needs no lookup is written
      // as it ends at once, the rest is matched one by one and its outcome written after.
      const prepared = lines.map((line) => ({ line, key: entryKey(reader.msgId!, line), quick: quickOutcome(line) }));
      const claimed = await claim(tx, statementId, prepared);
      counts.already_imported += lines.length - claimed.size;
      for (const { line, key, quick } of prepared) {
        const id = claimed.get(key);
        if (id === undefined) continue;
        claimed.delete(key);
        const outcome = quick ?? await matchLine(ctx, tx, actor, line, reader.msgId!);
        if (!quick) {
          await tx.update(bankStatementEntries).set({
            outcome: outcome.outcome, transfer_id: outcome.transfer_id ?? null, flagged: outcome.flagged ?? false, note: outcome.note ?? null,
          }).where(eq(bankStatementEntries.id, id));
        }
        counts[outcome.outcome === 'payment' ? 'payments' : outcome.outcome]++;
        ids.push(id);
      }
    };
    let waiting: CamtLine[] = [];
    for await (const piece of pieces) {
      reader.write(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
      waiting.push(...reader.take());
      if (waiting.length >= BATCH) {
        await flush(waiting);
        waiting = [];
      }
    }
    reader.write(decoder.decode());
    const { kind, msgId } = reader.close();
    await flush([...waiting, ...reader.take()]);
    statementId ??= await statementOf(tx, actor, msgId, kind, filename);
    await recordAudit(tx, actor, { action: 'bank_statement.import', target: 'bank_statement', id: statementId, after: { msg_id: msgId, kind, ...counts } });
    // The answer lists what this import did (settled, returned, paid, unmatched), at most 1,000 lines.
    const entries = ids.length === 0 ? [] : await entryRows(tx, ids.slice(0, 1000));
    return { id: statementId, msg_id: msgId, kind, ...counts, entries: entries.map(entryJson) };
  });
}

/** The statement's row, made at its first reading; a statement read again keeps its first row. */
async function statementOf(tx: Tx, actor: Actor, msgId: string, kind: 'camt.053' | 'camt.054', filename: string | null): Promise<string> {
  const [made] = await tx.insert(bankStatements).values({ msg_id: msgId, kind, filename, imported_by: actor.profile_id }).onConflictDoNothing().returning({ id: bankStatements.id });
  if (made) return made.id;
  const [kept] = await tx.select({ id: bankStatements.id }).from(bankStatements).where(eq(bankStatements.msg_id, msgId));
  return kept!.id;
}

function entryRows(tx: Db | Tx, ids: number[]) {
  return tx.select({ entry: bankStatementEntries, transfer_reference: transferRequests.reference }).from(bankStatementEntries)
    .leftJoin(transferRequests, eq(transferRequests.id, bankStatementEntries.transfer_id))
    .where(inArray(bankStatementEntries.id, ids)).orderBy(bankStatementEntries.id)
    .then((rows) => rows.map((r) => ({ ...r.entry, transfer_reference: r.transfer_reference })));
}

const countOf = (outcome: StatementOutcome) =>
  sql<number>`(select count(*)::int from bank_statement_entries e where e.statement_id = "bank_statements"."id" and e.outcome = ${outcome})`;

/** GET /api/bank/statements: the newest 100 statements imported, with what their lines did (staff). */
export async function listBankStatements(ctx: Ctx): Promise<BankStatementJson[]> {
  const rows = await ctx.db.select({
    id: bankStatements.id, msg_id: bankStatements.msg_id, kind: bankStatements.kind, filename: bankStatements.filename, imported_at: bankStatements.imported_at,
    settled: countOf('settled'), returned: countOf('returned'), payments: countOf('payment'), unmatched: countOf('unmatched'),
  }).from(bankStatements).orderBy(desc(bankStatements.imported_at)).limit(100);
  return rows.map((r) => ({ ...r, imported_at: r.imported_at.toISOString() }));
}

/** GET /api/bank/statements/{id}/entries: a statement's lines and what each did, at most 1,000 (staff). */
export async function statementEntries(ctx: Ctx, id: string): Promise<StatementEntryJson[]> {
  const rows = await ctx.db.select({ id: bankStatementEntries.id }).from(bankStatementEntries).where(eq(bankStatementEntries.statement_id, id)).orderBy(bankStatementEntries.id).limit(1000);
  return rows.length === 0 ? [] : (await entryRows(ctx.db, rows.map((r) => r.id))).map(entryJson);
}
