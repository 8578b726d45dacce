import { eq, sql } from 'drizzle-orm';
import { normalizeDecimal } from '@core/money.js';
import type { RateKey, RateSet } from '@core/rates.js';
import type { Db, Tx } from '@server/db/client.js';
import { rates } from '@server/db/schema.js';
import { PRICES_CHANNEL } from '@server/lib/price-cache.js';

export type RateRow = typeof rates.$inferSelect;

/** The stored rate set with the time of its newest change (`updatedAt`, shown by the calculator). */
export async function loadRates(db: Db): Promise<RateSet> {
  const rows = await db.select().from(rates);
  let newest = new Date(0);
  const set: Partial<Record<RateKey, string>> = {};
  for (const row of rows) {
    set[row.key as RateKey] = normalizeDecimal(row.value) ?? row.value;
    if (row.updated_at > newest) newest = row.updated_at;
  }
  return { ...(set as Record<RateKey, string>), updatedAt: newest.toISOString() };
}

// ---- the admin's rate edits ----

export async function lockRate(tx: Tx, key: string): Promise<RateRow | null> {
  const [row] = await tx.select().from(rates).where(eq(rates.key, key)).for('update');
  return row ?? null;
}

export async function writeRate(tx: Tx, key: string, value: string, actor: string): Promise<RateRow> {
  const [row] = await tx.insert(rates).values({ key, value, updated_by: actor })
    .onConflictDoUpdate({ target: rates.key, set: { value, updated_by: actor } }).returning();
  return row!;
}

/** Announces a price edit to every process; delivered when (and only if) the transaction commits. */
export async function notifyPriceEdit(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_notify(${PRICES_CHANNEL}, '')`);
}
