import { z } from 'zod';
import { CASE_OUTCOMES, CASE_STATUSES } from '../monitoring/cases.js';
import { MONITORING_RULES } from '../monitoring/rules.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// Transaction monitoring (docs/rules/monitoring.md): the rules' settings the admin edits, the
// cases staff work through, and the alerts with their evidence.

const RuleNameSchema = z.enum(MONITORING_RULES, { error: 'admin.validation.monitoringRuleInvalid' });
const ThresholdValueSchema = z.union([z.number(), z.string()]);

const ThresholdFieldSchema = z.object({
  key: z.string(),
  kind: z.enum(['count', 'days', 'percent', 'amount']),
  currency: z.string().optional().describe('An amount\'s currency: EUR (compared at the published rates) or the transfer\'s own'),
});

const MonitoringRuleSchema = z.object({
  rule: RuleNameSchema,
  enabled: z.boolean(),
  holds: z.boolean().describe('A hit holds the transfer (reason monitoring) until its case is closed'),
  thresholds: z.record(z.string(), ThresholdValueSchema),
  fields: z.array(ThresholdFieldSchema),
  defaults: z.object({ enabled: z.boolean(), holds: z.boolean(), thresholds: z.record(z.string(), ThresholdValueSchema) }),
  updated_at: isoDateTime().nullable().describe('Null while the rule has its defaults'),
});
export type MonitoringRuleState = z.infer<typeof MonitoringRuleSchema>;
export const MonitoringRulesResponseSchema = dataOf(z.array(MonitoringRuleSchema));
export const MonitoringRuleResponseSchema = dataOf(MonitoringRuleSchema);

export const MonitoringRuleParamsSchema = z.object({ rule: RuleNameSchema });

/** PUT /api/monitoring/rules/{rule}: what changes; thresholds named are checked against the rule's fields. */
export const MonitoringRuleUpdateSchema = z.object({
  enabled: z.boolean({ error: 'validation.checkInput' }).optional(),
  holds: z.boolean({ error: 'validation.checkInput' }).optional(),
  thresholds: z.record(z.string(), ThresholdValueSchema, { error: 'admin.validation.monitoringThresholdInvalid' }).optional(),
});
export type MonitoringRuleUpdate = z.infer<typeof MonitoringRuleUpdateSchema>;

const EvidenceSchema = z.object({
  compared: z.array(z.object({ measure: z.string(), value: z.string(), threshold: z.string(), window_days: z.number().optional() })),
  transfers: z.array(z.object({
    id: z.string(), reference: z.string(), profile_id: z.string(), amount: decimalText(), currency: z.string(),
    amount_eur: decimalText().nullable(), created_at: isoDateTime(),
  })),
  details: z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())])).optional(),
});

const PersonSchema = z.object({ profile_id: z.uuid(), full_name: z.string().nullable(), email: z.string() });

const CaseStatusSchema = z.enum(CASE_STATUSES, { error: 'admin.validation.caseStatusInvalid' });
const CaseOutcomeSchema = z.enum(CASE_OUTCOMES, { error: 'admin.validation.caseOutcomeInvalid' });

const CaseSummarySchema = z.object({
  id: z.uuid(),
  status: CaseStatusSchema,
  outcome: CaseOutcomeSchema.nullable(),
  sender: PersonSchema,
  alert_count: z.number().int(),
  rules: z.array(RuleNameSchema),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
  closed_at: isoDateTime().nullable(),
});
export type MonitoringCaseSummary = z.infer<typeof CaseSummarySchema>;
export const MonitoringCasesResponseSchema = dataOf(z.array(CaseSummarySchema));
export const MonitoringCasesQuerySchema = z.object({ status: CaseStatusSchema.optional() });

const CaseNoteSchema = z.object({
  at: isoDateTime(), by: z.uuid(), by_name: z.string().nullable(), from: CaseStatusSchema, to: CaseStatusSchema,
  outcome: CaseOutcomeSchema.nullable(), note: z.string(),
});

const CaseAlertSchema = z.object({
  id: z.uuid(), rule: RuleNameSchema, evidence: EvidenceSchema, transfer_id: z.uuid().nullable(),
  transfer_reference: z.string().nullable(), held: z.boolean(), created_at: isoDateTime(),
});

const RecipientAccountSchema = z.object({ kind: z.enum(['phone', 'iban', 'paypal_email']), value: z.string().nullable(), bic: z.string().nullable().optional() });

const CaseTransferSchema = z.object({
  id: z.uuid(), reference: z.string(), created_at: isoDateTime(), status: z.string(), amount: decimalText(), currency: z.string(),
  payout_amount: decimalText(), payout_currency: z.string(), destination_provider: z.string(),
  recipient_name: z.string().nullable(), recipient_account: RecipientAccountSchema.nullable(),
  held: z.boolean().describe('An unreleased compliance hold names it'),
});

const CaseRecipientSchema = z.object({
  name: z.string().nullable(), account: RecipientAccountSchema.nullable(), provider: z.string(), country: z.string().nullable(),
  transfers: z.array(z.string()).describe('The references of the case\'s transfers paying it'),
});

const CaseDetailSchema = CaseSummarySchema.extend({
  investigating_at: isoDateTime().nullable(),
  reviewer: PersonSchema.nullable(),
  notes: z.array(CaseNoteSchema),
  alerts: z.array(CaseAlertSchema),
  transfers: z.array(CaseTransferSchema),
  recipients: z.array(CaseRecipientSchema),
  report_available: z.boolean().describe('Closed as reported: the report can be downloaded'),
});
export type MonitoringCaseDetail = z.infer<typeof CaseDetailSchema>;
export const MonitoringCaseResponseSchema = dataOf(CaseDetailSchema);

/** POST /api/monitoring/cases/{id}/transition. */
export const CaseTransitionSchema = z.object({
  to: z.enum(['investigating', 'closed'], { error: 'admin.validation.caseStatusInvalid' }),
  outcome: CaseOutcomeSchema.optional(),
  note: z.string({ error: 'admin.validation.caseNoteRequired' }).trim().min(1, { error: 'admin.validation.caseNoteRequired' })
    .max(2000, { error: 'validation.tooLong' }),
});
export type CaseTransition = z.infer<typeof CaseTransitionSchema>;
