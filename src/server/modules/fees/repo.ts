import { and, asc, eq, ne } from 'drizzle-orm';
import type { Corridor, FeeTier } from '@core/fees.js';
import type { DirectionId } from '@core/channels.js';
import type { Db, Tx } from '@server/db/client.js';
import { corridors, feeTiers } from '@server/db/schema.js';

export type TierRow = typeof feeTiers.$inferSelect;
export type StoredFeeTier = FeeTier & { id: string; updated_at: Date };

const tierColumns = {
  id: feeTiers.id, direction: feeTiers.direction, percentage: feeTiers.percentage, min_amount: feeTiers.min_amount,
  max_amount: feeTiers.max_amount, min_fee: feeTiers.min_fee, updated_at: feeTiers.updated_at,
};

export async function listTiers(db: Db, direction?: DirectionId): Promise<StoredFeeTier[]> {
  const query = db.select(tierColumns).from(feeTiers);
  const rows = await (direction ? query.where(eq(feeTiers.direction, direction)) : query)
    .orderBy(asc(feeTiers.direction), asc(feeTiers.min_amount));
  return rows as StoredFeeTier[];
}

/** Every corridor with how long its quotes hold (docs/rules/fees-and-rates.md#a-quote-is-a-promise). */
export async function listCorridors(db: Db): Promise<(Corridor & { quote_minutes: number })[]> {
  return (await db.select({
    direction: corridors.direction, min_amount: corridors.min_amount, max_amount: corridors.max_amount,
    processing_time: corridors.processing_time, quote_minutes: corridors.quote_minutes,
  }).from(corridors).orderBy(asc(corridors.direction))) as (Corridor & { quote_minutes: number })[];
}

// ---- the admin's tier edits ----

/** Locks the direction's corridor row (two admins editing one direction take turns) and answers it. */
export async function lockCorridor(tx: Tx, direction: string): Promise<Corridor | null> {
  const [row] = await tx.select().from(corridors).where(eq(corridors.direction, direction)).for('update');
  return row ? { ...row, direction: row.direction as DirectionId } : null;
}

/** The direction's tiers, but the one being replaced. */
export function tiersOfDirection(tx: Tx, direction: string, except?: string): Promise<TierRow[]> {
  return tx.select().from(feeTiers).where(and(eq(feeTiers.direction, direction), except ? ne(feeTiers.id, except) : undefined));
}

/** The tier, unlocked: to learn its direction, whose corridor is locked before the tier. */
export async function findTier(tx: Tx, id: string): Promise<TierRow | null> {
  const [row] = await tx.select().from(feeTiers).where(eq(feeTiers.id, id));
  return row ?? null;
}

export async function lockTier(tx: Tx, id: string): Promise<TierRow | null> {
  const [row] = await tx.select().from(feeTiers).where(eq(feeTiers.id, id)).for('update');
  return row ?? null;
}

export async function insertTier(tx: Tx, tier: FeeTier, actor: string): Promise<TierRow> {
  const [row] = await tx.insert(feeTiers).values({ ...tier, updated_by: actor }).returning();
  return row!;
}

export async function replaceTier(tx: Tx, id: string, tier: FeeTier, actor: string): Promise<TierRow> {
  const [row] = await tx.update(feeTiers).set({ ...tier, updated_by: actor }).where(eq(feeTiers.id, id)).returning();
  return row!;
}

export async function removeTier(tx: Tx, id: string): Promise<TierRow | null> {
  const [row] = await tx.delete(feeTiers).where(eq(feeTiers.id, id)).returning();
  return row ?? null;
}
