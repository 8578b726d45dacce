import { z } from 'zod';
import { CHANNEL_IDS, DIRECTION_IDS } from '../channels.js';
import { CURRENCIES } from '../money.js';
import { EXPANDED_RATE_KEYS } from '../rates.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// Answers of the published prices: fee tiers and corridors, quotes, and rates.

/** A fee tier as stored: `percentage` is a fraction ("0.045" is 4.5 %). */
export const FeeTierSchema = z.object({
  id: z.uuid(),
  direction: z.enum(DIRECTION_IDS),
  percentage: decimalText(),
  min_amount: decimalText(),
  max_amount: decimalText().nullable(),
  min_fee: decimalText().nullable(),
  updated_at: isoDateTime(),
});
export type FeeTierJson = z.infer<typeof FeeTierSchema>;

const CorridorSchema = z.object({
  direction: z.enum(DIRECTION_IDS),
  min_amount: decimalText(),
  max_amount: decimalText(),
  processing_time: z.string(),
});

export const FeesResponseSchema = z.object({ data: z.array(FeeTierSchema), corridors: z.array(CorridorSchema) });
export type FeesResponse = z.infer<typeof FeesResponseSchema>;

/** A price, exactly as it will be charged: amount, fee and total in `currency`, payout in `payout_currency`. */
const QuoteSchema = z.object({
  direction: z.enum(DIRECTION_IDS),
  source: z.enum(CHANNEL_IDS),
  destination: z.enum(CHANNEL_IDS),
  currency: z.enum(CURRENCIES),
  payout_currency: z.enum(CURRENCIES),
  amount: decimalText(),
  fee: decimalText(),
  total: decimalText(),
  rate: decimalText(),
  payout: decimalText(),
  tier: FeeTierSchema.omit({ id: true, updated_at: true }).extend({ id: z.uuid().optional() }).nullable(),
  limits: z.object({ min: decimalText(), max: decimalText() }).nullable(),
  limit_error: z.object({ code: z.enum(['below_min', 'above_max']), limit: decimalText() }).nullable(),
});

/**
 * The price of what is being typed (docs/rules/fees-and-rates.md#rates-on-screen): a quote's fields,
 * its reference rate and margin, but no id and no expiry: nothing is stored, nothing promised.
 */
export const PricePreviewSchema = QuoteSchema.extend({
  reference_rate: decimalText(),
  margin: decimalText(),
});
export type PricePreview = z.infer<typeof PricePreviewSchema>;
export const PricePreviewResponseSchema = dataOf(PricePreviewSchema);

/**
 * A quote is a promise (docs/rules/fees-and-rates.md#a-quote-is-a-promise): its price holds for an
 * initiation naming `id` until `expires_at`; `reference_rate` is the outside rate ours is set
 * against, `margin` the fraction of it we keep (1 − rate ÷ reference_rate).
 */
export const PromisedQuoteSchema = PricePreviewSchema.extend({
  id: z.uuid(),
  expires_at: isoDateTime(),
});
export type PromisedQuote = z.infer<typeof PromisedQuoteSchema>;
export const QuoteResponseSchema = dataOf(PromisedQuoteSchema);

/** How long each corridor's quotes hold, in minutes. */
export const QuoteValidityResponseSchema = dataOf(z.array(z.object({ direction: z.enum(DIRECTION_IDS), minutes: z.number().int() })));

/** Every rate pair both ways, units of the second currency per one of the first, and when they were last set. */
const RatesSchema = z.object({ updatedAt: isoDateTime() })
  .extend(Object.fromEntries(EXPANDED_RATE_KEYS.map((key) => [key, decimalText()])) as Record<(typeof EXPANDED_RATE_KEYS)[number], z.ZodString>);
export const RatesResponseSchema = dataOf(RatesSchema);
export type RatesResponse = z.infer<typeof RatesResponseSchema>;
