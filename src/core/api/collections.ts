import { z } from 'zod';
import { COLLECTION_REASONS, COLLECTION_STATES } from '../collections.js';
import { CURRENCIES } from '../money.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// "Approve on my phone" (docs/rules/payout-rails.md#collections): the sender asks the operator to
// take the payment from their wallet, then follows the request until the money is received.

/** POST /api/transfer-requests/{id}/collect: the wallet asked to pay (the sender's own number, or one they type). */
export const CollectRequestSchema = z.object({
  msisdn: z.string({ error: 'validation.phoneRequired' }).trim().min(1, { error: 'validation.phoneRequired' }).max(40, { error: 'validation.tooLong' }),
});
export type CollectRequest = z.infer<typeof CollectRequestSchema>;

const CollectionSchema = z.object({
  id: z.uuid(),
  /** approve_on_phone while the operator waits for the sender (or has not answered yet), then received, failed or expired. */
  state: z.enum(COLLECTION_STATES),
  /** Why it failed or expired, in the sender's terms; null otherwise. */
  reason: z.enum(COLLECTION_REASONS).nullable(),
  /** The wallet asked, E.164. */
  msisdn: z.string(),
  amount: decimalText(),
  currency: z.enum(CURRENCIES),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});
export type CollectionJson = z.infer<typeof CollectionSchema>;
export const CollectionResponseSchema = dataOf(CollectionSchema);

/** GET /api/transfer-requests/{id}/collection: whether the sender may approve on their phone now, and the latest request. */
export const CollectionStatusSchema = dataOf(z.object({
  /** "Approve on my phone" is offered: the transfer waits for its payment and its channel's operator takes requests. */
  available: z.boolean(),
  collection: CollectionSchema.nullable(),
}));
export type CollectionStatus = z.infer<typeof CollectionStatusSchema>['data'];
