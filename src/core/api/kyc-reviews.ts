import { z } from 'zod';
import { MrzResultSchema } from '../mrz.js';
import { REVIEW_DECISIONS, REVIEW_LEVELS, REVIEW_NEEDS, REVIEW_STATUSES } from '../kyc-reviews.js';
import { dataOf, isoDateTime } from './common.js';
import { KycDocumentSchema } from './kyc-document.js';

// Staff reviews of a sender's documents (docs/rules/know-your-sender.md#reviews).

const reviewLevel = z.union(REVIEW_LEVELS.map((l) => z.literal(l)), { error: 'errors.kyc.review.levelInvalid' });

/** POST /api/kyc/reviews: the level the sender asks for, 2 or 3. */
export const KycReviewSubmitSchema = z.object({ level: reviewLevel });
export type KycReviewSubmit = z.infer<typeof KycReviewSubmitSchema>;

/** The sender's latest review while it is open or asks something of them (GET /api/kyc's `open_review`). */
export const KycOpenReviewSchema = z.object({
  id: z.uuid(),
  level: reviewLevel,
  status: z.enum(REVIEW_STATUSES),
  submitted_at: isoDateTime(),
  /** Staff's words to the sender: the reason of a rejection, or what more is needed ("action needed"). */
  note: z.string().nullable(),
  /**
   * What the sender must still upload before submitting again (rejected or more asked: the
   * documents staff asked for again; what was accepted is kept); empty while open.
   */
  missing: z.array(z.enum(REVIEW_NEEDS)),
}).nullable();
export type KycOpenReview = z.infer<typeof KycOpenReviewSchema>;
export const KycOpenReviewResponseSchema = dataOf(KycOpenReviewSchema.unwrap());

/** One review in the staff queue. */
export const KycReviewSummarySchema = z.object({
  id: z.uuid(),
  level: reviewLevel,
  status: z.enum(REVIEW_STATUSES),
  submitted_at: isoDateTime(),
  /** Seconds since it was submitted (open) or until it was decided (closed). */
  waiting_seconds: z.number().int(),
  sender: z.object({ profile_id: z.uuid(), full_name: z.string().nullable(), email: z.string(), kyc_level: z.number().int() }),
  decided_at: isoDateTime().nullable(),
});
export type KycReviewSummary = z.infer<typeof KycReviewSummarySchema>;
export const KycReviewListSchema = dataOf(z.array(KycReviewSummarySchema));

export const KycReviewQuerySchema = z.object({
  status: z.enum(REVIEW_STATUSES, { error: 'errors.kyc.review.statusInvalid' }).default('open'),
});

/** A review's document: metadata, where its bytes are, and its machine-readable zone once read (null until then). */
export const KycReviewDocumentSchema = KycDocumentSchema.extend({
  /** GET this (staff, audited) for the bytes. */
  href: z.string(),
  /** The machine-readable zone as read or typed and checked (core/mrz.ts); null until read, and for a kind or side that carries none (a card's front: see carriesMrz). */
  mrz: MrzResultSchema.nullable(),
  /**
   * The newest of its kind and side the sender sent up to this review: the one to judge. An older
   * one (sent for an earlier review, or replaced since) is shown superseded beside it.
   */
  current: z.boolean(),
  /** Part of this review (a superseded document from an earlier review is not). */
  in_review: z.boolean(),
  /** Other accounts whose approved review holds a document with the same number (from its zone, same issuing state). */
  approved_elsewhere: z.array(z.object({ profile_id: z.uuid(), full_name: z.string().nullable(), email: z.string() })),
});
export type KycReviewDocument = z.infer<typeof KycReviewDocumentSchema>;

export const KycReviewDetailSchema = KycReviewSummarySchema.extend({
  note: z.string().nullable(),
  decided_by: z.uuid().nullable(),
  /** The sender's profile as it is now, to compare with the documents. */
  profile: z.object({
    full_name: z.string().nullable(), date_of_birth: z.string().nullable(), email: z.string(), phone: z.string().nullable(),
    address: z.string().nullable(), city: z.string().nullable(), state: z.string().nullable(), country: z.string().nullable(),
    language: z.enum(['en', 'fr']),
  }),
  documents: z.array(KycReviewDocumentSchema),
});
export type KycReviewDetail = z.infer<typeof KycReviewDetailSchema>;
export const KycReviewDetailResponseSchema = dataOf(KycReviewDetailSchema);

/** POST /api/kyc/reviews/{id}/decision: the note is required to reject or ask for more (the sender reads it). */
export const KycReviewDecisionSchema = z.object({
  decision: z.enum(REVIEW_DECISIONS, { error: 'errors.kyc.review.decisionInvalid' }),
  /** Approve a lower level than asked (level 3 asked, only level 2's documents good). */
  level: reviewLevel.optional(),
  note: z.string().trim().max(2000, { error: 'errors.kyc.review.noteTooLong' }).default(''),
  /**
   * request_more: the review's documents the sender must send again (at least one); the others
   * are accepted and kept for the next submission.
   */
  resend: z.array(z.uuid({ error: 'errors.kyc.review.resendRequired' })).max(20).default([]),
});
export type KycReviewDecision = z.infer<typeof KycReviewDecisionSchema>;
