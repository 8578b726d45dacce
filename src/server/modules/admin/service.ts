import { Readable } from 'node:stream';
import { countParked } from '../jobs/service.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { moneyTotals } from '../ledger/service.js';
import type { AdminFeeTier, StaffFilter, StaffListQuery, Stats, VolumePoint } from '@core/api/admin.js';
import type { StaffRequestJson } from '@core/api/transfers.js';
import { feeTierFromInput, shareEdges, validateTierSet, type FeeTier } from '@core/fees.js';
import { directionById, type DirectionId } from '@core/channels.js';
import { normalizeDecimal } from '@core/money.js';
import { RATE_KEYS } from '@core/rates.js';
import { FeeTierInputSchema, RateUpdateSchema, type FeeTierInput, type FeeTierPatch } from '@core/schemas.js';
import { isAdmin, type Role } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import type { Lang } from '@server/i18n.js';
import { type Cursor, decodeCursor, encodeCursor } from '@server/lib/cursor.js';
import { HttpError, badRequest, notFound } from '@server/lib/http-error.js';
import type { PriceCache } from '@server/lib/price-cache.js';
import { parseOr400, refusal } from '@server/lib/zod-refusal.js';
import { currentRates } from '../rates/service.js';
import { staffRowToJson } from '../transfers/staff-view.js';
import { csvHeader, csvLine } from './export-csv.js';
import {
  dailyVolume, findTier, insertTier, lockCorridor, lockRate, lockTier, notifyPriceEdit, prepareFilter, removeTier,
  replaceTier, requestCounts, staffRows, tiersOfDirection, userAndTierCounts, writeRate,
  type PreparedFilter, type RateRow, type TierRow,
} from './repo.js';

// The back office's rules: the staff list and its export, counts and volume, the audit log, and
// the admin's fee tiers and rates, each change recorded in the audit log with before and after.
// New tiers and rates price new transfers only: a created transfer keeps its own.

/** Rows fetched per query by the export: one batch in memory at a time, however large the table. */
const EXPORT_BATCH = 500;

// ---- the staff list ----

async function staffPage(ctx: Pick<AppContext, 'db' | 'config'>, filter: PreparedFilter, cursor: Cursor | null, limit: number) {
  const rows = await staffRows(ctx.db, filter, cursor, limit);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => staffRowToJson(r, ctx.config.publicUrl)),
    next: more && last ? { at: last.at, id: last.request.id } : null,
  };
}

/** Every sender's requests with the back office's filters, newest or oldest first, a page at a time. */
export async function listStaffRequests(ctx: Pick<AppContext, 'db' | 'config'>, query: StaffListQuery): Promise<{ data: StaffRequestJson[]; next_cursor: string | null }> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) throw badRequest('validation.cursorInvalid');
  const { rows, next } = await staffPage(ctx, await prepareFilter(ctx.db, query), cursor, query.limit);
  return { data: rows, next_cursor: next ? encodeCursor(next) : null };
}

/** The filtered list as CSV lines, read batch by batch with the list's keyset cursor. */
export async function* exportLines(ctx: Pick<AppContext, 'db' | 'config'>, filter: StaffFilter, batch = EXPORT_BATCH): AsyncGenerator<string> {
  yield csvHeader();
  const prepared = await prepareFilter(ctx.db, filter);
  let cursor: Cursor | null = null;
  do {
    const page: Awaited<ReturnType<typeof staffPage>> = await staffPage(ctx, prepared, cursor, batch);
    if (page.rows.length) yield page.rows.map(csvLine).join('');
    cursor = page.next;
  } while (cursor);
}

/** The export is a staff action: recorded with its filter before the file is sent. */
export async function exportStream(ctx: AppContext, actor: Actor, filter: StaffFilter): Promise<Readable> {
  await recordAudit(ctx.db, actor, { action: 'transfer_request.export', target: 'export', id: null, after: filter });
  return Readable.from(exportLines(ctx, filter), { objectMode: false });
}

// ---- counts and volume ----

/** Requests per status; user and tier counts are the admin's alone. */
export async function stats(db: Db, role: Role): Promise<Stats> {
  const requests = await requestCounts(db);
  if (!isAdmin(role)) return { requests };
  return { requests, ...(await userAndTierCounts(db)), parked_jobs: await countParked(db), money: await moneyTotals(db) };
}

export async function volume(db: Db, days: number) {
  const { from, to, points } = await dailyVolume(db, days);
  return { days, from, to, points: points as VolumePoint[] };
}

// ---- fee tiers ----

function tierToJson(row: TierRow): AdminFeeTier {
  return {
    id: row.id, direction: row.direction as DirectionId, percentage: row.percentage, min_amount: row.min_amount,
    max_amount: row.max_amount, min_fee: row.min_fee, updated_at: row.updated_at.toISOString(), updated_by: row.updated_by,
  };
}

/**
 * One tier edit (`before` → `after`; null `before` for a new tier, null `after` for a deletion)
 * checked against the whole direction: a shared edge moves for both tiers that share it, and the
 * tiers must then be a valid set that covers the corridor's range with no gap (D14,
 * docs/rules/fees-and-rates.md#editing-tiers). Writes the neighbours the edit moved, each in the
 * audit log. The corridor row is locked first so two admins editing one direction cannot both
 * slip in an overlapping tier or open a gap.
 */
async function editTierSet(tx: Tx, actor: Actor, direction: string, before: TierRow | null, after: FeeTier | null): Promise<void> {
  const corridor = await lockCorridor(tx, direction);
  const others = (await tiersOfDirection(tx, direction, before?.id)).map((o) => ({ ...o, direction: o.direction as DirectionId }));
  const moved = shareEdges(others, before && { ...before, direction: before.direction as DirectionId }, after);
  const neighbours = moved.filter((o, i) => o !== others[i]);
  // A neighbour the moved edge would leave with min ≥ max is one the edit overlaps.
  if (neighbours.some((o) => validateTierSet([o]) !== null)) throw new HttpError(400, 'validation.feeTierOverlap');
  const refusal = validateTierSet(after ? [...moved, after] : moved, corridor);
  if (refusal === 'validation.feeTierGap' && corridor) {
    const amount = (value: string) => normalizeDecimal(value) ?? value;
    throw new HttpError(400, refusal, {}, {
      min: amount(corridor.min_amount), max: amount(corridor.max_amount), currency: directionById(corridor.direction)?.from ?? '',
    });
  }
  if (refusal) throw new HttpError(400, refusal);
  for (const neighbour of neighbours) {
    const previous = others.find((o) => o.id === neighbour.id)!;
    const row = await replaceTier(tx, neighbour.id, feeTierFromInput(neighbour), actor.profile_id);
    await recordAudit(tx, actor, { action: 'fee_tier.update', target: 'fee_tier', id: row.id, before: tierToJson(previous), after: tierToJson(row) });
  }
}

/**
 * A price edit: NOTIFY in its transaction clears every process's cache when it commits, and this
 * process's own at once, so the admin's next read is never stale
 * (docs/decisions/016-price-cache-and-scale-out.md).
 */
async function editPrices<T>(db: Db, prices: PriceCache, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const done = await work(tx);
    await notifyPriceEdit(tx);
    return done;
  });
  prices.invalidate();
  return result;
}

export async function createTier(db: Db, prices: PriceCache, actor: Actor, input: FeeTierInput): Promise<AdminFeeTier> {
  const tier = feeTierFromInput(input);
  return editPrices(db, prices, async (tx) => {
    await editTierSet(tx, actor, tier.direction, null, tier);
    const row = await insertTier(tx, tier, actor.profile_id);
    await recordAudit(tx, actor, { action: 'fee_tier.create', target: 'fee_tier', id: row.id, after: tierToJson(row) });
    return tierToJson(row);
  });
}

/** The stored tier with the fields sent, checked by the same rules as a new tier, refused like one. */
function mergedTier(before: TierRow, patch: FeeTierPatch, lang: Lang): FeeTier {
  const parsed = FeeTierInputSchema.safeParse({
    direction: before.direction, percentage: before.percentage, min_amount: before.min_amount,
    max_amount: before.max_amount, min_fee: before.min_fee,
    ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
  });
  if (!parsed.success) throw refusal(parsed.error, lang);
  return feeTierFromInput(parsed.data);
}

/**
 * The tier locked after its direction's corridor (the lock order of every tier edit, since an edit
 * may write the neighbours too), or null when there is none.
 */
async function lockTierAndCorridor(tx: Tx, id: string, also?: DirectionId): Promise<TierRow | null> {
  const seen = await findTier(tx, id);
  if (!seen) return null;
  for (const direction of [...new Set([seen.direction, ...(also ? [also] : [])])].sort()) await lockCorridor(tx, direction);
  const row = await lockTier(tx, id);
  if (row && row.direction !== seen.direction) await lockCorridor(tx, row.direction);
  return row;
}

/** Changes only the fields sent (null clears max_amount or min_fee). */
export async function updateTier(db: Db, prices: PriceCache, actor: Actor, id: string, patch: FeeTierPatch, lang: Lang): Promise<AdminFeeTier> {
  return editPrices(db, prices, async (tx) => {
    const before = await lockTierAndCorridor(tx, id, patch.direction);
    if (!before) throw notFound();
    const tier = mergedTier(before, patch, lang);
    if (tier.direction === before.direction) {
      await editTierSet(tx, actor, before.direction, before, tier);
    } else {
      // Moved to another direction: it leaves the first as a deleted tier, joins the other as a new one.
      await editTierSet(tx, actor, before.direction, before, null);
      await editTierSet(tx, actor, tier.direction, null, tier);
    }
    const row = await replaceTier(tx, id, tier, actor.profile_id);
    await recordAudit(tx, actor, { action: 'fee_tier.update', target: 'fee_tier', id, before: tierToJson(before), after: tierToJson(row) });
    return tierToJson(row);
  });
}

export async function deleteTier(db: Db, prices: PriceCache, actor: Actor, id: string): Promise<void> {
  await editPrices(db, prices, async (tx) => {
    const before = await lockTierAndCorridor(tx, id);
    if (!before) throw notFound();
    await editTierSet(tx, actor, before.direction, before, null);
    await removeTier(tx, id);
    await recordAudit(tx, actor, { action: 'fee_tier.delete', target: 'fee_tier', id, before: tierToJson(before) });
  });
}

// ---- rates ----

/** A rate as the audit log shows it: no trailing zeros. */
const rateToJson = (row: RateRow) => ({ key: row.key, value: row.value.replace(/\.?0+$/, ''), updated_at: row.updated_at.toISOString() });

/** Sets one forward rate (an unknown key names no resource) and answers the whole rate set. */
export async function setRate(db: Db, prices: PriceCache, actor: Actor, key: string, value: string | number, lang: Lang) {
  if (!(RATE_KEYS as readonly string[]).includes(key)) throw notFound();
  const rate = parseOr400(RateUpdateSchema, { key, value }, lang);
  await editPrices(db, prices, async (tx) => {
    const before = await lockRate(tx, key);
    const row = await writeRate(tx, key, rate.value, actor.profile_id);
    await recordAudit(tx, actor, { action: 'rate.update', target: 'rate', id: key, before: before && rateToJson(before), after: rateToJson(row) });
  });
  return currentRates(db);
}
