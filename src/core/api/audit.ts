import { z } from 'zod';
import { isoDateTime, pageOf, utcDay } from './common.js';

// The audit log (docs/rules/back-office.md#audit): every staff action with who, from where, what, and the values before and
// after. Admins read it a page at a time, filtered, and export it as CSV.

/** Every action the audit log records, by object. */
export const AUDIT_ACTIONS = [
  'transfer_request.status', 'transfer_request.payment', 'transfer_request.payout', 'transfer_request.refund', 'transfer_request.refund_request',
  'transfer_request.export', 'transfer_request.approve', 'transfer_request.note', 'approval_threshold.update', 'kyc_limits.update',
  'proof.view', 'kyc_document.view', 'kyc_document.mrz_type', 'kyc_review.decide', 'profile.role_update', 'profile.mfa_reset', 'profile.export', 'profile.close', 'profile.erase', 'fee_tier.create',
  'fee_tier.update', 'fee_tier.delete', 'rate.update', 'quote_validity.update', 'job.retry', 'reconciliation.statement',
  'reconciliation.match', 'audit.export', 'operator_prefix.create', 'operator_prefix.update', 'operator_prefix.delete',
  'screening_list.import', 'screening_list.update', 'screening_alert.decide', 'screening_settings.update',
  'transfer_request.close_out_propose', 'transfer_request.close_out',
  'monitoring_rule.update', 'monitoring_case.transition', 'monitoring_report.download', 'payout_rail.update', 'payout_rail.balance_warning', 'operator_statement.import',
  'payout_name_hold.propose', 'payout_name_hold.pay_anyway', 'payout_name_hold.ask_sender', 'payout_attempt.retry', 'payout_attempt.by_hand', 'payout_attempt.propose_pay_again', 'payout_attempt.pay_again', 'payout_attempt.ask_sender', 'collection_attempt.refund',
  'transfer_request.recipient_correct',
  'bank_file.create', 'bank_file.download', 'bank_file.cancel', 'bank_statement.import',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGETS = ['transfer', 'proof', 'profile', 'fee_tier', 'rate', 'job', 'reconciliation', 'export', 'approval_threshold', 'operator_prefix', 'kyc_limits', 'kyc_document', 'kyc_review', 'screening_list', 'screening_alert', 'screening_settings', 'corridor', 'monitoring_rule', 'monitoring_case', 'payout_rail', 'payout_name_hold', 'payout_attempt', 'bank_file', 'bank_statement', 'operator_statement'] as const;
export type AuditTarget = (typeof AUDIT_TARGETS)[number];

/** Filters of GET /api/audit and its CSV export; the page cursor is the last id shown. */
export const AuditFilterSchema = z.object({
  actor: z.uuid({ error: 'admin.validation.auditActorInvalid' }).optional(),
  action: z.enum(AUDIT_ACTIONS, { error: 'admin.validation.auditActionInvalid' }).optional(),
  target_type: z.enum(AUDIT_TARGETS, { error: 'admin.validation.auditTargetInvalid' }).optional(),
  target_id: z.string({ error: 'validation.checkInput' }).max(100, { error: 'validation.tooLong' }).optional(),
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: utcDay().optional(),
  to: utcDay().optional(),
});
export type AuditFilter = z.infer<typeof AuditFilterSchema>;

export const AuditQuerySchema = AuditFilterSchema.extend({
  cursor: z.coerce.number({ error: 'validation.cursorInvalid' }).int({ error: 'validation.cursorInvalid' })
    .positive({ error: 'validation.cursorInvalid' }).optional(),
  limit: z.coerce.number({ error: 'validation.limitRange' }).int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' }).max(100, { error: 'validation.limitRange' }).default(50),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

const AuditEntrySchema = z.object({
  id: z.number().int(),
  action: z.string(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  ip: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  created_at: isoDateTime(),
  actor: z.object({ profile_id: z.uuid().nullable(), full_name: z.string().nullable(), email: z.string().nullable() }),
  /** The object as a person names it: a profile's name and e-mail, a transfer's (or its proof's) reference; null for others (read by id). */
  target_label: z.string().nullable(),
  /** What the screen words beside the name: an identity review's level ("2"), a document's kind and side ("id_card:back"); else null. */
  target_detail: z.string().nullable(),
  /** The readable names of the ids among the values before and after (a person, a transfer's reference, an alert's name screened), by id. */
  names: z.record(z.string(), z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditPageSchema = pageOf(AuditEntrySchema);
export type AuditPage = z.infer<typeof AuditPageSchema>;
