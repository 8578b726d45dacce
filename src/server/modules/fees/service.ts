import type { AdminFeeTier } from '@core/api/admin.js';
import { directionById, type DirectionId } from '@core/channels.js';
import { checkCorridorLimits, computeQuote, feeTierFromInput, shareEdges, validateTierSet, type Corridor, type FeeTier, type Quote } from '@core/fees.js';
import { normalizeDecimal, parseAmount, toDecimal } from '@core/money.js';
import { DEFAULT_QUOTE_MINUTES } from '@core/quotes.js';
import type { RateSet } from '@core/rates.js';
import { FeeTierInputSchema, type FeeTierInput, type FeeTierPatch } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import type { PriceCache } from '@server/lib/price-cache.js';
import { refusal } from '@server/lib/zod-refusal.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { editPrices, storedRates } from '../rates/service.js';
import {
  findTier, insertTier, listCorridors, listTiers, lockCorridor, lockTier, removeTier, replaceTier, tiersOfDirection,
  type StoredFeeTier, type TierRow,
} from './repo.js';

export interface PricedQuote {
  quote: Quote;
  limits: { min: string; max: string } | null;
  limitError: { code: 'below_min' | 'above_max'; limit: string } | null;
}

/** Every tier, corridor and rate as stored, read together; frozen, since requests share it. */
interface Pricing {
  tiers: ReadonlyMap<DirectionId, readonly StoredFeeTier[]>;
  corridors: ReadonlyMap<DirectionId, Corridor & { quote_minutes: number }>;
  rates: RateSet;
}

async function loadPricing(db: Db): Promise<Pricing> {
  const [tiers, corridors, rates] = await Promise.all([listTiers(db), listCorridors(db), storedRates(db)]);
  const byDirection = new Map<DirectionId, StoredFeeTier[]>();
  // Ordered by direction, then lowest amount first, as listTiers(db, direction) reads them.
  for (const tier of tiers) {
    const own = byDirection.get(tier.direction as DirectionId) ?? [];
    own.push(Object.freeze(tier));
    byDirection.set(tier.direction as DirectionId, own);
  }
  return {
    tiers: new Map([...byDirection].map(([d, own]) => [d, Object.freeze(own)])),
    corridors: new Map(corridors.map((c) => [c.direction as DirectionId, Object.freeze(c)])),
    rates: Object.freeze(rates),
  };
}

/**
 * The one price computation (docs/rules/fees-and-rates.md#one-price-everywhere): the calculator,
 * the transfer screen and initiation all ask this with the tiers and rates as stored right now.
 * They are read from the published prices kept in memory (`ctx.prices`), which every tier or rate
 * edit clears in every process when it commits, and which are read from the database on every
 * call while this process is not listening for those edits
 * (docs/decisions/016-price-cache-and-scale-out.md).
 */
export async function priceTransfer(ctx: Pick<AppContext, 'db' | 'prices'>, direction: DirectionId, amountInput: string | number): Promise<PricedQuote> {
  const dir = directionById(direction);
  if (!dir) throw new AppError('pair_unsupported');
  const amount = parseAmount(amountInput, dir.from);
  // 0 is a valid quote (fee 0, docs/rules/fees-and-rates.md#quote); initiation requires more
  // through its own schema.
  if (amount === null || amount < 0) throw new AppError('amount_invalid');
  const pricing = await ctx.prices.value('pricing', () => loadPricing(ctx.db));
  const tiers = (pricing.tiers.get(direction) ?? []) as StoredFeeTier[];
  const corridor = pricing.corridors.get(direction) ?? null;
  const quote = computeQuote({ direction, amount, tiers, corridor: corridor ?? undefined, rates: pricing.rates });
  const limit = corridor ? checkCorridorLimits(amount, dir.from, corridor) : null;
  return {
    quote,
    limits: corridor ? { min: corridor.min_amount, max: corridor.max_amount } : null,
    limitError: limit ? { code: limit.code, limit: toDecimal(limit.limit, dir.from) } : null,
  };
}

/** The rates every price is computed from right now (the published prices in memory). */
export async function publishedRates(ctx: Pick<AppContext, 'db' | 'prices'>): Promise<RateSet> {
  return (await ctx.prices.value('pricing', () => loadPricing(ctx.db))).rates;
}

/** `id` when it names one of the direction's tiers as published now, else null. */
export async function tierStillExists(ctx: Pick<AppContext, 'db' | 'prices'>, direction: DirectionId, id: string | null): Promise<string | null> {
  if (!id) return null;
  const tiers = (await ctx.prices.value('pricing', () => loadPricing(ctx.db))).tiers.get(direction) ?? [];
  return tiers.some((tier) => tier.id === id) ? id : null;
}

/** How long a quote of the direction holds, in minutes (its corridor's, else the default). */
export async function quoteMinutes(ctx: Pick<AppContext, 'db' | 'prices'>, direction: DirectionId): Promise<number> {
  const corridor = (await ctx.prices.value('pricing', () => loadPricing(ctx.db))).corridors.get(direction);
  return corridor?.quote_minutes ?? DEFAULT_QUOTE_MINUTES;
}

/** The published prices: every tier (its time as ISO text) and every corridor. */
export async function publishedFees(db: Db) {
  const [tiers, corridors] = await Promise.all([listTiers(db), listCorridors(db)]);
  return { data: tiers.map((tier) => ({ ...tier, updated_at: tier.updated_at.toISOString() })), corridors };
}

/** A quote as the API shows it: every amount an exact decimal string in its currency. */
export function quoteToJson({ quote, limits, limitError }: PricedQuote) {
  return {
    direction: quote.direction,
    source: quote.source,
    destination: quote.destination,
    currency: quote.currency,
    payout_currency: quote.payout_currency,
    amount: toDecimal(quote.amount, quote.currency),
    fee: toDecimal(quote.fee, quote.currency),
    total: toDecimal(quote.total, quote.currency),
    rate: quote.rate,
    payout: toDecimal(quote.payout, quote.payout_currency),
    tier: quote.tier,
    limits,
    limit_error: limitError,
  };
}

// ---- the admin's tier edits ----

// Each change is recorded in the audit log with before and after. New tiers price new transfers
// only: a created transfer keeps its own.

function tierToJson(row: TierRow): AdminFeeTier {
  return {
    id: row.id, direction: row.direction as DirectionId, percentage: row.percentage, min_amount: row.min_amount,
    max_amount: row.max_amount, min_fee: row.min_fee, updated_at: row.updated_at.toISOString(), updated_by: row.updated_by,
  };
}

/**
 * One tier edit (`before` → `after`; null `before` for a new tier, null `after` for a deletion)
 * checked against the whole direction: a shared edge moves for both tiers that share it, and the
 * tiers must then be a valid set that covers the corridor's range with no gap
 * (docs/rules/fees-and-rates.md#editing-tiers). Writes the neighbours the edit moved, each in the
 * audit log. The corridor row is locked first so two admins editing one direction cannot both
 * slip in an overlapping tier or open a gap.
 */
async function editTierSet(tx: Tx, actor: Actor, direction: string, before: TierRow | null, after: FeeTier | null): Promise<void> {
  const corridor = await lockCorridor(tx, direction);
  const others = (await tiersOfDirection(tx, direction, before?.id)).map((o) => ({ ...o, direction: o.direction as DirectionId }));
  const moved = shareEdges(others, before && { ...before, direction: before.direction as DirectionId }, after);
  const neighbours = moved.filter((o, i) => o !== others[i]);
  // A neighbour the moved edge would leave with min ≥ max is one the edit overlaps.
  if (neighbours.some((o) => validateTierSet([o]) !== null)) throw new AppError('fee_tier_overlap');
  const refusal = validateTierSet(after ? [...moved, after] : moved, corridor);
  if (refusal === 'fee_tier_gap' && corridor) {
    const amount = (value: string) => normalizeDecimal(value) ?? value;
    throw new AppError('fee_tier_gap', { vars: {
      min: amount(corridor.min_amount), max: amount(corridor.max_amount), currency: directionById(corridor.direction)?.from ?? '',
    } });
  }
  if (refusal) throw new AppError(refusal);
  for (const neighbour of neighbours) {
    const previous = others.find((o) => o.id === neighbour.id)!;
    const row = await replaceTier(tx, neighbour.id, feeTierFromInput(neighbour), actor.profile_id);
    await recordAudit(tx, actor, { action: 'fee_tier.update', target: 'fee_tier', id: row.id, before: tierToJson(previous), after: tierToJson(row) });
  }
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
function mergedTier(before: TierRow, patch: FeeTierPatch): FeeTier {
  const parsed = FeeTierInputSchema.safeParse({
    direction: before.direction, percentage: before.percentage, min_amount: before.min_amount,
    max_amount: before.max_amount, min_fee: before.min_fee,
    ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
  });
  if (!parsed.success) throw refusal(parsed.error);
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
export async function updateTier(db: Db, prices: PriceCache, actor: Actor, id: string, patch: FeeTierPatch): Promise<AdminFeeTier> {
  return editPrices(db, prices, async (tx) => {
    const before = await lockTierAndCorridor(tx, id, patch.direction);
    if (!before) throw new AppError('not_found');
    const tier = mergedTier(before, patch);
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
    if (!before) throw new AppError('not_found');
    await editTierSet(tx, actor, before.direction, before, null);
    await removeTier(tx, id);
    await recordAudit(tx, actor, { action: 'fee_tier.delete', target: 'fee_tier', id, before: tierToJson(before) });
  });
}
