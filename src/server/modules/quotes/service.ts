import type { Logger } from 'pino';
import type { PricePreview, PromisedQuote } from '@core/api/pricing.js';
import { directionById, type DirectionId } from '@core/channels.js';
import { AppError } from '@core/errors.js';
import { parseAmount, toDecimal, type Currency } from '@core/money.js';
import { REFERENCE_RATES, amountForPayout, referenceAndMargin, type ReferenceAndMargin } from '@core/quotes.js';
import { DEFAULT_RATE_MAX_AGE_HOURS, staleRate, type RateSet } from '@core/rates.js';
import type { QuoteValidityInput } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import type { PriceCache } from '@server/lib/price-cache.js';
import { timeOrderedId } from '@server/lib/time-ordered-id.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { priceTransfer, publishedRates, quoteMinutes, quoteToJson, type PricedQuote } from '../fees/service.js';
import { editPrices } from '../rates/service.js';
import { deleteExpiredQuotes, deleteQuotesExpiredDaysAgo, findQuote, insertQuote, listValidity, lockValidity, writeValidity, type QuoteRow } from './repo.js';

/** A quote's use, claimed in the initiation's transaction (transfers/initiation-statement.ts). */

// A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise): priced as every
// transfer is, stored with its expiry, and kept for the initiation that names it.

/** What the quote is asked for: what the sender pays before the fee, or what the recipient gets. */
export type QuoteAsk = { direction: DirectionId } & ({ amount: string | number; payout?: undefined } | { payout: string | number; amount?: undefined });

/** The amount that prices `ask`: as given, or the smallest whose payout reaches the payout asked. */
async function askedAmount(ctx: Pick<AppContext, 'db' | 'prices'>, ask: QuoteAsk): Promise<string | number> {
  if (ask.amount !== undefined) return ask.amount;
  const dir = directionById(ask.direction);
  if (!dir) throw new AppError('pair_unsupported');
  const payout = parseAmount(ask.payout, dir.to);
  if (payout === null || payout < 0) throw AppError.onField('amount_invalid', 'payout');
  const amount = amountForPayout(payout, dir.from, dir.to, await publishedRates(ctx));
  if (amount === null) throw AppError.onField('amount_invalid', 'payout');
  return toDecimal(amount, dir.from);
}

/**
 * Quotes on a rate older than its maximum age are refused until it is refreshed
 * (docs/rules/fees-and-rates.md#rate-sources): read from the published rates in memory, no query.
 * A rate against a legal fixed parity cannot age.
 */
export async function assertRateFresh(ctx: Pick<AppContext, 'db' | 'prices'>, direction: DirectionId): Promise<void> {
  const dir = directionById(direction);
  if (!dir) throw new AppError('pair_unsupported');
  const rates = await publishedRates(ctx);
  const stale = staleRate(dir.from, dir.to, rates, Date.now(), FIXED_REFERENCES);
  if (stale) {
    const [from, to] = stale.key.split('_') as [string, string];
    throw new AppError('rate_stale', { vars: { from, to, hours: rates.maxAgeHours ?? DEFAULT_RATE_MAX_AGE_HOURS }, extra: { updated_at: stale.updated_at } });
  }
}
const FIXED_REFERENCES = Object.keys(REFERENCE_RATES);

/** Each pair's reference and margin, computed once per published rate set (every quote would redo the same BigInt work). */
const references = new WeakMap<RateSet, Map<string, ReferenceAndMargin>>();
function referenceOf(rates: RateSet, from: Currency, to: Currency): ReferenceAndMargin {
  let known = references.get(rates);
  if (!known) references.set(rates, (known = new Map()));
  let reference = known.get(`${from}_${to}`);
  if (!reference) known.set(`${from}_${to}`, (reference = referenceAndMargin(from, to, rates, rates.references)));
  return reference;
}

/** The price of `ask` as a quote gives it, refused as a quote is (a stale rate, `admit`'s refusal). */
async function priceOf(
  ctx: Pick<AppContext, 'db' | 'prices'>, ask: QuoteAsk, admit?: (priced: PricedQuote) => Promise<void>,
): Promise<{ priced: PricedQuote; json: PricePreview }> {
  await assertRateFresh(ctx, ask.direction);
  const priced = await priceTransfer(ctx, ask.direction, await askedAmount(ctx, ask));
  if (admit) await admit(priced);
  const reference = referenceOf(await publishedRates(ctx), priced.quote.currency, priced.quote.payout_currency);
  return { priced, json: { ...quoteToJson(priced), ...reference } };
}

/**
 * The price of what is being typed, stored nowhere (docs/rules/fees-and-rates.md#rates-on-screen):
 * the screens ask it at every pause in the typing, and the review asks the quote it holds.
 */
export async function previewPrice(
  ctx: Pick<AppContext, 'db' | 'prices'>, ask: QuoteAsk, admit?: (priced: PricedQuote) => Promise<void>,
): Promise<PricePreview> {
  return (await priceOf(ctx, ask, admit)).json;
}

/**
 * Prices and stores a quote, owned by `profileId` (null when asked signed out); answers it with its
 * id, expiry, reference rate and margin. `admit` may refuse the price before anything is stored.
 */
export async function makeQuote(
  ctx: Pick<AppContext, 'db' | 'prices'>, profileId: string | null, ask: QuoteAsk, admit?: (priced: PricedQuote) => Promise<void>,
): Promise<PromisedQuote> {
  const { priced, json } = await priceOf(ctx, ask, admit);
  const { quote } = priced;
  const minutes = await quoteMinutes(ctx, ask.direction);
  // Time-ordered: a busy hour's quotes are appended to the key's index, not scattered over it.
  const id = timeOrderedId();
  // The server's clock sets the expiry, the database's checks it: both keep UTC by NTP.
  const expiresAt = new Date(Date.now() + minutes * 60_000).toISOString();
  await insertQuote(ctx.db, {
    id, profile_id: profileId, direction: quote.direction, source_provider: quote.source, destination_provider: quote.destination,
    currency: quote.currency, payout_currency: quote.payout_currency, amount: json.amount, fee: json.fee, total: json.total,
    rate: quote.rate, payout: json.payout, reference_rate: json.reference_rate, margin: json.margin,
    fee_tier_id: quote.tier?.id ?? null, asked_by_payout: ask.payout !== undefined, expires_at: expiresAt,
  });
  return { ...json, id, expires_at: expiresAt };
}

/**
 * The quote an initiation names, checked before its transaction: another sender's is not found
 * (a quote made signed out is anyone's, once); one for another amount or channels is a mismatch;
 * a used one is refused; an expired one is refused with a fresh quote for the same transfer. Its
 * use is claimed in the initiation's transaction (db/shared-sql/quote-claims.ts), which settles two at once.
 */
export async function promisedPrice(
  ctx: Pick<AppContext, 'db' | 'prices'>, profileId: string, quoteId: string,
  transfer: { source_provider: string; destination_provider: string; direction: DirectionId; amount: string },
): Promise<QuoteRow> {
  const row = await findQuote(ctx.db, quoteId);
  if (!row || (row.profile_id !== null && row.profile_id !== profileId)) throw new AppError('quote_not_found');
  if (row.source_provider !== transfer.source_provider || row.destination_provider !== transfer.destination_provider
    || parseAmount(row.amount, row.currency as Currency) !== parseAmount(transfer.amount, row.currency as Currency)) {
    throw new AppError('quote_mismatch');
  }
  if (row.used_at) throw new AppError('quote_used');
  if (row.expired) throw await expiredWithFresh(ctx, profileId, transfer.direction, transfer.amount, row);
  return row;
}

/**
 * 409 quote_expired carrying a fresh quote for the sender to accept: asked the way the expired one
 * was (`expired`), for what the recipient gets when it was asked by payout, else for the same amount.
 */
export async function expiredWithFresh(
  ctx: Pick<AppContext, 'db' | 'prices'>, profileId: string, direction: DirectionId, amount: string,
  expired?: Pick<QuoteRow, 'asked_by_payout' | 'payout'>,
): Promise<AppError> {
  const ask: QuoteAsk = expired?.asked_by_payout ? { direction, payout: expired.payout } : { direction, amount };
  return new AppError('quote_expired', { extra: { quote: await makeQuote(ctx, profileId, ask) } });
}

// ---- how long quotes hold, the admin's ----

/** Sets a corridor's validity, audited; the next quote of the corridor holds that long. */
export async function setQuoteValidity(db: Db, prices: PriceCache, actor: Actor, input: QuoteValidityInput) {
  await editPrices(db, prices, async (tx) => {
    const before = await lockValidity(tx, input.direction);
    if (before === null) throw new AppError('not_found');
    await writeValidity(tx, input.direction, input.minutes);
    await recordAudit(tx, actor, {
      action: 'quote_validity.update', target: 'corridor', id: input.direction,
      before: { minutes: before }, after: { minutes: input.minutes },
    });
  });
  return listValidity(db);
}

/**
 * How long a quote a transfer used is kept after it expires: the transfer holds its own price, so
 * an old quote serves nobody.
 */
export const QUOTE_KEEP_DAYS = 7;
const DELETE_BATCH = 5_000;

/**
 * The clean-up, every 10 minutes (src/server/worker.ts): expired quotes no transfer used or names, once
 * an hour old (so within the hour after they expire, docs/rules/fees-and-rates.md#a-quote-is-a-promise),
 * and used ones a week after they expired; in batches so no statement runs long.
 */
export async function deleteOldQuotes(deps: { db: Db; log: Logger }): Promise<number> {
  let deleted = 0;
  for (const step of [(limit: number) => deleteExpiredQuotes(deps.db, limit), (limit: number) => deleteQuotesExpiredDaysAgo(deps.db, QUOTE_KEEP_DAYS, limit)]) {
    for (;;) {
      const done = await step(DELETE_BATCH);
      deleted += done;
      if (done < DELETE_BATCH) break;
    }
  }
  if (deleted > 0) deps.log.info({ deleted }, 'expired quotes deleted');
  return deleted;
}
