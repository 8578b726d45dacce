import { z } from 'zod';
import { DIRECTION_IDS } from '../channels.js';
import { CURRENCIES } from '../money.js';
import { PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES } from '../status.js';
import { dataOf, decimalText, isoDateTime, pageOf } from './common.js';
import { FeeTierSchema } from './pricing.js';

// The back office's queries and answers: the staff list's filters, the dashboard's counts, daily
// volume, the audit log, and the fee tiers as an admin edits them.

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayField = z.string({ error: 'validation.checkInput' }).regex(DAY, { error: 'admin.validation.dateInvalid' })
  // A real calendar day: 2025-02-31 does not survive the round trip.
  .refine((d) => { const t = Date.parse(`${d}T00:00:00Z`); return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d; },
    { error: 'admin.validation.dateInvalid' });

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

/** What the audit log records changes of. */
export const AUDIT_TARGETS = ['rate', 'fee_tier', 'profile'] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/** The audit log pages by its numeric id: the cursor is the last id shown. */
export const AuditQuerySchema = z.object({
  target_type: z.enum(AUDIT_TARGETS, { error: 'admin.validation.auditTargetInvalid' }).optional(),
  target_id: z.string({ error: 'validation.checkInput' }).max(100, { error: 'validation.tooLong' }).optional(),
  cursor: z.coerce.number({ error: 'validation.cursorInvalid' }).int({ error: 'validation.cursorInvalid' })
    .positive({ error: 'validation.cursorInvalid' }).optional(),
  limit: z.coerce.number({ error: 'validation.limitRange' }).int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' }).max(100, { error: 'validation.limitRange' }).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

/** Requests per status for staff; users, fee tiers, parked jobs and the money totals for the admin only. */
export const StatsSchema = z.object({
  requests: z.record(z.enum(TRANSFER_STATUSES), z.number().int()),
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
export const VolumePointSchema = z.object({
  day: z.string(),
  direction: z.enum(DIRECTION_IDS),
  currency: z.enum(CURRENCIES),
  count: z.number().int(),
  amount: decimalText(),
  fees: decimalText(),
});
export type VolumePoint = z.infer<typeof VolumePointSchema>;

/** Daily volume over the last `days` UTC days, `from` and `to` included (YYYY-MM-DD). */
export const VolumeSchema = z.object({ days: z.number().int(), from: z.string(), to: z.string(), points: z.array(VolumePointSchema) });
export const VolumeResponseSchema = dataOf(VolumeSchema);
export type VolumeResponse = z.infer<typeof VolumeResponseSchema>;

const AuditSnapshotSchema = z.record(z.string(), z.unknown()).nullable();

/** Who changed what and when, with the values before and after. */
export const AuditEntrySchema = z.object({
  id: z.number().int(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  before: AuditSnapshotSchema,
  after: AuditSnapshotSchema,
  created_at: isoDateTime(),
  actor: z.object({ profile_id: z.uuid().nullable(), full_name: z.string().nullable(), email: z.string().nullable() }),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditPageSchema = pageOf(AuditEntrySchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** A fee tier as an admin edits it: the published tier and who last changed it. */
export const AdminFeeTierSchema = FeeTierSchema.extend({ updated_by: z.uuid().nullable() });
export type AdminFeeTier = z.infer<typeof AdminFeeTierSchema>;
export const AdminFeeTierResponseSchema = dataOf(AdminFeeTierSchema);

export const DeletedResponseSchema = dataOf(z.object({ id: z.uuid(), deleted: z.literal(true) }));
