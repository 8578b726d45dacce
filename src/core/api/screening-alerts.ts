import { z } from 'zod';
import { ALERT_DECISIONS, ALERT_STATUSES, ALERT_SUBJECTS, SCREENING_TRIGGERS } from '../holds.js';
import { dataOf, isoDateTime } from './common.js';
import { LIST_SOURCES, QualifierEffectSchema } from './screening.js';

// Screening alerts and their decisions (docs/rules/screening.md#holds-and-alerts), the hold
// threshold, and the re-screening's progress: what staff read and send.

/** GET /api/screening/alerts?status= */
export const AlertsQuerySchema = z.object({
  status: z.enum(ALERT_STATUSES, { error: 'validation.checkInput' }).optional(),
});

const StaffNameSchema = z.object({ profile_id: z.uuid(), full_name: z.string().nullable() }).nullable();

const AlertSchema = z.object({
  id: z.uuid(),
  subject: z.enum(ALERT_SUBJECTS),
  trigger: z.enum(SCREENING_TRIGGERS),
  status: z.enum(ALERT_STATUSES),
  /** An admin proposed to confirm the match; a second staff member agrees by confirming too. */
  confirmation_proposed: z.boolean(),
  /** Who was screened, as screened (name, and the date of birth and country used). */
  screened: z.object({ name: z.string(), birth_date: z.string().nullable(), country: z.string().nullable() }),
  sender: z.object({ profile_id: z.uuid(), full_name: z.string().nullable(), email: z.string() }),
  transfer: z.object({ id: z.uuid(), reference: z.string(), status: z.string() }).nullable(),
  source: z.enum(LIST_SOURCES),
  list_id: z.string(),
  entry_id: z.number().int(),
  fingerprint: z.string(),
  score: z.number(),
  /** The list entry's facts as it was when the alert was raised; null for an older alert whose version's entries were since dropped. */
  listed: z.object({
    kind: z.enum(['person', 'organisation', 'vessel', 'unknown']),
    names: z.array(z.string()),
    birth_dates: z.array(z.string()),
    /** Nationalities, citizenships and address countries (ISO codes). */
    countries: z.array(z.string()),
    programmes: z.array(z.string()),
  }).nullable(),
  /** The matcher's explanation (docs/rules/screening.md#explanation); each qualifier with its outcome and effect. */
  explanation: z.looseObject({ listed_name: z.string(), qualifiers: z.array(QualifierEffectSchema) }),
  decided_by: StaffNameSchema,
  decided_at: isoDateTime().nullable(),
  second_by: StaffNameSchema,
  second_at: isoDateTime().nullable(),
  notes: z.array(z.object({ at: isoDateTime(), by: z.uuid(), decision: z.enum(ALERT_DECISIONS), note: z.string() })),
  created_at: isoDateTime(),
});
export type ScreeningAlert = z.infer<typeof AlertSchema>;
export const AlertsResponseSchema = dataOf(z.array(AlertSchema));
export const AlertResponseSchema = dataOf(AlertSchema);

/** POST /api/screening/alerts/{id}/decision */
export const AlertDecisionSchema = z.object({
  decision: z.enum(ALERT_DECISIONS, { error: 'admin.validation.alertDecisionInvalid' }),
  note: z.string({ error: 'admin.validation.alertNoteRequired' }).trim().min(1, { error: 'admin.validation.alertNoteRequired' })
    .max(2000, { error: 'validation.tooLong' }),
});
export type AlertDecisionBody = z.infer<typeof AlertDecisionSchema>;

/** GET/PUT /api/screening/settings (admin). */
export const ScreeningSettingsSchema = z.object({
  hold_threshold: z.number({ error: 'admin.validation.holdThresholdInvalid' }).min(0.5, { error: 'admin.validation.holdThresholdInvalid' })
    .max(1, { error: 'admin.validation.holdThresholdInvalid' }),
});
export type ScreeningSettings = z.infer<typeof ScreeningSettingsSchema>;
export const ScreeningSettingsResponseSchema = dataOf(ScreeningSettingsSchema.extend({
  /** The documented default (0.85). */
  default_hold_threshold: z.number(),
}));

/** The re-screening of everyone after a list version changed: its progress. */
export const RescreenSchema = z.object({
  id: z.uuid(),
  total: z.number().int(),
  done: z.number().int(),
  alerts: z.number().int(),
  started_at: isoDateTime(),
  finished_at: isoDateTime().nullable(),
});
export type Rescreen = z.infer<typeof RescreenSchema>;
/** GET /api/screening/rescreen: the latest re-screening, or null before any. */
export const RescreenResponseSchema = dataOf(RescreenSchema.nullable());
