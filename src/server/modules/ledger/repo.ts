import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { NUMBERED_ENTRY_KINDS, type EntryKind, type LedgerLine } from '@core/ledger.js';
import type { Db, Tx } from '@server/db/client.js';
import { ledgerBalances, ledgerEntries, ledgerLines } from '@server/db/schema.js';

// The journal's SQL. Entries and lines are only ever inserted (the database refuses the rest);
// balances come from ledger_balances, which a trigger keeps in the inserting transaction.

export interface NewEntry {
  transferId: string | null;
  kind: EntryKind;
  reference: string | null;
  actorId: string | null;
  lines: LedgerLine[];
  /** The number it takes when it answers an entry of another kind (a duplicate's refund takes its payment's); else the next of its kind. */
  sequence?: number;
}

/**
 * Writes an entry and its lines. A payout, fee, reversal or money received twice takes the next
 * number of its kind for the transfer (the transfer's row is locked by the step); the database
 * refuses a payout or fee numbered again before the previous one was reversed.
 */
export async function insertEntry(tx: Tx, entry: NewEntry): Promise<number> {
  const sequence = entry.sequence ?? (entry.transferId && NUMBERED_ENTRY_KINDS.includes(entry.kind)
    ? sql<number>`(select coalesce(max(${ledgerEntries.sequence}), 0) + 1 from ${ledgerEntries}
        where ${ledgerEntries.transfer_request_id} = ${entry.transferId} and ${ledgerEntries.kind} = ${entry.kind})`
    : 1);
  const [row] = await tx.insert(ledgerEntries).values({
    transfer_request_id: entry.transferId, kind: entry.kind, reference: entry.reference, actor_profile_id: entry.actorId, sequence,
  }).returning({ id: ledgerEntries.id });
  await tx.insert(ledgerLines).values(entry.lines.map((l) => ({ entry_id: row!.id, ...l })));
  return row!.id;
}

/** The number of the transfer's entry of `kind` carrying `reference` (case and spaces aside), if any. */
export async function entrySequence(tx: Tx, transferId: string, kind: EntryKind, reference: string): Promise<number | null> {
  const [row] = await tx.select({ sequence: ledgerEntries.sequence }).from(ledgerEntries).where(and(
    eq(ledgerEntries.transfer_request_id, transferId), eq(ledgerEntries.kind, kind),
    sql`lower(trim(${ledgerEntries.reference})) = lower(trim(${reference}))`,
  ));
  return row?.sequence ?? null;
}

/** Each account's balance per currency: the sum of its shards. */
export function balanceRows(db: Db) {
  return db.select({
    account: ledgerBalances.account, currency: ledgerBalances.currency,
    debits: sql<string>`sum(${ledgerBalances.debits})::text`, credits: sql<string>`sum(${ledgerBalances.credits})::text`,
    balance: sql<string>`sum(${ledgerBalances.debits} - ${ledgerBalances.credits})::text`,
  }).from(ledgerBalances).groupBy(ledgerBalances.account, ledgerBalances.currency)
    .orderBy(asc(ledgerBalances.currency), asc(ledgerBalances.account));
}

export async function entriesOfTransfer(db: Db, transferId: string) {
  const entries = await db.select().from(ledgerEntries)
    .where(eq(ledgerEntries.transfer_request_id, transferId)).orderBy(asc(ledgerEntries.id));
  if (entries.length === 0) return [];
  const lines = await db.select().from(ledgerLines)
    .where(inArray(ledgerLines.entry_id, entries.map((e) => e.id))).orderBy(asc(ledgerLines.id));
  return entries.map((e) => ({ ...e, lines: lines.filter((l) => l.entry_id === e.id) }));
}

/** Per currency, every account's balance summed: zero while the books balance. */
export function currencyTotals(db: Db) {
  return db.select({ currency: ledgerBalances.currency, sum: sql<string>`sum(${ledgerBalances.debits} - ${ledgerBalances.credits})::text` })
    .from(ledgerBalances).groupBy(ledgerBalances.currency).orderBy(asc(ledgerBalances.currency));
}

/** Per currency: payments received (customer funds' credits), fees earned and refunds owed (their net credits). */
export function moneyTotalRows(db: Db) {
  const credit = (account: string) => sql<string>`coalesce(sum(${ledgerBalances.credits} - ${ledgerBalances.debits}) filter (where ${ledgerBalances.account} = ${account}), 0)::text`;
  return db.select({
    currency: ledgerBalances.currency,
    received: sql<string>`coalesce(sum(${ledgerBalances.credits}) filter (where ${ledgerBalances.account} = 'customer_funds'), 0)::text`,
    fees_earned: credit('fee_revenue'),
    refunds_owed: credit('refunds_payable'),
  }).from(ledgerBalances).groupBy(ledgerBalances.currency).orderBy(asc(ledgerBalances.currency));
}

/** No transfer, in insertEntries' join: an equality PostgreSQL can hash, where `is not distinct from` compared every pair (6,000 entries: seconds). */
const NO_TRANSFER = sql`'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * `insertEntry` for many entries at once (a bank statement's payouts), in two statements: the
 * entries, each numbered as `insertEntry` numbers it (at most one entry of a kind per transfer
 * here), then all their lines.
 */
export async function insertEntries(tx: Tx, entries: readonly NewEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const values = entries.map((e, n) => ({ n, t: e.transferId, k: e.kind, r: e.reference, a: e.actorId, numbered: !!e.transferId && NUMBERED_ENTRY_KINDS.includes(e.kind) }));
  const { rows } = await tx.execute<{ id: number; n: number }>(sql`
    with v as (select * from json_to_recordset(${JSON.stringify(values)}::json) as v(n int, t uuid, k text, r text, a uuid, numbered boolean)),
    made as (insert into ledger_entries (transfer_request_id, kind, reference, actor_profile_id, sequence)
      select v.t, v.k, v.r, v.a, case when v.numbered then (select coalesce(max(e.sequence), 0) + 1 from ledger_entries e
        where e.transfer_request_id = v.t and e.kind = v.k) else 1 end
      from v order by v.n
      returning id, transfer_request_id, kind)
    select made.id, v.n from made join v on coalesce(v.t, ${NO_TRANSFER}) = coalesce(made.transfer_request_id, ${NO_TRANSFER}) and v.k = made.kind`);
  const idOf = new Map(rows.map((r) => [Number(r.n), Number(r.id)]));
  const lines = entries.flatMap((e, n) => e.lines.map((l) => ({ e: idOf.get(n)!, ...l })));
  await tx.execute(sql`insert into ledger_lines (entry_id, account, currency, amount)
    select l.e, l.account, l.currency, l.amount::numeric from json_to_recordset(${JSON.stringify(lines)}::json) as l(e bigint, account text, currency text, amount text)`);
}
