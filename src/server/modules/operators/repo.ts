import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { operatorPrefixes } from '@server/db/schema.js';
import { PRICES_CHANNEL } from '@server/lib/price-cache.js';

// The operators' number ranges (docs/rules/corridors.md#phone-country-rules), as stored.

export type OperatorPrefixRow = typeof operatorPrefixes.$inferSelect;

/** Every range, by channel then prefix. */
export function listPrefixes(db: Db | Tx): Promise<OperatorPrefixRow[]> {
  return db.select().from(operatorPrefixes).orderBy(asc(operatorPrefixes.channel), asc(operatorPrefixes.prefix));
}

export async function findPrefix(db: Db | Tx, id: string): Promise<OperatorPrefixRow | null> {
  const [row] = await db.select().from(operatorPrefixes).where(eq(operatorPrefixes.id, id));
  return row ?? null;
}

/**
 * Serializes the edits of one channel's ranges until the transaction ends, so two admins cannot
 * both add overlapping ranges or both delete its last two.
 */
export async function lockChannel(tx: Tx, channel: string): Promise<OperatorPrefixRow[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`operator_prefixes:${channel}`}))`);
  return tx.select().from(operatorPrefixes).where(eq(operatorPrefixes.channel, channel));
}

export async function insertPrefix(tx: Tx, values: { channel: string; operator: string; prefix: string }, by: string): Promise<OperatorPrefixRow> {
  const [row] = await tx.insert(operatorPrefixes).values({ ...values, updated_by: by }).returning();
  return row!;
}

export async function replacePrefix(tx: Tx, id: string, values: { operator: string; prefix: string }, by: string): Promise<OperatorPrefixRow> {
  const [row] = await tx.update(operatorPrefixes).set({ ...values, updated_by: by })
    .where(eq(operatorPrefixes.id, id)).returning();
  return row!;
}

export async function removePrefix(tx: Tx, id: string): Promise<void> {
  await tx.delete(operatorPrefixes).where(eq(operatorPrefixes.id, id));
}

/** Every process drops its copy of the published table when the edit commits (docs/decisions/016). */
export async function notifyTableEdit(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_notify(${PRICES_CHANNEL}, '')`);
}
