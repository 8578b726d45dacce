import { z } from 'zod';
import { DIRECTION_IDS } from '../channels.js';
import { CURRENCIES } from '../money.js';
import { PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES } from '../status.js';
import { dataOf, decimalText, utcDay } from './common.js';
import { FeeTierSchema } from './pricing.js';
import { StatusCountsSchema } from './transfers.js';

// The back office's queries and answers: the staff list's filters, the dashboard's counts, daily
// volume, the audit log, and the fee tiers as an admin edits them.

const dayField = utcDay();
/** A query-string switch: "true" filters, "false" or absent does not. */
const booleanFlag = z.enum(['true', 'false'], { error: 'validation.checkInput' }).transform((v) => v === 'true');

/** The back office's filters; the same for the list and the CSV export. */
export const StaffFilterSchema = z.object({
  status: z.enum(TRANSFER_STATUSES, { error: 'validation.statusInvalid' }).optional(),
  payment: z.enum(PAYMENT_STATUSES, { error: 'admin.validation.paymentStateInvalid' }).optional(),
  payout: z.enum(PAYOUT_STATUSES, { error: 'admin.validation.payoutStateInvalid' }).optional(),
  direction: z.enum(DIRECTION_IDS, { error: 'validation.directionInvalid' }).optional(),
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: dayField.optional(),
  to: dayField.optional(),
  q: z.string({ error: 'validation.checkInput' }).trim().max(100, { error: 'validation.searchTooLong' }).optional(),
  /** "true": only open transfers that wait for a second staff member's approval (docs/rules/back-office.md#four-eyes). */
  needs_approval: booleanFlag.optional(),
  /** "true": only transfers that wait for their sender to answer (docs/rules/back-office.md#notes-and-action-needed). */
  action_needed: booleanFlag.optional(),
  /** "true": only open transfers past their corridor's expected delivery (docs/rules/back-office.md#staff-queue). */
  late: booleanFlag.optional(),
  /** "true": only open transfers a compliance hold keeps from moving (docs/rules/back-office.md#held-transfers). */
  held: booleanFlag.optional(),
  sort: z.enum(['newest', 'oldest'], { error: 'admin.validation.sortInvalid' }).default('newest'),
});
export type StaffFilter = z.infer<typeof StaffFilterSchema>;

export const StaffListQuerySchema = StaffFilterSchema.extend({
  cursor: z.string({ error: 'validation.cursorInvalid' }).max(200, { error: 'validation.cursorInvalid' }).optional(),
  limit: z.coerce.number({ error: 'validation.limitRange' }).int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' }).max(100, { error: 'validation.limitRange' }).default(20),
});
export type StaffListQuery = z.infer<typeof StaffListQuerySchema>;

export const VolumeQuerySchema = z.object({
  days: z.coerce.number({ error: 'admin.validation.daysRange' }).int({ error: 'admin.validation.daysRange' })
    .min(1, { error: 'admin.validation.daysRange' }).max(366, { error: 'admin.validation.daysRange' }).default(30),
});


/** Requests per status for staff; users, fee tiers, parked jobs and the money totals for the admin only. */
const StatsSchema = z.object({
  requests: StatusCountsSchema,
  users: z.number().int().optional(),
  fee_tiers: z.number().int().optional(),
  /** Background jobs that ran out of attempts (admin only). */
  parked_jobs: z.number().int().optional(),
  /** Per currency, from the ledger's running balances (admin only; docs/rules/money-states.md#ledger). */
  money: z.array(z.object({
    currency: z.enum(CURRENCIES),
    /** Every payment received (the credits of customer funds). */
    received: decimalText(),
    /** Fees earned on completed transfers (fee revenue, credits less debits). */
    fees_earned: decimalText(),
    /** Money owed back to senders and not yet refunded (refunds payable). */
    refunds_owed: decimalText(),
  })).optional(),
});
export type Stats = z.infer<typeof StatsSchema>;
export const StatsResponseSchema = dataOf(StatsSchema);
export type StatsResponse = z.infer<typeof StatsResponseSchema>;

/** One day's volume and fees of one corridor, in its source currency. */
const VolumePointSchema = z.object({
  day: z.string(),
  direction: z.enum(DIRECTION_IDS),
  currency: z.enum(CURRENCIES),
  count: z.number().int(),
  amount: decimalText(),
  fees: decimalText(),
});
export type VolumePoint = z.infer<typeof VolumePointSchema>;

/** Daily volume over the last `days` UTC days, `from` and `to` included (YYYY-MM-DD). */
const VolumeSchema = z.object({ days: z.number().int(), from: z.string(), to: z.string(), points: z.array(VolumePointSchema) });
export const VolumeResponseSchema = dataOf(VolumeSchema);
export type VolumeResponse = z.infer<typeof VolumeResponseSchema>;

/** A fee tier as an admin edits it: the published tier and who last changed it. */
const AdminFeeTierSchema = FeeTierSchema.extend({ updated_by: z.uuid().nullable() });
export type AdminFeeTier = z.infer<typeof AdminFeeTierSchema>;
export const AdminFeeTierResponseSchema = dataOf(AdminFeeTierSchema);

export const DeletedResponseSchema = dataOf(z.object({ id: z.uuid(), deleted: z.literal(true) }));
