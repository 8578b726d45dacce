import { asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { kycLimits, profiles } from '@server/db/schema.js';

// Know your sender's SQL: the limits per level (three rows), and what a sender's level is read
// from. What their transfers add up to is the transfers' (db/shared-sql/sender-usage.ts).

export type LimitsRow = typeof kycLimits.$inferSelect;

/** The admin's list of every level's limits (an initiation reads them with the senders' totals, transfers/initiation-statement.ts). */
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


// Read by GET /api/kyc: prepared once (db/prepared.ts).
const levelRows = rowsOf<LevelRow>(levelFields);
const levelStatement = preparedPerDatabase((db) =>
  levelRows(db, db.select(levelFields).from(profiles).where(eq(profiles.id, sql.placeholder('id'))), 'kyc_level_of'));

export async function levelRow(db: Db, profileId: string): Promise<LevelRow | null> {
  const [row] = await levelStatement(db).execute({ id: profileId });
  return row ?? null;
}

/**
 * Records what the sender's own screening ran on (a digest of their id, name and date of birth);
 * bookkeeping, not a change of the profile: `updated_at` stays.
 */
export async function markScreened(db: Db, profileId: string, screenedFor: string): Promise<void> {
  await db.execute(sql`update profiles set screened_for = ${screenedFor} where id = ${profileId}`);
}
