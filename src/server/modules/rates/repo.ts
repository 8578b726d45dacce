import { eq, sql } from 'drizzle-orm';
import { normalizeDecimal } from '@core/money.js';
import { DEFAULT_RATE_MAX_AGE_HOURS, type RateKey, type RateSet } from '@core/rates.js';
import type { Db, Tx } from '@server/db/client.js';
import { rates, settings } from '@server/db/schema.js';
import { PRICES_CHANNEL } from '@server/lib/price-cache.js';

export type RateRow = typeof rates.$inferSelect;

/** The stored rate set with the time of its newest change (`updatedAt`, shown by the calculator). */
export async function loadRates(db: Db): Promise<RateSet> {
  const [rows, maxAge] = await Promise.all([
    db.select().from(rates),
    db.select({ value: settings.value }).from(settings).where(eq(settings.key, RATE_MAX_AGE_SETTING)),
  ]);
  let newest = new Date(0);
  const set: Partial<Record<RateKey, string>> = {};
  const references: Partial<Record<RateKey, string>> = {};
  const updated: Partial<Record<RateKey, string>> = {};
  for (const row of rows) {
    const key = row.key as RateKey;
    set[key] = normalizeDecimal(row.value) ?? row.value;
    if (row.reference !== null) references[key] = normalizeDecimal(row.reference) ?? row.reference;
    updated[key] = row.updated_at.toISOString();
    if (row.updated_at > newest) newest = row.updated_at;
  }
  const hours = Number(maxAge[0]?.value);
  return {
    ...(set as Record<RateKey, string>), updatedAt: newest.toISOString(), references, updated,
    maxAgeHours: Number.isInteger(hours) && hours > 0 ? hours : DEFAULT_RATE_MAX_AGE_HOURS,
  };
}

/** The settings row holding the rates' maximum age in hours (absent: the default). */
export const RATE_MAX_AGE_SETTING = 'rates.max_age_hours';

export async function writeMaxAge(tx: Tx, hours: number): Promise<void> {
  await tx.insert(settings).values({ key: RATE_MAX_AGE_SETTING, value: String(hours) })
    .onConflictDoUpdate({ target: settings.key, set: { value: String(hours) } });
}

// ---- the admin's rate edits ----

export function listRateRows(db: Db): Promise<RateRow[]> {
  return db.select().from(rates);
}

export async function lockRate(tx: Tx, key: string): Promise<RateRow | null> {
  const [row] = await tx.select().from(rates).where(eq(rates.key, key)).for('update');
  return row ?? null;
}

/** Sets ours and, when given, the reference and its source; the rate's age starts again. */
export async function writeRate(
  tx: Tx, key: string, value: string, actor: string | null, reference?: { value: string | null; source: string },
): Promise<RateRow> {
  const set = { value, updated_by: actor, updated_at: new Date(), ...(reference ? { reference: reference.value, source: reference.source } : {}) };
  const [row] = await tx.insert(rates).values({ key, ...set })
    .onConflictDoUpdate({ target: rates.key, set }).returning();
  return row!;
}

/** Announces a price edit to every process; delivered when (and only if) the transaction commits. */
export async function notifyPriceEdit(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_notify(${PRICES_CHANNEL}, '')`);
}
