import { and, count, eq, gte, ilike, inArray, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import type { StaffFilter } from '@core/api/admin.js';
import { IdParamsSchema } from '@core/api/common.js';
import type { DirectionId } from '@core/channels.js';
import type { Corridor, FeeTier } from '@core/fees.js';
import { OPEN_STATUSES, TRANSFER_STATUSES, type TransferStatus } from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';
import {
  corridors, feeTiers, profiles, rates, transferRequests, transferSearchText, transferStatusCounts,
} from '@server/db/schema.js';
import type { Cursor } from '@server/lib/cursor.js';
import { PRICES_CHANNEL } from '@server/lib/price-cache.js';
import { needsApprovalNow } from '../transfers/repo.js';
import { staffSelection } from '../transfers/staff-view.js';

// The back office's SQL: the staff list, counts and volume, fee tiers and rates.

export type TierRow = typeof feeTiers.$inferSelect;
export type RateRow = typeof rates.$inferSelect;

// ---- the staff list ----

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** A filter ready to query: the senders whose name or e-mail match the search, looked up once. */
export type PreparedFilter = StaffFilter & { senderIds: string[] };

/**
 * Senders matching the search. Looked up first (profiles are few next to transfers) so the
 * transfer query can use its profile index instead of testing every row against a sub-query.
 */
export async function prepareFilter(db: Db, filter: StaffFilter): Promise<PreparedFilter> {
  if (!filter.q) return { ...filter, senderIds: [] };
  const like = likeText(filter.q);
  const rows = await db.select({ id: profiles.id }).from(profiles)
    .where(or(ilike(profiles.email, like), ilike(profiles.full_name, like)));
  return { ...filter, senderIds: rows.map((r) => r.id) };
}

/** A UTC day as the instant it starts, whatever the session's time zone. */
const dayStart = (day: string, plusDays = 0) => sql`((${day}::date + ${plusDays}::int)::timestamp at time zone 'UTC')`;

/**
 * The WHERE of a staff filter: status, corridor, UTC days, and the search by id, sender
 * (name, e-mail), reference, provider reference or recipient (name, phone, e-mail), where every
 * branch is indexed: primary key, trigram index on transferSearchText, profile index.
 */
function staffWhere(filter: PreparedFilter): SQL[] {
  const tr = transferRequests;
  const where: SQL[] = [];
  if (filter.status) where.push(eq(tr.status, filter.status));
  if (filter.payment) where.push(eq(tr.payment_status, filter.payment));
  if (filter.payout) where.push(eq(tr.payout_status, filter.payout));
  if (filter.direction) where.push(eq(tr.direction, filter.direction));
  if (filter.from) where.push(gte(tr.created_at, dayStart(filter.from)));
  if (filter.to) where.push(lt(tr.created_at, dayStart(filter.to, 1)));
  if (filter.needs_approval) where.push(needsApprovalNow);
  if (filter.action_needed) where.push(eq(tr.action_needed, true));
  if (filter.late) where.push(lateNow);
  const q = filter.q;
  if (q) {
    const matches: (SQL | undefined)[] = [sql`${transferSearchText(tr)} like ${likeText(q.toLowerCase())}`];
    if (IdParamsSchema.shape.id.safeParse(q).success) matches.push(eq(tr.id, q));
    if (filter.senderIds.length) matches.push(inArray(tr.profile_id, filter.senderIds));
    where.push(or(...matches)!);
  }
  return where;
}

/**
 * Open past its corridor's expected delivery, counted from the recorded payment (else the request):
 * core isLate's rule, with the due time from the database's transfer_due_at (migration 0009).
 */
const lateNow = sql`(${inArray(transferRequests.status, [...OPEN_STATUSES])} and transfer_due_at(
  coalesce(${transferRequests.payment_recorded_at}, ${transferRequests.created_at}),
  (select c.processing_time from ${corridors} c where c.direction = ${transferRequests.direction})) < now())`;

/** One page after `cursor` in the filter's order (keyset on the created_at indexes); `limit + 1` rows tell if more follow. */
export function staffRows(db: Db, filter: PreparedFilter, cursor: Cursor | null, limit: number) {
  const tr = transferRequests;
  const newest = filter.sort === 'newest';
  const where = staffWhere(filter);
  if (cursor) {
    where.push(newest
      ? sql`(${tr.created_at}, ${tr.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
      : sql`(${tr.created_at}, ${tr.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
  }
  // The created_at indexes are DESC NULLS LAST: the same ordering (or its exact reverse) lets
  // PostgreSQL read a page straight off the index instead of sorting every matching row.
  const order = newest
    ? [sql`${tr.created_at} desc nulls last`, sql`${tr.id} desc nulls last`]
    : [sql`${tr.created_at} asc nulls first`, sql`${tr.id} asc nulls first`];
  return db.select({ ...staffSelection, at: sql<string>`${tr.created_at}::text` }).from(tr).innerJoin(profiles, eq(profiles.id, tr.profile_id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(...order)
    .limit(limit + 1);
}

// ---- counts and volume ----

/**
 * Requests per status from the counts the database keeps (a few rows, whatever the number of
 * transfers; docs/decisions/015-fast-start-and-status-counts.md): the sum of each status's shards.
 */
export async function requestCounts(db: Db): Promise<Record<TransferStatus, number>> {
  const c = transferStatusCounts;
  const rows = await db.select({ status: c.status, n: sql<number>`sum(${c.n})::int` }).from(c).groupBy(c.status);
  const counts = Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, 0])) as Record<TransferStatus, number>;
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

export async function userAndTierCounts(db: Db): Promise<{ users: number; fee_tiers: number }> {
  const [[users], [tiers]] = await Promise.all([
    db.select({ n: count() }).from(profiles),
    db.select({ n: count() }).from(feeTiers),
  ]);
  return { users: users?.n ?? 0, fee_tiers: tiers?.n ?? 0 };
}

type VolumeRow = { day: string; direction: string; currency: string; count: number; amount: string; fees: string };

/**
 * Daily volume and fees per corridor over the last `days` UTC days (today included), in each
 * corridor's source currency. Rejected and cancelled transfers moved no money and are left out.
 */
export async function dailyVolume(db: Db, days: number): Promise<{ from: string; to: string; points: VolumeRow[] }> {
  const day = sql<string>`to_char((${transferRequests.created_at} at time zone 'UTC')::date, 'YYYY-MM-DD')`;
  const since = sql`((now() at time zone 'UTC')::date - ${days - 1}::int)::timestamp at time zone 'UTC'`;
  const result = await db.execute<VolumeRow>(sql`
    select ${day} as day, ${transferRequests.direction} as direction, ${transferRequests.currency} as currency,
           count(*)::int as count, sum(${transferRequests.amount})::text as amount, sum(${transferRequests.fee})::text as fees
    from ${transferRequests}
    where ${transferRequests.created_at} >= ${since} and ${transferRequests.status} not in ('rejected', 'cancelled')
    group by 1, 2, 3 order by 1, 2`);
  const [range] = (await db.execute<{ from: string; to: string }>(sql`
    select to_char((now() at time zone 'UTC')::date - ${days - 1}::int, 'YYYY-MM-DD') as "from",
           to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as "to"`)).rows;
  return { from: range!.from, to: range!.to, points: result.rows };
}

// ---- fee tiers ----

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

// ---- rates ----

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
