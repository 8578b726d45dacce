import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { EntryKind, LedgerLine } from '@core/ledger.js';
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
}

export async function insertEntry(tx: Tx, entry: NewEntry): Promise<number> {
  const [row] = await tx.insert(ledgerEntries).values({
    transfer_request_id: entry.transferId, kind: entry.kind, reference: entry.reference, actor_profile_id: entry.actorId,
  }).returning({ id: ledgerEntries.id });
  await tx.insert(ledgerLines).values(entry.lines.map((l) => ({ entry_id: row!.id, ...l })));
  return row!.id;
}

export function balanceRows(db: Db) {
  return db.select({
    account: ledgerBalances.account, currency: ledgerBalances.currency,
    debits: ledgerBalances.debits, credits: ledgerBalances.credits,
    balance: sql<string>`(${ledgerBalances.debits} - ${ledgerBalances.credits})::text`,
  }).from(ledgerBalances).orderBy(asc(ledgerBalances.currency), asc(ledgerBalances.account));
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
