import { z } from 'zod';
import { ATTEMPT_STATES, MOBILE_RAIL_IDS, NAME_CHECK_OUTCOMES, RAIL_IDS } from '../rails.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// Payout rails (docs/rules/payout-rails.md): each operator rail's state for staff, the admin's
// switch, and a transfer's payout attempts.

/** A payout waiting for the operator's float, in the queue's order. */
const FloatWaitSchema = z.object({
  transfer_id: z.uuid(),
  reference: z.string(),
  amount: decimalText(),
  /** When its controls had all cleared and the float did not cover it: its place in the queue. */
  since: isoDateTime(),
});

const RailSchema = z.object({
  id: z.enum(RAIL_IDS),
  /** The business set this operator's credentials. */
  configured: z.boolean(),
  /** The variables still to set before it can be switched on: their names, never a value. */
  missing: z.array(z.string()),
  /** An admin switched it on: payouts of its channel leave through the operator's API. */
  enabled: z.boolean(),
  last_ok_at: isoDateTime().nullable(),
  /** The operator's balance as last read, or null before the first reading. */
  balance: z.object({ amount: decimalText(), currency: z.string(), read_at: isoDateTime() }).nullable(),
  /** Below this balance the rail is shown with a warning (admin-set); null: no warning. */
  balance_warning: decimalText().nullable(),
  /** The balance last read is below the warning level. */
  below_warning: z.boolean(),
  /** Payouts of this rail under way: attempts open (sent or being asked about). */
  in_flight: z.number().int(),
  /** Payouts waiting for float: the balance last read does not cover them. */
  waiting: z.number().int(),
  /** Those payouts, first to leave first. */
  queue: z.array(FloatWaitSchema),
  /** What the float lacks for every waiting payout ("0" when it covers them); null before a first reading. */
  shortfall: decimalText().nullable(),
});
export type RailJson = z.infer<typeof RailSchema>;
export const RailListSchema = dataOf(z.array(RailSchema));
export const RailResponseSchema = dataOf(RailSchema);

export const RailParamsSchema = z.object({ id: z.enum(RAIL_IDS, { error: 'errors.notFound' }) });
/** An operator's rail: one with a float balance. */
export const MobileRailParamsSchema = z.object({ id: z.enum(MOBILE_RAIL_IDS, { error: 'errors.notFound' }) });

/** PUT /api/rails/{id} (admin). */
export const RailUpdateSchema = z.object({ enabled: z.boolean({ error: 'validation.checkInput' }) });
export type RailUpdate = z.infer<typeof RailUpdateSchema>;

/** PUT /api/rails/{id}/balance-warning (admin): the level in the rail's currency, or null for none. */
export const BalanceWarningSchema = z.object({
  amount: z.string({ error: 'validation.checkInput' }).max(24, { error: 'validation.checkInput' }).nullable(),
});
export type BalanceWarning = z.infer<typeof BalanceWarningSchema>;

export const NameCheckSchema = z.object({
  outcome: z.enum(NAME_CHECK_OUTCOMES),
  recipient_name: z.string(),
  registered_name: z.string().nullable(),
  score: z.number().nullable(),
  checked_at: isoDateTime(),
});

const AttemptStepSchema = z.object({
  at: isoDateTime(),
  call: z.string(),
  http_status: z.number().int().nullable(),
  operator_code: z.string().nullable(),
  message: z.string().nullable(),
  state: z.enum(ATTEMPT_STATES),
});

export const PayoutAttemptSchema = z.object({
  id: z.uuid(),
  seq: z.number().int(),
  rail: z.enum(RAIL_IDS),
  state: z.enum(ATTEMPT_STATES),
  /** Our reference, the operator's idempotency key (Airtel transaction.id, MTN X-Reference-Id). */
  reference: z.string(),
  /** The operator's own transaction id, once it gave one. */
  operator_id: z.string().nullable(),
  amount: decimalText(),
  currency: z.string(),
  /** The wallet paid and the operator's name for it (mobile rails); null for a bank payout. */
  msisdn: z.string().nullable(),
  name_check: NameCheckSchema.nullable(),
  /** The account paid by a bank payout (sepa_france), and the file it left in; null for a mobile one. */
  iban: z.string().nullable(),
  bank_file_id: z.uuid().nullable(),
  steps: z.array(AttemptStepSchema),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
  settled_at: isoDateTime().nullable(),
  /** When an attempt still unknown went to staff's "needs attention". */
  needs_attention_at: isoDateTime().nullable(),
  /** Staff's word on a failed attempt: retried through the rail, or left to be sent by hand. */
  resolution: z.enum(['retried', 'by_hand']).nullable(),
  /** Staff's reason to pay a reversed payout again; null otherwise. */
  resolution_reason: z.string().nullable(),
  /** Paying a reversed payout again at or above the approval threshold: what was proposed, by whom, waiting for a second staff member. */
  proposal: z.object({ resolution: z.enum(['retried', 'by_hand']), by: z.uuid().nullable(), at: z.iso.datetime(), reason: z.string().nullable() }).nullable(),
});
export type PayoutAttemptJson = z.infer<typeof PayoutAttemptSchema>;
export const PayoutAttemptListSchema = dataOf(z.array(PayoutAttemptSchema));
export const PayoutAttemptResponseSchema = dataOf(PayoutAttemptSchema);
