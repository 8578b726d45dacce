import { z } from 'zod';
import { RAIL_IDS } from '../rails.js';
import { dataOf, decimalText, isoDateTime } from './common.js';
import { CollectionAttemptStaffSchema } from './collections.js';
import { NameCheckSchema, PayoutAttemptSchema } from './rails.js';

// Payouts that need a person (docs/rules/payout-rails.md#needs-attention): a name check that
// stopped the payout, an attempt still unknown past PAYOUT_UNKNOWN_AFTER, a failed attempt or
// one the operator took back that nobody acted on; staff's decisions on them, and the sender's corrected recipient.

export const NAME_HOLD_DECISIONS = ['pay_anyway', 'ask_sender'] as const;

const NameHoldSchema = z.object({
  id: z.uuid(),
  transfer_id: z.uuid(),
  rail: z.enum(RAIL_IDS),
  /** The recipient's name as the sender wrote it, the operator's registered one, the outcome and score. */
  name_check: NameCheckSchema,
  created_at: isoDateTime(),
  decision: z.enum(NAME_HOLD_DECISIONS).nullable(),
  decided_by: z.uuid().nullable(),
  decided_at: isoDateTime().nullable(),
  /** Why staff pay anyway (the proposal's reason when a second staff member confirmed it). */
  reason: z.string().nullable(),
  /** At or above the approval threshold: who proposed paying anyway, waiting for a second staff member. */
  proposed_by: z.uuid().nullable(),
  proposed_at: isoDateTime().nullable(),
  /** Set once the sender corrected the recipient: a new check replaced this one. */
  closed_at: isoDateTime().nullable(),
  /** Paying anyway needs a second staff member: the transfer is at or above its approval threshold. */
  four_eyes: z.boolean(),
});
export type NameHoldJson = z.infer<typeof NameHoldSchema>;
export const NameHoldResponseSchema = dataOf(NameHoldSchema);
/** Asking the sender after a return: the hold a mobile payout now waits on, or null for a bank account (no name check). */
export const AskSenderResponseSchema = dataOf(NameHoldSchema.nullable());
export const NameHoldListSchema = dataOf(z.array(NameHoldSchema));

/** POST /api/payout-name-holds/{id}/pay-anyway (staff): the reason is required. */
export const PayAnywaySchema = z.object({
  reason: z.string({ error: 'admin.payouts.reasonRequired' }).trim()
    .min(1, { error: 'admin.payouts.reasonRequired' }).max(1000, { error: 'validation.tooLong' }),
}, { error: 'validation.checkInput' });
export type PayAnyway = z.infer<typeof PayAnywaySchema>;

/** Paying a reversed payout again: through the rail (a new attempt) or by hand ("Record payout"), with a reason. */
export const PayAgainSchema = PayAnywaySchema.extend({
  how: z.enum(['retried', 'by_hand'], { error: 'validation.checkInput' }),
});
export type PayAgain = z.infer<typeof PayAgainSchema>;

/** The body of a decision that takes nothing but the choice itself. */
export const EmptyBodySchema = z.object({}, { error: 'validation.checkInput' });

/** A payout's (a name check, an attempt unknown, failed or reversed) or a collection's (unknown, or money received twice). */
export const PAYOUT_EXCEPTION_KINDS = ['name_hold', 'unknown', 'failed', 'reversed', 'collection_unknown', 'collection_twice'] as const;
export type PayoutExceptionKind = (typeof PAYOUT_EXCEPTION_KINDS)[number];

const PayoutExceptionSchema = z.object({
  kind: z.enum(PAYOUT_EXCEPTION_KINDS),
  /** Since when it waits for staff: the hold's check, the attempt's move to staff, its failure or reversal. */
  since: isoDateTime(),
  transfer: z.object({
    id: z.uuid(),
    reference: z.string(),
    status: z.string(),
    sender_id: z.uuid(),
    amount: decimalText(),
    currency: z.string(),
    payout_amount: decimalText(),
    payout_currency: z.string(),
    recipient_name: z.string().nullable(),
    recipient_phone: z.string().nullable(),
  }),
  /** For a name hold: both names, the outcome, and any proposal or decision. */
  hold: NameHoldSchema.nullable(),
  /** For an unknown, failed or reversed attempt: what is known (steps, the operator's id, times). */
  attempt: PayoutAttemptSchema.nullable(),
  /** For a collection from the sender's wallet: what the operator said, and for money received twice the payment recorded first. */
  collection: CollectionAttemptStaffSchema.nullable(),
});
export type PayoutExceptionJson = z.infer<typeof PayoutExceptionSchema>;
export const PayoutExceptionListSchema = dataOf(z.array(PayoutExceptionSchema));

/** What the sender sees of a correction staff asked for (GET …/recipient-correction), or null. */
const RecipientCorrectionStateSchema = z.object({
  asked_at: isoDateTime(),
  recipient_name: z.string().nullable(),
  recipient_phone: z.string().nullable(),
  destination_provider: z.string(),
  /** A French bank account to correct (the bank sent the payout back): its holder and IBAN; else null. */
  account_holder: z.string().nullable(),
  iban: z.string().nullable(),
});
export type RecipientCorrectionState = z.infer<typeof RecipientCorrectionStateSchema>;
export const RecipientCorrectionResponseSchema = dataOf(RecipientCorrectionStateSchema.nullable());
