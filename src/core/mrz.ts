import { z } from 'zod';

// The machine-readable zone (MRZ, ICAO 9303) of a passport, ID card or residence permit, as read
// from its photo by a durable job or typed by a reviewer, checked and compared with the profile
// (docs/rules/know-your-sender.md#documents). Stored in `kyc_documents.mrz`; null until read.

/**
 * Whether a document's photo is the side that carries the zone: a passport's data page (uploaded
 * without a side), an ID card's or a residence permit's back (ICAO 9303's TD1 cards print it on
 * the back). The other side is neither read nor typed: it says nothing about a zone.
 */
export function carriesMrz(kind: string, side: string | null): boolean {
  if (kind === 'passport') return true;
  return (kind === 'id_card' || kind === 'residence_permit') && side === 'back';
}

/**
 * `read`: the zone was read from the photo; `unreadable`: no zone could be read (the reviewer may
 * type it); `typed`: a reviewer typed it.
 */
export const MRZ_STATUSES = ['read', 'unreadable', 'typed'] as const;
export type MrzStatus = (typeof MRZ_STATUSES)[number];

/** The fields whose check digit is verified; a field a format has no check digit for is absent. */
export const MRZ_CHECK_FIELDS = ['document_number', 'birth_date', 'expiry_date', 'personal_number', 'composite'] as const;
export type MrzCheckField = (typeof MRZ_CHECK_FIELDS)[number];

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const MrzResultSchema = z.object({
  status: z.enum(MRZ_STATUSES),
  /** The zone's lines as read or typed (2 × 44 for a passport, 3 × 30 for an ID card); empty if unreadable. */
  lines: z.array(z.string()),
  /** `TD1` (ID card, 3 × 30), `TD2` (2 × 36), `TD3` (passport, 2 × 44); null if unreadable. */
  format: z.string().nullable(),
  /** Every check digit valid and the zone well formed. */
  valid: z.boolean(),
  /** Each checked field: true when its check digit matches. */
  checks: z.partialRecord(z.enum(MRZ_CHECK_FIELDS), z.boolean()),
  document_code: z.string().nullable(),
  issuing_state: z.string().nullable(),
  document_number: z.string().nullable(),
  surname: z.string().nullable(),
  given_names: z.string().nullable(),
  nationality: z.string().nullable(),
  birth_date: isoDate.nullable(),
  expiry_date: isoDate.nullable(),
  /** Expired on the day it was read or typed (an expired document does not count: docs/rules/know-your-sender.md#documents). */
  expired: z.boolean().nullable(),
  /** The zone's name equals the profile's (letters compared without accents, case or punctuation); null if no name was read. */
  name_matches_profile: z.boolean().nullable(),
  /** The zone's date of birth equals the profile's; null if either is missing. */
  birth_date_matches_profile: z.boolean().nullable(),
  read_at: z.string().datetime({ offset: true }),
  /** The staff member who typed the zone (status `typed`). */
  typed_by: z.string().uuid().optional(),
});
export type MrzResult = z.infer<typeof MrzResultSchema>;

/** What a reviewer types: the zone's lines (2 or 3 of them). */
export const MrzTypedSchema = z.object({
  lines: z.array(z.string().trim().min(1).max(60)).min(2).max(3),
});
export type MrzTyped = z.infer<typeof MrzTypedSchema>;
