import { z } from 'zod';
import { COLLECTION_REASONS, COLLECTION_STATES } from '../collections.js';
import { CURRENCIES } from '../money.js';
import { ATTEMPT_STATES, RAIL_IDS } from '../rails.js';
import { dataOf, decimalText, isoDateTime } from './common.js';
import { PayoutAttemptSchema } from './rails.js';

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

/**
 * A collection as staff see it when it needs a person (docs/rules/payout-rails.md#collections-that-need-a-person):
 * what the operator said at each step, and for money received twice the payment recorded otherwise
 * and any refund staff recorded.
 */
export const CollectionAttemptStaffSchema = z.object({
  id: z.uuid(),
  transfer_id: z.uuid(),
  seq: z.number().int(),
  rail: z.enum(RAIL_IDS),
  state: z.enum(ATTEMPT_STATES),
  /** Our reference (Airtel's transaction.id, MTN's X-Reference-Id). */
  reference: z.string(),
  /** The operator's own transaction id, once it gave one. */
  operator_id: z.string().nullable(),
  /** The wallet asked to pay, E.164. */
  msisdn: z.string(),
  amount: decimalText(),
  currency: z.enum(CURRENCIES),
  steps: PayoutAttemptSchema.shape.steps,
  enquiries: z.number().int(),
  created_at: isoDateTime(),
  sent_at: isoDateTime().nullable(),
  settled_at: isoDateTime().nullable(),
  needs_attention_at: isoDateTime().nullable(),
  /** Money received twice: the payment the transfer had already recorded (by staff, or by another way). */
  recorded_payment: z.object({
    reference: z.string().nullable(),
    amount: decimalText().nullable(),
    /** The staff member who recorded it; null when no one did (recorded by itself). */
    recorded_by: z.uuid().nullable(),
  }).nullable(),
  /** Staff gave the extra money back by hand: the refund's reference, who and when. */
  refund_reference: z.string().nullable(),
  refunded_by: z.uuid().nullable(),
  refunded_at: isoDateTime().nullable(),
});
export type CollectionAttemptStaffJson = z.infer<typeof CollectionAttemptStaffSchema>;
export const CollectionAttemptStaffResponseSchema = dataOf(CollectionAttemptStaffSchema);

/** POST /api/collection-attempts/{id}/refund (staff): the reference of the refund made by hand (the operator's transaction id). */
export const CollectionRefundSchema = z.object({
  reference: z.string({ error: 'validation.refundReferenceRequired' }).trim()
    .min(1, { error: 'validation.refundReferenceRequired' }).max(200, { error: 'validation.tooLong' }),
}, { error: 'validation.checkInput' });
export type CollectionRefund = z.infer<typeof CollectionRefundSchema>;
