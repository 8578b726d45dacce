import { close, createReadStream, createWriteStream, open, type ReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { desc, eq, and, sql } from 'drizzle-orm';
import type { BankStatementJson, BankStatementResult, StatementEntryJson, UnmatchedBankLines } from '@core/api/bank.js';
import type { StatementOutcome } from '@core/bank.js';
import { parseAmount } from '@core/money.js';
import { matchKeys } from '@core/reconciliation.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { rowsOf } from '@server/db/prepared.js';
import { bankStatementEntries, bankStatements, payoutAttempts, transferRequests, type AttemptStep } from '@server/db/schema.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { lockForPayments, recordPayments, recordRailPayouts, recordRailReturns, type DeferredSteps, type PayableTransfer } from '../transfers/service.js';
import { CamtReader, type CamtLine } from './camt.js';
import { queueStatementMails } from './statement-mails.js';

// Bank statements (docs/rules/bank-rail.md#statements): each booked line of a camt.053 or
// camt.054 settles or returns a payout of ours by its EndToEndId, records a sender's payment by
// the transfer reference its remittance names, or is listed as unmatched. A line is known by the
// bank's own reference: read again, in the same statement or in another, it changes nothing.

type Ctx = Pick<AppContext, 'config' | 'db'>;

const openFile = promisify(open);
const closeFile = promisify(close);

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

/** What matching reads of an attempt (its steps, the largest column, are appended to in SQL). */
type Attempt = Pick<typeof payoutAttempts.$inferSelect, 'id' | 'transfer_id' | 'reference' | 'state' | 'amount'>;
const attemptFields = { id: payoutAttempts.id, transfer_id: payoutAttempts.transfer_id, reference: payoutAttempts.reference, state: payoutAttempts.state, amount: payoutAttempts.amount };
/** A statement's 40,000 attempts read without drizzle's mapping of each column. */
const attemptRows = rowsOf<Attempt>(attemptFields);
type Awaiting = { id: string; total: string };

/**
 * What a batch of lines may touch, read in three queries instead of some per line: the attempts
 * its EndToEndIds name (locked), the transfers awaiting a payment in euros its remittances name,
 * and those transfers locked with what a payment recorded by the importer would be refused for
 * (each list one array parameter: a parameter per value cost the query builder more than the query).
 * The lines are then matched in order against these, each outcome kept here as it is decided, so
 * a later line of the batch sees what an earlier one did (an attempt settled, a payment recorded).
 */
class BatchState {
  private constructor(private readonly attempts: Map<string, Attempt>, private readonly awaiting: Map<string, Awaiting>, private readonly payable: Map<string, PayableTransfer>) {}

  static async read(ctx: Ctx, tx: Tx, actor: Actor | null, lines: CamtLine[]): Promise<BatchState> {
    const ends = [...new Set(lines.filter((l) => (!l.credit || l.returnReason || l.reversal) && l.endToEndId).map((l) => l.endToEndId!))];
    const names = [...new Set(lines.filter((l) => l.credit && !l.returnReason && !l.reversal).flatMap(transfersNamed))];
    const attempts = ends.length === 0 ? [] : await attemptRows(tx, tx.select(attemptFields).from(payoutAttempts)
      .where(and(sql`${payoutAttempts.reference} = any(${sql.param(ends)}::text[])`, eq(payoutAttempts.rail, 'sepa_france'))).orderBy(payoutAttempts.id).for('update')).execute();
    const awaiting = names.length === 0 ? [] : await tx.select({ id: transferRequests.id, total: transferRequests.total, reference: transferRequests.reference })
      .from(transferRequests).where(and(sql`${transferRequests.reference} = any(${sql.param(names)}::text[])`, eq(transferRequests.payment_status, 'awaiting'), eq(transferRequests.currency, 'EUR')));
    const payable = awaiting.length === 0 ? new Map<string, PayableTransfer>() : await lockForPayments(ctx, actor, tx, awaiting.map((r) => r.id));
    return new BatchState(new Map(attempts.map((a) => [a.reference, a])), new Map(awaiting.map((r) => [r.reference, { id: r.id, total: r.total }])), payable);
  }

  /** The transfer locked for a payment, with what would refuse one. */
  payableOf(id: string): PayableTransfer | undefined {
    return this.payable.get(id);
  }

  attempt(endToEndId: string | null): Attempt | undefined {
    return endToEndId ? this.attempts.get(endToEndId) : undefined;
  }

  moved(attempt: Attempt, state: 'succeeded' | 'reversed') {
    this.attempts.set(attempt.reference, { ...attempt, state });
  }

  /** The first transfer named that still awaits its payment. */
  awaitingOf(names: string[]): (Awaiting & { reference: string }) | undefined {
    for (const reference of names) {
      const row = this.awaiting.get(reference);
      if (row) return { ...row, reference };
    }
    return undefined;
  }

  paid(reference: string) {
    this.awaiting.delete(reference);
  }
}

/** The transfer references a credit names, by its EndToEndId or its remittance text. */
const transfersNamed = (line: CamtLine) => matchKeys({ reference: line.endToEndId, description: line.remittance }).transfers;

/**
 * What the batch's matched lines write, kept until written together (writeAll): payouts settled,
 * payouts returned, payments received. A transfer is in each at most once; a line that would
 * touch one again has what is kept written first.
 */
class Writes {
  /** Payouts booked; `step` null for a payout whose return follows at once (its attempt moves only to reversed). */
  readonly settled: { attempt: Attempt; step: AttemptStep | null; bankReference: string | null }[] = [];
  readonly returned: { attempt: Attempt; step: AttemptStep; bankReference: string | null; reason: string | null }[] = [];
  readonly payments: { row: PayableTransfer['row']; body: { amount: string; reference: string } }[] = [];
  readonly settledTransfers = new Set<string>();
  readonly returnedTransfers = new Set<string>();

  /** `mails`: the batch's e-mails about payouts settled and returned, kept to be queued after its commit (statement-mails.ts). */
  constructor(readonly mails: DeferredSteps) {}
}

/** A booked debit: the bank paid one of our payouts. */
function settle(batch: BatchState, writes: Writes, line: CamtLine, minor: number, msgId: string): Outcome {
  const attempt = batch.attempt(line.endToEndId);
  if (!attempt) return { outcome: 'unmatched', note: 'no payout of ours has this EndToEndId' };
  if (attempt.state === 'failed') return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: 'paid from a cancelled bank file: this transfer may be paid twice' };
  if (attempt.state !== 'pending') return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: `the payout is already ${attempt.state}` };
  if (parseAmount(attempt.amount, 'EUR') !== minor) return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: `the bank paid another amount than the payout's ${attempt.amount}` };
  batch.moved(attempt, 'succeeded');
  writes.settled.push({ attempt, step: statementStep(line, 'succeeded', msgId), bankReference: line.bankReference });
  writes.settledTransfers.add(attempt.transfer_id);
  return { outcome: 'settled', transfer_id: attempt.transfer_id };
}

/** A credit with a return reason: the bank sent one of our payouts back. */
function giveBack(batch: BatchState, writes: Writes, line: CamtLine, minor: number, msgId: string): Outcome {
  const attempt = batch.attempt(line.endToEndId);
  if (!attempt) return { outcome: 'unmatched', flagged: true, note: 'a return naming no payout of ours' };
  if (attempt.state !== 'pending' && attempt.state !== 'succeeded') {
    return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: `a return of a payout that is ${attempt.state}` };
  }
  // The books take back the payout's amount: only a return of that amount is one.
  if (parseAmount(attempt.amount, 'EUR') !== minor) return { outcome: 'unmatched', transfer_id: attempt.transfer_id, flagged: true, note: `the bank returned another amount than the payout's ${attempt.amount}` };
  // A return read before the payment it returns: the payment happened, so it is booked first.
  if (attempt.state === 'pending') {
    writes.settled.push({ attempt, step: null, bankReference: line.bankReference });
    writes.settledTransfers.add(attempt.transfer_id);
  }
  batch.moved(attempt, 'reversed');
  writes.returned.push({ attempt, step: statementStep(line, 'reversed', msgId), bankReference: line.bankReference, reason: line.returnReason });
  writes.returnedTransfers.add(attempt.transfer_id);
  return { outcome: 'returned', transfer_id: attempt.transfer_id };
}

/** A credit naming a transfer that awaits its payment: recorded received by the importing staff member, as by hand. */
function payment(batch: BatchState, writes: Writes, line: CamtLine, msgId: string): Outcome {
  const transfers = transfersNamed(line);
  if (transfers.length === 0) return { outcome: 'unmatched', note: 'names no transfer reference' };
  const row = batch.awaitingOf(transfers);
  if (!row) return { outcome: 'unmatched', note: 'names no transfer awaiting a payment in euros' };
  const payable = batch.payableOf(row.id);
  const refusal = payable ? payable.refusal : 'not_found';
  if (refusal || !payable) return { outcome: 'unmatched', transfer_id: row.id, flagged: true, note: `not recorded: ${refusal}` };
  writes.payments.push({ row: payable.row, body: { amount: line.amount, reference: line.bankReference ?? msgId } });
  batch.paid(row.reference);
  return { outcome: 'payment', transfer_id: row.id, flagged: parseAmount(row.total, 'EUR') !== parseAmount(line.amount, 'EUR') };
}

/** Attempts moved by the statement, in one update: their state, the bank's reference (when it gave one) and step. */
async function moveAttempts(tx: Tx, state: 'succeeded' | 'reversed', moves: readonly { attempt: Attempt; step: AttemptStep; bankReference: string | null }[]) {
  if (moves.length === 0) return;
  const values = moves.map(({ attempt, step, bankReference }) => ({ id: attempt.id, operator: bankReference, step: JSON.stringify([step]) }));
  await tx.execute(sql`update payout_attempts a set state = ${state}, operator_id = coalesce(v.operator, a.operator_id), steps = a.steps || v.step::jsonb,
      updated_at = now(), settled_at = now()
    from json_to_recordset(${JSON.stringify(values)}::json) as v(id uuid, operator text, step text) where a.id = v.id`);
}

/**
 * Writes what the batch's lines kept, in their kinds' order: payouts settled (attempts, then their
 * transfers as a rail's success records them), then returns (attempts, then their transfers), then
 * payments received; each kind a few statements for all. The payouts' e-mails are kept in `writes`.
 */
async function writeAll(ctx: Ctx, tx: Tx, actor: Actor | null, writes: Writes) {
  await moveAttempts(tx, 'succeeded', writes.settled.flatMap((s) => (s.step ? [{ ...s, step: s.step }] : [])));
  if (writes.settled.length > 0) {
    await recordRailPayouts(ctx, tx, writes.settled.map(({ attempt, bankReference }) => ({ transferId: attempt.transfer_id, reference: bankReference ?? attempt.reference })), writes.mails);
  }
  await moveAttempts(tx, 'reversed', writes.returned);
  if (writes.returned.length > 0) {
    await recordRailReturns(ctx, tx, writes.returned.map(({ attempt, bankReference, reason }) => ({ transferId: attempt.transfer_id, reference: bankReference ?? attempt.reference, reason })), writes.mails);
  }
  await recordPayments(ctx, actor, tx, writes.payments);
  writes.settled.length = 0;
  writes.returned.length = 0;
  writes.payments.length = 0;
  writes.settledTransfers.clear();
  writes.returnedTransfers.clear();
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

/** Of these line keys, those already written (by an earlier statement or an earlier import). */
async function knownKeys(tx: Tx, keys: string[]): Promise<Set<string>> {
  const { rows } = await tx.execute<{ key: string }>(sql`select entry_key as key from bank_statement_entries where entry_key = any(${sql.param(keys)}::text[])`);
  return new Set(rows.map((r) => r.key));
}

/**
 * Writes the batch's new lines with what each did, under the ids taken for them (lineIds), in one
 * statement whose rows are one JSON parameter (a query builder's row objects cost more than the
 * insert itself). Each line is written once, its outcome decided: an insert and then an update of
 * the lines matched by lookup wrote 40,000 rows twice in a 50,000-line statement.
 */
async function writeLines(tx: Tx, statementId: string, lines: { line: CamtLine; key: string; outcome: Outcome }[], ids: number[]): Promise<void> {
  if (lines.length === 0) return;
  const values = lines.map(({ line, key, outcome: o }, i) => ({
    id: ids[i], k: key, o: o.outcome, t: o.transfer_id ?? null, f: o.flagged ?? false, n: o.note ?? null, c: line.credit,
    // An amount the bank wrote unreadably is kept as 0 (the line is flagged and its text is the bank's).
    a: parseAmount(line.amount, 'EUR') === null ? '0' : line.amount, cur: line.currency.slice(0, 3), b: line.bookedOn, e: line.endToEndId,
    r: line.remittance?.slice(0, 500) ?? null, rr: line.returnReason,
  }));
  await tx.execute(sql`
    insert into bank_statement_entries (id, statement_id, entry_key, outcome, transfer_id, flagged, note, credit, amount, currency, booked_on, end_to_end_id, remittance, return_reason)
    select v.id, ${statementId}::uuid, v.k, v.o, v.t, v.f, v.n, v.c, v.a::numeric, v.cur, v.b::date, v.e, v.r, v.rr
    from json_to_recordset(${JSON.stringify(values)}::json) as v(id bigint, k text, o text, t uuid, f boolean, n text, c boolean, a text, cur text, b text, e text, r text, rr text)`);
}

async function matchLine(ctx: Ctx, tx: Tx, batch: BatchState, writes: Writes, actor: Actor | null, line: CamtLine, msgId: string): Promise<Outcome> {
  const minor = line.currency === 'EUR' ? parseAmount(line.amount, 'EUR') : null;
  if (minor === null || minor <= 0) return { outcome: 'unmatched', flagged: true, note: 'not an amount in euros' };
  if (!line.credit && line.reversal) return { outcome: 'unmatched', flagged: true, note: 'a reversal of an earlier credit' };
  if (!line.credit || line.returnReason || line.reversal) {
    // A transfer is settled or returned at most once per write: a line touching one again waits for what is kept.
    const transfer = batch.attempt(line.endToEndId)?.transfer_id ?? '';
    if (writes.returnedTransfers.has(transfer) || ((!line.credit || batch.attempt(line.endToEndId)?.state === 'pending') && writes.settledTransfers.has(transfer))) {
      await writeAll(ctx, tx, actor, writes);
    }
    return line.credit ? giveBack(batch, writes, line, minor, msgId) : settle(batch, writes, line, minor, msgId);
  }
  return payment(batch, writes, line, msgId);
}

function entryJson(e: typeof bankStatementEntries.$inferSelect & { transfer_reference: string | null }): StatementEntryJson {
  return {
    outcome: e.outcome, credit: e.credit, amount: e.amount, currency: e.currency, booked_on: e.booked_on, end_to_end_id: e.end_to_end_id,
    remittance: e.remittance, return_reason: e.return_reason, transfer_reference: e.transfer_reference, flagged: e.flagged, note: e.note,
  };
}

/** A statement file, uploaded or dropped in the folder: a day's camt.053 of a busy account is a few MB; 50,000 lines take about 40 MB. */
export const MAX_STATEMENT_MB = 60;

/** How many lines are matched in one go. */
const BATCH = 1000;
/** How many batches are matched at once, each in a transaction of its own on a connection of its own. */
const AT_ONCE = 2;

type Counts = { settled: number; returned: number; payments: number; unmatched: number; already_imported: number };

/**
 * POST /api/bank/statements (staff): the statement is read whole first, its lines kept in a
 * temporary file with no name, so a file refused half-way (cut off, not a camt, too large)
 * changes nothing; then its lines are matched, 1,000 at a time, two batches at once, each in a
 * transaction of its own; audited.
 * Lines already read before change nothing and are counted apart: an import stopped half-way (the
 * database lost, say) leaves whole batches written, and the same file imported again does the rest.
 * `actor` null: read from BANK_STATEMENTS_DIR by the system.
 */
export async function importBankStatement(ctx: Ctx, actor: Actor | null, pieces: AsyncIterable<Buffer | string>, filename: string | null): Promise<BankStatementResult> {
  const fd = await unnamedFile();
  let read: { kind: 'camt.053' | 'camt.054'; msgId: string };
  try {
    read = await keepChecked(pieces, fd, ctx.config.BANK_IBAN);
  } catch (error) {
    await closeFile(fd);
    throw error;
  }
  // From here the lines' stream owns the file: it closes it once read, or once left (its read under way done first).
  const lines = createReadStream('', { fd, start: 0, encoding: 'utf8' });
  try {
    return await importKept(ctx, actor, lines, { ...read, filename });
  } finally {
    lines.destroy();
    await finished(lines).catch(() => undefined);
  }
}

/**
 * A temporary file already removed from its folder, by its descriptor: what it holds (senders'
 * names and remittances) is freed when it is closed or the process ends, killed mid-import included.
 */
async function unnamedFile(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'bank-statement-'));
  try {
    return await openFile(join(dir, 'lines.ndjson'), 'w+', 0o600);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Reads the statement to its end, writing its lines to the file `fd` as they are read (one JSON
 * text a line): its kind and id, or `bank_statement_invalid` (also for another account than
 * `iban`, the business's).
 */
async function keepChecked(pieces: AsyncIterable<Buffer | string>, fd: number, iban: string | undefined): Promise<{ kind: 'camt.053' | 'camt.054'; msgId: string }> {
  const reader = new CamtReader(iban);
  const decoder = new TextDecoder('utf-8');
  const out = createWriteStream('', { fd, autoClose: false });
  const keep = async (text: string) => {
    reader.write(text);
    const lines = reader.take();
    if (lines.length > 0 && !out.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(''))) await once(out, 'drain');
  };
  try {
    for await (const piece of pieces) await keep(typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true }));
    await keep(decoder.decode());
    return reader.close();
  } finally {
    out.end();
    await finished(out);
  }
}

/** The statement's lines kept, read from `lines`, matched. */
async function importKept(ctx: Ctx, actor: Actor | null, lines: ReadStream, read: { kind: 'camt.053' | 'camt.054'; msgId: string; filename: string | null }): Promise<BankStatementResult> {
  // One import at a time, for its whole length: a line is looked up by its key before it is
  // matched and written, so two imports side by side could both find a line new and both record it.
  return ctx.db.transaction(async (holder) => {
    await holder.execute(sql`select pg_advisory_xact_lock(hashtext('bank_statement_import'))`);
    // The holder idles while the batches work: a server's idle-in-transaction timeout must not end it.
    await holder.execute(sql`set local idle_in_transaction_session_timeout = 0`);
    const statementId = await ctx.db.transaction((tx) => statementOf(tx, actor, read.msgId, read.kind, read.filename));
    const counts: Counts = { settled: 0, returned: 0, payments: 0, unmatched: 0, already_imported: 0 };
    /** Each batch's new lines' ids, in the statement's order: the answer lists the first 1,000. */
    const ids: number[][] = [];
    /** The lines' keys met so far in this file: a line written twice in it counts once. */
    const seen = new Set<string>();
    /** Settles once the batch started last has locked what it touches: the next one locks after it. */
    let turn: Promise<void> = Promise.resolve();
    const running = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    const start = (batch: CamtLine[]) => {
      const keyed: { line: CamtLine; key: string }[] = [];
      for (const line of batch) {
        const key = entryKey(read.msgId, line);
        if (seen.has(key)) continue;
        seen.add(key);
        keyed.push({ line, key });
      }
      counts.already_imported += batch.length - keyed.length;
      const place = ids.push([]) - 1;
      const after = turn;
      let locked!: () => void;
      turn = new Promise((resolve) => { locked = resolve; });
      const job: Promise<void> = matchBatch(ctx, actor, { statementId, msgId: read.msgId, lines: keyed }, after, locked)
        .then((done) => {
          for (const k of Object.keys(done.counts) as (keyof Counts)[]) counts[k] += done.counts[k];
          ids[place] = done.ids;
        }, (error: unknown) => { failure ??= { error }; })
        .finally(() => {
          locked(); // a batch that failed before its reads lets the next one go on to see the failure
          running.delete(job);
        });
      running.add(job);
    };
    let waiting: CamtLine[] = [];
    const flush = async (all: boolean) => {
      while (!failure && (waiting.length >= BATCH || (all && waiting.length > 0))) {
        while (running.size >= AT_ONCE) await Promise.race(running);
        start(waiting.slice(0, BATCH));
        waiting = waiting.slice(BATCH);
      }
    };
    for await (const text of createInterface({ input: lines, crlfDelay: Infinity })) {
      waiting.push(JSON.parse(text) as CamtLine);
      await flush(false);
      if (failure) break;
    }
    await flush(true);
    await Promise.all(running);
    const audit = (complete: boolean) => ({ action: 'bank_statement.import' as const, target: 'bank_statement' as const, id: statementId, after: { msg_id: read.msgId, kind: read.kind, ...counts, complete } });
    if (failure) {
      // The batches written stay: the audit row says what they did, apart from the holder's
      // transaction, which the error rolls back. The database failing that too, the error is the batch's.
      await ctx.db.transaction((tx) => recordAudit(tx, actor, audit(false))).catch(() => undefined);
      throw (failure as { error: unknown }).error;
    }
    await recordAudit(holder, actor, audit(true));
    const first = ids.flat().slice(0, 1000);
    const entries = first.length === 0 ? [] : await entryRows(holder, first);
    return { id: statementId, msg_id: read.msgId, kind: read.kind, ...counts, entries: entries.map(entryJson) };
  });
}

/** PostgreSQL found two transactions waiting on each other and ended this one: it may run again. */
const deadlocked = (error: unknown) => ((error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code) === '40P01';

/**
 * One batch in a transaction of its own: its lines not written by an earlier import are matched
 * in order against what one read found, then written with their outcomes. It reads and locks what
 * it touches once the batch before it has (`after`), and says when it has (`locked`), so a line
 * meets what every line before it in the file did, as if read one after the other. Two batches
 * whose writes met in the opposite order (the books' or the counts' shared rows) run again: the
 * one run again locks anew, after the batches behind it may have (a return it would have preceded
 * then books the payout first, and its own settling line finds the payout already reversed).
 */
async function matchBatch(
  ctx: Ctx, actor: Actor | null, batch: { statementId: string; msgId: string; lines: { line: CamtLine; key: string }[] },
  after: Promise<void>, locked: () => void,
): Promise<{ counts: Counts; ids: number[] }> {
  for (let tries = 1; ; tries++) {
    try {
      return await ctx.db.transaction(async (tx) => {
        const counts: Counts = { settled: 0, returned: 0, payments: 0, unmatched: 0, already_imported: 0 };
        let state: BatchState;
        let fresh: { line: CamtLine; key: string; quick: Outcome | null }[];
        let ids: number[];
        try {
          await after;
          const known = await knownKeys(tx, batch.lines.map((k) => k.key));
          fresh = batch.lines.filter(({ key }) => !known.has(key)).map(({ line, key }) => ({ line, key, quick: quickOutcome(line) }));
          counts.already_imported = batch.lines.length - fresh.length;
          // The lines' ids taken now, in the batches' order: the statement's lines are listed as the bank wrote them.
          ids = await lineIds(tx, fresh.length);
          state = await BatchState.read(ctx, tx, actor, fresh.filter((f) => !f.quick).map((f) => f.line));
        } finally {
          locked();
        }
        const writes = new Writes([]);
        const matched: { line: CamtLine; key: string; outcome: Outcome }[] = [];
        for (const { line, key, quick } of fresh) {
          const outcome = quick ?? await matchLine(ctx, tx, state, writes, actor, line, batch.msgId);
          matched.push({ line, key, outcome });
          counts[outcome.outcome === 'payment' ? 'payments' : outcome.outcome]++;
        }
        await writeAll(ctx, tx, actor, writes);
        await writeLines(tx, batch.statementId, matched, ids);
        await queueStatementMails(ctx, tx, batch.statementId, writes.mails);
        return { counts, ids };
      });
    } catch (error) {
      if (tries < 3 && deadlocked(error)) continue;
      throw error;
    }
  }
}

/** `n` ids for a batch's new lines, in order. */
async function lineIds(tx: Tx, n: number): Promise<number[]> {
  if (n === 0) return [];
  const { rows } = await tx.execute<{ id: string }>(sql`select nextval('bank_statement_entries_id_seq') as id from generate_series(1, ${n}::int)`);
  return rows.map((r) => Number(r.id));
}

/** The statement's row, made at its first reading; a statement read again keeps its first row. */
async function statementOf(tx: Tx, actor: Actor | null, msgId: string, kind: 'camt.053' | 'camt.054', filename: string | null): Promise<string> {
  const [made] = await tx.insert(bankStatements).values({ msg_id: msgId, kind, filename, imported_by: actor?.profile_id ?? null }).onConflictDoNothing().returning({ id: bankStatements.id });
  if (made) return made.id;
  const [kept] = await tx.select({ id: bankStatements.id }).from(bankStatements).where(eq(bankStatements.msg_id, msgId));
  return kept!.id;
}

function entryRows(tx: Db | Tx, ids: number[]) {
  return tx.select({ entry: bankStatementEntries, transfer_reference: transferRequests.reference }).from(bankStatementEntries)
    .leftJoin(transferRequests, eq(transferRequests.id, bankStatementEntries.transfer_id))
    .where(sql`${bankStatementEntries.id} = any(${sql.param(ids)}::bigint[])`).orderBy(bankStatementEntries.id)
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

/** GET /api/bank/statements/unmatched: the newest booked lines that matched nothing, and how many there are (staff). */
export async function unmatchedBankLines(ctx: Ctx, limit: number): Promise<UnmatchedBankLines> {
  const { rows } = await ctx.db.execute<{ id: string; statement_id: string; msg_id: string; booked_on: string | null; reference: string | null;
    description: string | null; amount: string; currency: string; note: string | null; flagged: boolean; count: number }>(sql`
    select e.id, e.statement_id, s.msg_id, to_char(e.booked_on, 'YYYY-MM-DD') as booked_on, e.end_to_end_id as reference, e.remittance as description,
      (case when e.credit then e.amount else -e.amount end)::text as amount, e.currency, e.note, e.flagged, count(*) over ()::int as count
    from bank_statement_entries e join bank_statements s on s.id = e.statement_id
    where e.outcome = 'unmatched'
    order by e.id desc limit ${limit}`);
  return { count: rows[0]?.count ?? 0, lines: rows.map(({ count: _count, ...r }) => ({ ...r, id: Number(r.id) })) };
}
