import { and, desc, eq, lt, ne } from 'drizzle-orm';
import { feeTierFromInput, validateTierSet, type FeeTier } from '../../../core/fees.js';
import type { DirectionId } from '../../../core/channels.js';
import type { RateKey } from '../../../core/rates.js';
import type { FeeTierInput } from '../../../core/schemas.js';
import type { Db } from '../../db/client.js';
import { auditLog, corridors, feeTiers, profiles, rates } from '../../db/schema.js';
import { HttpError, notFound } from '../../lib/http-error.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type TierRow = typeof feeTiers.$inferSelect;

export const AUDIT_TARGETS = ['rate', 'fee_tier', 'profile'] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

export function tierToJson(row: TierRow) {
  return {
    id: row.id, direction: row.direction, percentage: row.percentage, min_amount: row.min_amount,
    max_amount: row.max_amount, min_fee: row.min_fee, updated_at: row.updated_at.toISOString(), updated_by: row.updated_by,
  };
}

async function audit(tx: Tx, actor: string, action: string, targetType: AuditTarget, targetId: string, before: unknown, after: unknown) {
  await tx.insert(auditLog).values({ actor_profile_id: actor, action, target_type: targetType, target_id: targetId, before, after });
}

/**
 * D10: the direction's tiers with `candidate` in place of `replacing` must form a valid set.
 * The corridor row is locked first so two admins editing one direction cannot both slip in an
 * overlapping tier.
 */
async function checkTierSet(tx: Tx, candidate: FeeTier, replacing?: string): Promise<void> {
  await tx.select({ d: corridors.direction }).from(corridors).where(eq(corridors.direction, candidate.direction)).for('update');
  const others = await tx.select().from(feeTiers).where(and(
    eq(feeTiers.direction, candidate.direction), replacing ? ne(feeTiers.id, replacing) : undefined,
  ));
  const refusal = validateTierSet([...others.map((o) => ({ ...o, direction: o.direction as DirectionId })), candidate]);
  if (refusal) throw new HttpError(400, refusal);
}

export async function createTier(db: Db, actor: string, input: FeeTierInput) {
  const tier = feeTierFromInput(input);
  return db.transaction(async (tx) => {
    await checkTierSet(tx, tier);
    const [row] = await tx.insert(feeTiers).values({ ...tier, updated_by: actor }).returning();
    await audit(tx, actor, 'fee_tier.create', 'fee_tier', row!.id, null, tierToJson(row!));
    return tierToJson(row!);
  });
}

export async function updateTier(db: Db, actor: string, id: string, input: FeeTierInput) {
  const tier = feeTierFromInput(input);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(feeTiers).where(eq(feeTiers.id, id)).for('update');
    if (!before) throw notFound();
    await checkTierSet(tx, tier, id);
    const [row] = await tx.update(feeTiers).set({ ...tier, updated_by: actor, updated_at: new Date() })
      .where(eq(feeTiers.id, id)).returning();
    await audit(tx, actor, 'fee_tier.update', 'fee_tier', id, tierToJson(before), tierToJson(row!));
    return tierToJson(row!);
  });
}

export async function deleteTier(db: Db, actor: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.delete(feeTiers).where(eq(feeTiers.id, id)).returning();
    if (!before) throw notFound();
    await audit(tx, actor, 'fee_tier.delete', 'fee_tier', id, tierToJson(before), null);
  });
}

export async function setRate(db: Db, actor: string, key: RateKey, value: string) {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(rates).where(eq(rates.key, key)).for('update');
    const now = new Date();
    const [row] = before
      ? await tx.update(rates).set({ value, updated_at: now, updated_by: actor }).where(eq(rates.key, key)).returning()
      : await tx.insert(rates).values({ key, value, updated_at: now, updated_by: actor }).returning();
    const shown = (r: typeof row) => r && { key: r.key, value: r.value.replace(/\.?0+$/, ''), updated_at: r.updated_at.toISOString() };
    await audit(tx, actor, 'rate.update', 'rate', key, before ? shown(before) : null, shown(row));
    return row!;
  });
}

/** "Who changed what and when", newest first, paginated by id. */
export async function listAudit(db: Db, opts: { target_type?: AuditTarget; target_id?: string; cursor?: number; limit: number }) {
  const where = and(
    opts.target_type ? eq(auditLog.target_type, opts.target_type) : undefined,
    opts.target_id ? eq(auditLog.target_id, opts.target_id) : undefined,
    opts.cursor ? lt(auditLog.id, opts.cursor) : undefined,
  );
  const rows = await db.select({
    id: auditLog.id, action: auditLog.action, target_type: auditLog.target_type, target_id: auditLog.target_id,
    before: auditLog.before, after: auditLog.after, created_at: auditLog.created_at,
    actor: { profile_id: auditLog.actor_profile_id, full_name: profiles.full_name, email: profiles.email },
  }).from(auditLog).leftJoin(profiles, eq(profiles.id, auditLog.actor_profile_id))
    .where(where).orderBy(desc(auditLog.id)).limit(opts.limit + 1);
  const more = rows.length > opts.limit;
  const page = more ? rows.slice(0, opts.limit) : rows;
  return {
    data: page.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
    next_cursor: more ? String(page[page.length - 1]!.id) : null,
  };
}
