import { asc, eq } from 'drizzle-orm';
import type { Corridor, FeeTier } from '@core/fees.js';
import type { DirectionId } from '@core/channels.js';
import type { Db } from '@server/db/client.js';
import { corridors, feeTiers } from '@server/db/schema.js';

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

export async function listCorridors(db: Db): Promise<Corridor[]> {
  return (await db.select({
    direction: corridors.direction, min_amount: corridors.min_amount, max_amount: corridors.max_amount,
    processing_time: corridors.processing_time,
  }).from(corridors).orderBy(asc(corridors.direction))) as Corridor[];
}
