import { z } from 'zod';
import { CHANNEL_IDS, DIRECTION_IDS } from '../channels.js';
import { HOLD_REASONS } from '../holds.js';
import { CURRENCIES } from '../money.js';
import { HISTORY_EVENTS, NOTE_VISIBILITIES, PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES } from '../status.js';
import { dataOf, decimalText, isoDateTime, pageOf } from './common.js';
import { TravelRuleSchema } from './kyc.js';

// Answers about transfers: a sender's requests and transactions, one request with its timeline
// and proofs, and the counts of the dashboard. Amounts are exact decimals as text.

/** Who receives the payout; the fields present depend on the destination channel. */
const DestinationDetailsSchema = z.looseObject({
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
  /** Units of the payout currency per unit sent, up to 20 decimals (docs/rules/fees-and-rates.md#rates). */
  rate: decimalText(),
  payout_amount: decimalText(),
  payout_currency: z.enum(CURRENCIES),
  fee_tier_id: z.uuid().nullable(),
  /** The quote whose price it took (docs/rules/fees-and-rates.md#a-quote-is-a-promise); null when priced at its creation. */
  quote_id: z.uuid().nullable(),
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
  /** The recipient's tracking page (docs/rules/transfers.md#tracking-link), \`{public URL}/t/{token}\`; null once the sender revoked it. */
  tracking_url: z.string().nullable(),
  /** Staff asked the sender for something and the sender has not answered (message or new proof) yet (docs/rules/back-office.md#notes-and-action-needed). */
  action_needed: z.boolean(),
  /** While action_needed: what staff asked (the latest sender-visible note that asked); else null. */
  action_message: z.string().nullable(),
  /** True while a compliance check holds the transfer, or froze its money once closed (docs/rules/screening.md#holds-and-alerts): never why. */
  on_hold: z.boolean().optional(),
  /** Bumped on every status change. */
  version: z.number().int(),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});
export type TransferRequestJson = z.infer<typeof TransferRequestSchema>;
export const TransferRequestResponseSchema = dataOf(TransferRequestSchema);
export type TransferRequestResponse = z.infer<typeof TransferRequestResponseSchema>;

/** One step of a transfer's timeline; who acted is given by role only. */
const HistoryStepSchema = z.object({
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
const ProofSchema = z.object({
  id: z.uuid(),
  filename: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
  created_at: isoDateTime(),
});
export type ProofJson = z.infer<typeof ProofSchema>;
export const ProofResponseSchema = dataOf(ProofSchema);
export type ProofResponse = z.infer<typeof ProofResponseSchema>;

/**
 * A message of the transfer's thread as its sender sees it: staff's sender-visible notes and the
 * sender's own messages, never an internal note, never a staff member's name.
 */
const SenderMessageSchema = z.object({
  id: z.uuid(),
  from: z.enum(['sender', 'staff']),
  body: z.string(),
  /** A staff message that asked the sender for something. */
  action_needed: z.boolean(),
  created_at: isoDateTime(),
});
export type SenderMessageJson = z.infer<typeof SenderMessageSchema>;
export const SenderMessageResponseSchema = dataOf(SenderMessageSchema);

/** A note of the transfer's thread as staff see it: internal notes, notes to the sender and the sender's messages (author_role 'owner'). */
const StaffNoteSchema = z.object({
  id: z.uuid(),
  author: z.object({ profile_id: z.uuid(), full_name: z.string().nullable(), role: z.string() }).nullable(),
  /** The author's role when writing ('admin', 'manager'), or 'owner' for the sender. */
  author_role: z.string(),
  visibility: z.enum(NOTE_VISIBILITIES),
  action_needed: z.boolean(),
  body: z.string(),
  created_at: isoDateTime(),
});
export type StaffNoteJson = z.infer<typeof StaffNoteSchema>;
export const StaffNoteResponseSchema = dataOf(StaffNoteSchema);

const threadBody = z.string({ error: 'transfer.thread.bodyRequired' }).trim()
  .min(1, { error: 'transfer.thread.bodyRequired' }).max(2000, { error: 'transfer.thread.bodyTooLong' });

/** POST /api/transfer-requests/{id}/notes (staff): an internal note, or a message to the sender that may ask for an action. */
export const NoteInputSchema = z.object({
  body: threadBody,
  visibility: z.enum(NOTE_VISIBILITIES, { error: 'transfer.thread.visibilityInvalid' }),
  action_needed: z.boolean({ error: 'validation.checkInput' }).optional(),
}).refine((note) => !(note.action_needed && note.visibility === 'internal'), {
  error: 'transfer.thread.actionNeedsSender', path: ['action_needed'],
});
export type NoteInput = z.infer<typeof NoteInputSchema>;

/** POST /api/transfer-requests/{id}/messages (the sender): an answer to staff; it clears action_needed. */
export const MessageInputSchema = z.object({ body: threadBody });
export type MessageInput = z.infer<typeof MessageInputSchema>;

/** GET /api/transfer-requests/{id}: the request with its timeline, proofs and how to pay it. */
const TransferDetailBaseSchema = TransferRequestSchema.extend({
  history: z.array(HistoryStepSchema),
  has_proof: z.boolean(),
  proofs: z.array(ProofSchema),
  transaction_id: z.uuid().nullable(),
  /** Where to pay by hand; null once nothing is to be paid (closed, or the payment received or authorized). */
  payment_instructions: z.string().nullable(),
  /** Paid through PayPal's checkout rather than by hand with a proof. */
  paypal_checkout: z.boolean(),
  /** A refund asked of PayPal and not confirmed yet (waiting, retried or parked): when staff asked. */
  refund_requested_at: isoDateTime().nullable(),
});

/** The sender's detail: their thread with staff (sender-visible messages only). */
const TransferDetailSchema = TransferDetailBaseSchema.extend({ messages: z.array(SenderMessageSchema) });
export type TransferDetail = z.infer<typeof TransferDetailSchema>;
export const TransferDetailResponseSchema = dataOf(TransferDetailSchema);
export type TransferDetailResponse = z.infer<typeof TransferDetailResponseSchema>;

/** Four-eyes (docs/rules/back-office.md#four-eyes) on a staff answer: the approval a transfer needs and whether it has it. */
const ApprovalFieldsSchema = z.object({
  /** The amount is at or above its currency's threshold. */
  approval_required: z.boolean(),
  /** Required and not approved yet: it cannot be completed. */
  needs_approval: z.boolean(),
  approved_at: isoDateTime().nullable(),
  /** Who processed it, recorded its payout and approved it (profile ids): whom the screens keep from approving. */
  processed_by: z.uuid().nullable(),
  payout_sent_by: z.uuid().nullable(),
  approved_by: z.uuid().nullable(),
});

/** A staff member named on a transfer. */
const StaffActorSchema = z.object({ profile_id: z.uuid(), full_name: z.string().nullable(), email: z.string() }).nullable();

/** A staff member who took a step of a close-out; null once their profile is gone. */
const StepActorSchema = z.object({ profile_id: z.uuid(), full_name: z.string().nullable() }).nullable();

/**
 * Closing out a transfer after a confirmed sanctions match (docs/rules/screening.md#closing-out-a-confirmed-match):
 * whether it may be proposed now (open, not paid out, held by a confirmed match), and the proposal
 * with its internal reason and who confirmed it, if anyone. Staff only.
 */
const CloseOutSchema = z.object({
  allowed: z.boolean(),
  proposal: z.object({
    reason: z.string(), proposed_by: StepActorSchema, proposed_at: isoDateTime(), confirmed_by: StepActorSchema, confirmed_at: isoDateTime().nullable(),
  }).nullable(),
});
export type CloseOutJson = z.infer<typeof CloseOutSchema>;
export const CloseOutResponseSchema = dataOf(CloseOutSchema);

/** POST /api/transfer-requests/{id}/close-out: why, for staff only (never shown to the sender). */
export const CloseOutInputSchema = z.object({
  reason: z.string({ error: 'admin.validation.closeOutReasonRequired' }).trim()
    .min(1, { error: 'admin.validation.closeOutReasonRequired' }).max(2000, { error: 'validation.tooLong' }),
});
export type CloseOutInput = z.infer<typeof CloseOutInputSchema>;

/** The staff detail: who did what, and the whole thread (internal notes too), oldest first. */
const StaffTransferDetailSchema = TransferDetailBaseSchema.extend({
  ...ApprovalFieldsSchema.shape,
  actors: z.object({
    processed_by: StaffActorSchema,
    approved_by: StaffActorSchema,
    payment_recorded_by: StaffActorSchema,
    payout_sent_by: StaffActorSchema,
    refunded_by: StaffActorSchema,
  }),
  notes: z.array(StaffNoteSchema),
  travel_rule: TravelRuleSchema,
  /** The compliance holds keeping it from being processed, and why (staff only). */
  holds: z.array(z.object({
    id: z.uuid(), reason: z.enum(HOLD_REASONS), sender_wide: z.boolean(), source_id: z.uuid().nullable(),
    detail: z.record(z.string(), z.unknown()), created_at: isoDateTime(),
  })),
  close_out: CloseOutSchema,
});
export type StaffTransferDetail = z.infer<typeof StaffTransferDetailSchema>;
export const StaffTransferDetailResponseSchema = dataOf(StaffTransferDetailSchema);
export type StaffTransferDetailResponse = z.infer<typeof StaffTransferDetailResponseSchema>;

/**
 * GET /api/transfer-requests/{id} answers staff with the staff detail, the sender with theirs.
 * The staff shape comes first: an answer keeps only the fields of the first shape it matches, and
 * a sender's answer (no notes, no actors) never matches it.
 */
export const TransferDetailAnswerSchema = dataOf(z.union([StaffTransferDetailSchema, TransferDetailSchema]));

/**
 * POST /api/transfer-requests/{id}/refund: the transfer as it stands. A PayPal refund is asked of
 * PayPal by a queued job: until PayPal confirms it, the payment stays `refund_due` and
 * refund_requested_at says when staff asked.
 */
const TransferRefundSchema = TransferRequestSchema.extend({
  refund_requested_at: isoDateTime().nullable(),
});
export type TransferRefundJson = z.infer<typeof TransferRefundSchema>;
export const TransferRefundResponseSchema = dataOf(TransferRefundSchema);

/** A transaction as the history and dashboard list it, with what its request adds for the screens and the receipt. */
const TransactionSchema = z.object({
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
  payment_amount: true, payment_reference: true, payout_status: true, refund_reference: true, tracking_url: true,
  action_needed: true, action_message: true, payment_recorded_at: true, on_hold: true,
}).shape).extend({
  /** The sender uploaded a proof of payment for it. */
  has_proof: z.boolean(),
});
export type TransactionJson = z.infer<typeof TransactionSchema>;
export const TransactionPageSchema = pageOf(TransactionSchema);
export type TransactionPage = z.infer<typeof TransactionPageSchema>;

/** A count for each transfer status, every status a named property. */
export const StatusCountsSchema = z.object(
  Object.fromEntries(TRANSFER_STATUSES.map((status) => [status, z.number().int()])) as Record<(typeof TRANSFER_STATUSES)[number], z.ZodNumber>,
);

/** The sender's transactions counted by status (dashboard). */
const TransferSummarySchema = z.object({ total: z.number().int(), ...StatusCountsSchema.shape });
export type TransferSummary = z.infer<typeof TransferSummarySchema>;
export const TransferSummaryResponseSchema = dataOf(TransferSummarySchema);
export type TransferSummaryResponse = z.infer<typeof TransferSummaryResponseSchema>;

/** The sender a staff row names. */
const RequesterSchema = z.object({ full_name: z.string().nullable(), email: z.string(), profile_id: z.uuid() });

/**
 * A request in the back office's list: every sender's, with who sent it, its four-eyes state, and
 * whether it is late (open past its corridor's expected delivery, src/core/delivery.ts).
 */
const StaffRequestSchema = TransferRequestSchema.extend({
  requester: RequesterSchema, ...ApprovalFieldsSchema.shape, late: z.boolean(),
  /** The sender uploaded a proof of payment (the queue shows it while the payment is awaited). */
  has_proof: z.boolean(),
  /** The thread's last word is the sender's: staff have not answered it yet. */
  sender_replied: z.boolean(),
  /** Open and held by a compliance check: it cannot be processed, approved, paid out or rejected until released. */
  on_hold: z.boolean(),
});
export const StaffRequestResponseSchema = dataOf(StaffRequestSchema);
export type StaffRequestResponse = z.infer<typeof StaffRequestResponseSchema>;
export type StaffRequestJson = z.infer<typeof StaffRequestSchema>;
const StaffRequestPageSchema = pageOf(StaffRequestSchema);
export type StaffRequestPage = z.infer<typeof StaffRequestPageSchema>;

/**
 * GET /api/transfer-requests: staff get the back office's list (rows name their sender), a
 * sender their own requests. A union answer is checked against its shapes in turn and keeps the
 * first that fits: the sender's shape comes first, as most pages are a sender's, and is strict, so
 * a staff page (whose rows have more fields) does not fit it and keeps the staff fields.
 */
export const TransferRequestListSchema = z.union([pageOf(z.strictObject(TransferRequestSchema.shape)), StaffRequestPageSchema]);
