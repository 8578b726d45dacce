import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { kycLimits, profiles } from '@server/db/schema.js';

// Know your sender's SQL: the limits per level (three rows), and what a sender's level is read
// from. What their transfers add up to is the transfers' (transfers/repo.ts countedUsage).

export type LimitsRow = typeof kycLimits.$inferSelect;

/** Read on every initiation and signed-in quote: prepared once per connection. */
const limitsStatement = preparedPerDatabase((db) => db.select().from(kycLimits).orderBy(asc(kycLimits.level)).prepare('kyc_limits'));

export function listLimits(db: Db): Promise<LimitsRow[]> {
  return limitsStatement(db).execute();
}

export async function lockLimits(tx: Tx, level: number): Promise<LimitsRow | null> {
  const [row] = await tx.select().from(kycLimits).where(eq(kycLimits.level, level)).for('update');
  return row ?? null;
}

export async function writeLimits(tx: Tx, level: number, values: Pick<LimitsRow, 'transfer' | 'd30' | 'd365'>, actor: string): Promise<LimitsRow> {
  const [row] = await tx.insert(kycLimits).values({ level, ...values, updated_by: actor })
    .onConflictDoUpdate({ target: kycLimits.level, set: { ...values, updated_by: actor } }).returning();
  return row!;
}

/**
 * What a sender's level is read from (the level-1 fields and the level staff approved), and what a
 * new transfer keeps of its originator (docs/rules/know-your-sender.md#travel-rule).
 */
const levelFields = {
  user_id: profiles.user_id, email: profiles.email, full_name: profiles.full_name, date_of_birth: profiles.date_of_birth,
  phone: profiles.phone, address: profiles.address, city: profiles.city, state: profiles.state, country: profiles.country,
  kyc_level: profiles.kyc_level, screened_for: profiles.screened_for,
};
export type LevelRow = { [K in keyof typeof levelFields]: (typeof profiles.$inferSelect)[K] };

/** A level's limits as amounts in EUR text, as they are read with a sender. */
export type LevelLimitsRow = Pick<LimitsRow, 'level' | 'transfer' | 'd30' | 'd365'>;

/**
 * Read on every signed-in quote and initiation, prepared once (db/prepared.ts): the sender's
 * level fields and every level's limits in one round trip.
 */
const senderFields = {
  ...levelFields,
  limits: sql<[number, string | null, string, string][] | null>`(select json_agg(json_build_array(l.level, l.transfer::text, l.d30::text, l.d365::text) order by l.level) from ${kycLimits} l)`,
};
const senderRows = rowsOf<LevelRow & { limits: [number, string | null, string, string][] | null }>(senderFields);
const senderStatement = preparedPerDatabase((db) =>
  senderRows(db, db.select(senderFields).from(profiles).where(eq(profiles.id, sql.placeholder('id'))), 'kyc_sender'));

/** The sender's level fields, with the limits of every level; null for no such profile. */
export async function senderRow(db: Db, profileId: string): Promise<{ row: LevelRow; limits: LevelLimitsRow[] } | null> {
  const [found] = await senderStatement(db).execute({ id: profileId });
  if (!found) return null;
  const { limits, ...row } = found;
  return { row, limits: (limits ?? []).map(([level, transfer, d30, d365]) => ({ level, transfer, d30, d365 })) };
}

/**
 * Records what the sender's own screening ran on (a digest of their id, name and date of birth);
 * bookkeeping, not a change of the profile: `updated_at` stays.
 */
export async function markScreened(db: Db, profileId: string, screenedFor: string): Promise<void> {
  await db.execute(sql`update profiles set screened_for = ${screenedFor} where id = ${profileId}`);
}
