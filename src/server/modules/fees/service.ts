import { directionById, type DirectionId } from '@core/channels.js';
import { checkCorridorLimits, computeQuote, type Corridor, type Quote } from '@core/fees.js';
import { parseAmount, toDecimal } from '@core/money.js';
import type { RateSet } from '@core/rates.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { badRequest } from '@server/lib/http-error.js';
import { storedRates } from '../rates/service.js';
import { listCorridors, listTiers, type StoredFeeTier } from './repo.js';

export interface PricedQuote {
  quote: Quote;
  limits: { min: string; max: string } | null;
  limitError: { code: 'below_min' | 'above_max'; limit: string } | null;
}

/** Every tier, corridor and rate as stored, read together; frozen, since requests share it. */
interface Pricing {
  tiers: ReadonlyMap<DirectionId, readonly StoredFeeTier[]>;
  corridors: ReadonlyMap<DirectionId, Corridor>;
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
  if (!dir) throw badRequest('validation.pairUnsupported');
  const amount = parseAmount(amountInput, dir.from);
  // 0 is a valid quote (fee 0, docs/rules/fees-and-rates.md#quote); initiation requires more
  // through its own schema.
  if (amount === null || amount < 0) throw badRequest('validation.amountInvalid');
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
