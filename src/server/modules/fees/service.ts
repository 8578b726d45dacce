import { directionById, type DirectionId } from '@core/channels.js';
import { checkCorridorLimits, computeQuote, type Quote } from '@core/fees.js';
import { parseAmount, toDecimal } from '@core/money.js';
import type { Db } from '@server/db/client.js';
import { badRequest } from '@server/lib/http-error.js';
import { storedRates } from '../rates/service.js';
import { findCorridor, listCorridors, listTiers } from './repo.js';

export interface PricedQuote {
  quote: Quote;
  limits: { min: string; max: string } | null;
  limitError: { code: 'below_min' | 'above_max'; limit: string } | null;
}

/**
 * The one price computation (docs/rules/fees-and-rates.md#one-price-everywhere): the calculator,
 * the transfer screen and initiation all ask this with the tiers and rates as stored right now.
 */
export async function priceTransfer(db: Db, direction: DirectionId, amountInput: string | number): Promise<PricedQuote> {
  const dir = directionById(direction);
  if (!dir) throw badRequest('validation.pairUnsupported');
  const amount = parseAmount(amountInput, dir.from);
  // 0 is a valid quote (fee 0, docs/rules/fees-and-rates.md#quote); initiation requires more
  // through its own schema.
  if (amount === null || amount < 0) throw badRequest('validation.amountInvalid');
  const [tiers, corridor, rates] = await Promise.all([listTiers(db, direction), findCorridor(db, direction), storedRates(db)]);
  const quote = computeQuote({ direction, amount, tiers, corridor: corridor ?? undefined, rates });
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
