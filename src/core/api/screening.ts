import { z } from 'zod';
import { dataOf, isoDateTime } from './common.js';

// Sanctions screening (docs/rules/screening.md): the lists' versions as staff see them, their
// settings, and the search staff use to check a name by hand.

export const LIST_SOURCES = ['ofac_sdn', 'eu', 'un', 'uk'] as const;
export type ListSourceId = (typeof LIST_SOURCES)[number];

const ListSourceSchema = z.enum(LIST_SOURCES, { error: 'admin.validation.listSourceInvalid' });

const ListVersionSchema = z.object({
  id: z.uuid(),
  source: ListSourceSchema,
  /** sha256 of the file (OFAC: of the three files' hashes, docs/rules/screening.md#lists-in-the-product). */
  sha256: z.string(),
  entries: z.number().int(),
  /** Every name, aliases included. */
  names: z.number().int(),
  imported_by: z.uuid().nullable(),
  imported_at: isoDateTime(),
});
export type ListVersion = z.infer<typeof ListVersionSchema>;

/** POST /api/screening/lists answers at once with the import, done as a durable job; GET /api/screening/lists/imports/{id} follows it. */
const ListImportJobSchema = z.object({
  id: z.uuid(),
  source: ListSourceSchema,
  state: z.enum(['queued', 'running', 'done', 'failed']),
  /** The files' names as sent. */
  files: z.array(z.string()),
  /** Entries read so far (written every 5,000), then in all. */
  entries_read: z.number().int(),
  /** Names longer than the matcher's 500 characters, cut to them (docs/rules/screening.md#bounds). */
  names_cut: z.number().int(),
  /** Done: the version made, or the current one when the file(s) were the same (`unchanged`). */
  version_id: z.uuid().nullable(),
  unchanged: z.boolean().nullable(),
  /** Failed: why, in the caller's language, with the file and line where the parser said them. Nothing was imported. */
  error: z.object({ code: z.string(), message: z.string(), file: z.string().optional(), line: z.number().int().optional() }).nullable(),
  imported_by: z.uuid().nullable(),
  created_at: isoDateTime(),
  finished_at: isoDateTime().nullable(),
});
export type ListImportJob = z.infer<typeof ListImportJobSchema>;
export const ListImportJobResponseSchema = dataOf(ListImportJobSchema);

const ListStateSchema = z.object({
  source: ListSourceSchema,
  current: ListVersionSchema.nullable(),
  /** Hours since the current version was imported, one decimal; null before any import. */
  age_hours: z.number().nullable(),
  required: z.boolean(),
  max_age_hours: z.number().int(),
  /** Required and older than its maximum age: new transfers wait (docs/rules/screening.md#lists-in-the-product). */
  stale: z.boolean(),
});
export type ListState = z.infer<typeof ListStateSchema>;

const ListsOverviewSchema = z.object({
  /** False until a list is imported: nobody is screened. */
  screening_active: z.boolean(),
  /** What the admin reads about screening as a whole, in the caller's language. */
  message: z.string(),
  lists: z.array(ListStateSchema),
});
export type ListsOverview = z.infer<typeof ListsOverviewSchema>;
export const ListsOverviewResponseSchema = dataOf(ListsOverviewSchema);
export const ListStateResponseSchema = dataOf(ListStateSchema);

export const ListParamsSchema = z.object({ source: ListSourceSchema });

/** PUT /api/screening/lists/{source}. */
export const ListSettingsSchema = z.object({
  required: z.boolean({ error: 'validation.checkInput' }).optional(),
  max_age_hours: z.number({ error: 'admin.validation.listMaxAgeInvalid' }).int({ error: 'admin.validation.listMaxAgeInvalid' })
    .min(1, { error: 'admin.validation.listMaxAgeInvalid' }).max(8760, { error: 'admin.validation.listMaxAgeInvalid' }).optional(),
}).refine((b) => b.required !== undefined || b.max_age_hours !== undefined, { error: 'validation.checkInput' });
export type ListSettings = z.infer<typeof ListSettingsSchema>;

/** POST /api/screening/search: a name as staff type it, with what they know of the person. */
export const ScreeningSearchSchema = z.object({
  name: z.string({ error: 'admin.validation.screeningNameRequired' }).trim().min(1, { error: 'admin.validation.screeningNameRequired' })
    .max(200, { error: 'validation.tooLong' }),
  birth_date: z.string({ error: 'admin.validation.dateInvalid' }).regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, { error: 'admin.validation.dateInvalid' }).optional(),
  country: z.string({ error: 'auth.errors.countryUnknown' }).regex(/^[A-Za-z]{2}$/, { error: 'auth.errors.countryUnknown' })
    .transform((c) => c.toUpperCase()).optional(),
});
export type ScreeningSearch = z.infer<typeof ScreeningSearchSchema>;

const TokenMatchSchema = z.object({
  query: z.string(),
  listed: z.string(),
  how: z.enum(['exact', 'variant', 'fuzzy', 'initial']),
  distance: z.number().int().optional(),
  similarity: z.number(),
  weight: z.number(),
});

/** One qualifier: what the comparison found (matches, differs, unknown) and what it did to the score (raised, lowered, none). */
export const QualifierEffectSchema = z.object({
  qualifier: z.enum(['birth_date', 'country', 'kind']),
  outcome: z.enum(['matches', 'differs', 'unknown']),
  effect: z.enum(['raised', 'lowered', 'none']),
  /** Null when that side has none. */
  query: z.string().nullable(),
  listed: z.string().nullable(),
  before: z.number(),
  after: z.number(),
});

/** Which words matched which, and what the date of birth and country did (docs/rules/screening.md#explanation). */
const ExplanationSchema = z.object({
  listed_name: z.string(),
  matched: z.array(TokenMatchSchema),
  unmatched_query: z.array(z.string()),
  unmatched_listed: z.array(z.string()),
  ignored: z.array(z.string()),
  name_score: z.number(),
  qualifiers: z.array(QualifierEffectSchema),
});

const ScreeningMatchSchema = z.object({
  score: z.number(),
  source: ListSourceSchema,
  /** The version the entry was read from. */
  version_id: z.uuid(),
  list_id: z.string(),
  kind: z.enum(['person', 'organisation', 'vessel', 'unknown']),
  /** The primary name. */
  name: z.string(),
  aliases: z.array(z.string()),
  birth_dates: z.array(z.string()),
  countries: z.array(z.string()),
  programmes: z.array(z.string()),
  explanation: ExplanationSchema,
});
export type ScreeningMatch = z.infer<typeof ScreeningMatchSchema>;

const ScreeningSearchResultSchema = z.object({
  /** False when no list is loaded: nothing was searched. */
  screening_active: z.boolean(),
  /** The score from which a transfer is held. */
  hold_threshold: z.number(),
  matches: z.array(ScreeningMatchSchema),
});
export const ScreeningSearchResponseSchema = dataOf(ScreeningSearchResultSchema);
