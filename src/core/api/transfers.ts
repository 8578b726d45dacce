import { z } from 'zod';
import { CHANNEL_IDS, DIRECTION_IDS } from '../channels.js';
import { CURRENCIES } from '../money.js';
import { HISTORY_EVENTS, PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES } from '../status.js';
import { dataOf, decimalText, isoDateTime, pageOf } from './common.js';

// Answers about transfers: a sender's requests and transactions, one request with its timeline
// and proofs, and the counts of the dashboard. Amounts are exact decimals as text.

/** Who receives the payout; the fields present depend on the destination channel. */
export const DestinationDetailsSchema = z.looseObject({
  recipient_name: z.string().nullable().optional(),
  recipient_email: z.string().optional(),
  recipient_phone: z.string().optional(),
  iban: z.string().optional(),
  bic: z.string().optional(),
  account_holder: z.string().optional(),
});
export type DestinationDetails = z.infer<typeof DestinationDetailsSchema>;

/** A transfer request: channels, price, status and references (internal idempotency keys never leave the server). */
export const TransferRequestSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  profile_id: z.uuid(),
  direction: z.enum(DIRECTION_IDS),
  source_provider: z.enum(CHANNEL_IDS),
  source_details: z.looseObject({ note: z.string().optional() }),
  destination_provider: z.enum(CHANNEL_IDS),
  destination_details: DestinationDetailsSchema,
  amount: decimalText(),
  currency: z.enum(CURRENCIES),
  fee: decimalText(),
  total: decimalText(),
  rate: decimalText(),
  payout_amount: decimalText(),
  payout_currency: z.enum(CURRENCIES),
  fee_tier_id: z.uuid().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  payment_status: z.enum(PAYMENT_STATUSES),
  provider_order_id: z.string().nullable(),
  provider_txn_id: z.string().nullable(),
  /** What was received, as recorded; differs from the total when payment_flagged. */
  payment_amount: decimalText().nullable(),
  payment_reference: z.string().nullable(),
  payment_flagged: z.boolean(),
  payment_recorded_at: isoDateTime().nullable(),
  payout_status: z.enum(PAYOUT_STATUSES),
  payout_reference: z.string().nullable(),
  payout_sent_at: isoDateTime().nullable(),
  refund_reference: z.string().nullable(),
  refunded_at: isoDateTime().nullable(),
  /** Bumped on every status change. */
  version: z.number().int(),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});
export type TransferRequestJson = z.infer<typeof TransferRequestSchema>;
export const TransferRequestResponseSchema = dataOf(TransferRequestSchema);
export type TransferRequestResponse = z.infer<typeof TransferRequestResponseSchema>;

/** One step of a transfer's timeline; who acted is given by role only. */
export const HistoryStepSchema = z.object({
  from_status: z.enum(TRANSFER_STATUSES).nullable(),
  to_status: z.enum(TRANSFER_STATUSES),
  /** A step that moved the money, not the status (then from_status = to_status). */
  event: z.enum(HISTORY_EVENTS).nullable(),
  note: z.string().nullable(),
  /** The actor's role, or 'owner' for the sender's own steps. */
  actor_role: z.string().nullable(),
  created_at: isoDateTime(),
});
export type HistoryStep = z.infer<typeof HistoryStepSchema>;

/** A proof of payment the sender uploaded, without its bytes; every one is kept, with its time. */
export const ProofSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  created_at: isoDateTime(),
});
export type ProofJson = z.infer<typeof ProofSchema>;
export const ProofResponseSchema = dataOf(ProofSchema);
export type ProofResponse = z.infer<typeof ProofResponseSchema>;

/** GET /api/transfer-requests/{id}: the request with its timeline, proofs and how to pay it. */
export const TransferDetailSchema = TransferRequestSchema.extend({
  history: z.array(HistoryStepSchema),
  has_proof: z.boolean(),
  proofs: z.array(ProofSchema),
  transaction_id: z.uuid().nullable(),
  payment_instructions: z.string(),
  /** Paid through PayPal's checkout rather than by hand with a proof. */
  paypal_checkout: z.boolean(),
  /** A refund asked of PayPal and not confirmed yet (waiting, retried or parked): when staff asked. */
  refund_requested_at: isoDateTime().nullable(),
});
export type TransferDetail = z.infer<typeof TransferDetailSchema>;
export const TransferDetailResponseSchema = dataOf(TransferDetailSchema);
export type TransferDetailResponse = z.infer<typeof TransferDetailResponseSchema>;

/**
 * POST /api/transfer-requests/{id}/refund: the transfer as it stands. A PayPal refund is asked of
 * PayPal by a queued job: until PayPal confirms it, the payment stays `refund_due` and
 * refund_requested_at says when staff asked.
 */
export const TransferRefundSchema = TransferRequestSchema.extend({
  refund_requested_at: isoDateTime().nullable(),
});
export type TransferRefundJson = z.infer<typeof TransferRefundSchema>;
export const TransferRefundResponseSchema = dataOf(TransferRefundSchema);

/** A transaction as the history and dashboard list it, with what its request adds for the screens and the receipt. */
export const TransactionSchema = z.object({
  id: z.uuid(),
  transfer_request_id: z.uuid(),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
  direction: z.enum(DIRECTION_IDS),
  amount: decimalText(),
  currency: z.enum(CURRENCIES),
  status: z.enum(TRANSFER_STATUSES),
  provider_txn_id: z.string().nullable(),
  destination_details: DestinationDetailsSchema,
  metadata: z.record(z.string(), z.unknown()),
}).extend(TransferRequestSchema.pick({
  reference: true, source_provider: true, destination_provider: true, fee: true, total: true, rate: true,
  payout_amount: true, payout_currency: true, payout_reference: true, payment_status: true,
  payment_amount: true, payment_reference: true, payout_status: true, refund_reference: true,
}).shape);
export type TransactionJson = z.infer<typeof TransactionSchema>;
export const TransactionPageSchema = pageOf(TransactionSchema);
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

/** The sender's transactions counted by status (dashboard). */
export const TransferSummarySchema = z.object({
  total: z.number().int(),
  ...Object.fromEntries(TRANSFER_STATUSES.map((status) => [status, z.number().int()])) as Record<(typeof TRANSFER_STATUSES)[number], z.ZodNumber>,
});
export type TransferSummary = z.infer<typeof TransferSummarySchema>;
export const TransferSummaryResponseSchema = dataOf(TransferSummarySchema);
export type TransferSummaryResponse = z.infer<typeof TransferSummaryResponseSchema>;

/** The sender a staff row names. */
export const RequesterSchema = z.object({ full_name: z.string().nullable(), email: z.string(), profile_id: z.uuid() });

/** A request in the back office's list: every sender's, with who sent it. */
export const StaffRequestSchema = TransferRequestSchema.extend({ requester: RequesterSchema });
export type StaffRequestJson = z.infer<typeof StaffRequestSchema>;
export const StaffRequestPageSchema = pageOf(StaffRequestSchema);
export type StaffRequestPage = z.infer<typeof StaffRequestPageSchema>;

/**
 * GET /api/transfer-requests: staff get the back office's list (rows name their sender), a
 * sender their own requests. The staff shape comes first: answers keep only the fields of the
 * first shape they match.
 */
export const TransferRequestListSchema = z.union([StaffRequestPageSchema, pageOf(TransferRequestSchema)]);
