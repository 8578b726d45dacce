import { z } from 'zod';
import { RATE_KEYS } from '../rates.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// Rates with their source (docs/rules/fees-and-rates.md#rate-sources): the admin's view and edits.

export const RateSourceSchema = z.object({
  key: z.enum(RATE_KEYS),
  /** Our rate: units of the second currency per unit of the first. */
  ours: decimalText(),
  /** The outside rate ours is set against (ours when there is none). */
  reference: decimalText(),
  source: z.enum(['parity', 'ecb', 'staff']),
  /** 1 − ours ÷ reference, 6 decimals ("0.001459" is 0.1459 %). */
  margin: z.string(),
  updated_at: isoDateTime(),
  /** Older than the maximum age: quotes on it are refused until it is set again. */
  stale: z.boolean(),
});
export type RateSource = z.infer<typeof RateSourceSchema>;

export const RateSourcesSchema = z.object({ rates: z.array(RateSourceSchema), max_age_hours: z.number().int() });
export type RateSources = z.infer<typeof RateSourcesSchema>;
export const RateSourcesResponseSchema = dataOf(RateSourcesSchema);

/** PATCH /api/rates/{key}: ours, and optionally the reference staff enter (null: none). */
export const RateBodySchema = z.object({
  value: z.union([z.string(), z.number()], { error: 'validation.rateInvalid' }),
  reference: z.union([z.string(), z.number()], { error: 'validation.rateInvalid' }).nullable().optional(),
});

/** PUT /api/rates/max-age: whole hours, 1 to 720. */
export const RateMaxAgeSchema = z.object({ hours: z.number({ error: 'admin.validation.rateMaxAgeInvalid' }) });
