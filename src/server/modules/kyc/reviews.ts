import type { KycOpenReview, KycReviewDecision, KycReviewDetail, KycReviewDocument, KycReviewSummary } from '@core/api/kyc-reviews.js';
import { AppError } from '@core/errors.js';
import { DECISION_STATUS, missingForLevel, type ReviewLevel, type ReviewStatus } from '@core/kyc-reviews.js';
import { carriesMrz } from '@core/mrz.js';
import { isOwnCase } from '@core/own-case.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { t } from '@server/i18n.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { queueMail } from '../mail/service.js';
import { reviewMail } from './reviews-mail.js';
import * as repo from './reviews-repo.js';
import { senderLevel } from './service.js';

// Staff reviews of a sender's documents for level 2 or 3 (docs/rules/know-your-sender.md#reviews):
// submitted by the sender once the level's documents are uploaded, one open at a time; decided by
// staff (approve sets the level), e-mailed to the sender in their language and audited. The sender
// keeps sending within their current level meanwhile: nothing here touches their limits.

const seconds = (from: Date, to: Date) => Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));

type Ctx = Pick<AppContext, 'db' | 'log'>;

async function summaryOf(ctx: Ctx, row: NonNullable<Awaited<ReturnType<typeof repo.findReview>>>, now: Date): Promise<KycReviewSummary> {
  const { review, sender } = row;
  return {
    id: review.id, level: review.level as ReviewLevel, status: review.status, submitted_at: review.created_at.toISOString(),
    waiting_seconds: seconds(review.created_at, review.decided_at ?? now),
    // The sender's level as it stands, as GET /api/kyc gives it (not only the level staff approved).
    sender: { profile_id: sender.profile_id, full_name: sender.full_name, email: sender.email, kyc_level: await senderLevel(ctx, sender.profile_id, sender) },
    decided_at: review.decided_at?.toISOString() ?? null,
  };
}

/** POST /api/kyc/reviews: 422 naming what is missing, 409 while one is open, 422 for a level already held. */
export async function submitReview(ctx: AppContext, profileId: string, level: ReviewLevel): Promise<KycOpenReview & object> {
  const review = await ctx.db.transaction(async (tx) => {
    const sender = await repo.lockSender(tx, profileId);
    if (!sender) throw new AppError('not_found');
    if (await repo.openReviewOf(tx, profileId)) throw new AppError('kyc_review_open');
    if (sender.kyc_level >= level) throw new AppError('kyc_review_level_held', { vars: { level: sender.kyc_level } });
    const documents = await repo.usableDocuments(tx, profileId);
    const missing = missingForLevel(level, documents);
    if (missing.length > 0) {
      throw new AppError('kyc_review_documents_missing', {
        vars: { level, missing: (lang) => missing.map((need) => t(lang, `errors.kyc.review.need.${need}`)).join(', ') },
        extra: { missing },
      });
    }
    return repo.insertReview(tx, { profile_id: profileId, level, document_ids: documents.map((d) => d.id) });
  });
  return { id: review.id, level, status: review.status, submitted_at: review.created_at.toISOString(), note: null, missing: [] };
}

/**
 * GET /api/kyc's `open_review`: the latest review while it is open or asks something of the
 * sender (rejected: the reason; more requested: what is needed); null once approved or never.
 */
export async function openReview(db: Db, profileId: string): Promise<KycOpenReview> {
  const review = await repo.latestReview(db, profileId);
  if (!review || review.status === 'approved') return null;
  const level = review.level as ReviewLevel;
  const missing = review.status === 'open' ? [] : missingForLevel(level, await repo.usableDocuments(db, profileId));
  return { id: review.id, level, status: review.status, submitted_at: review.created_at.toISOString(), note: review.note, missing };
}

/**
 * The queue of one status. Each sender's level is read one after the other: a sender already
 * screened on their current name costs a digest, one not yet screened is screened as any level read does.
 */
export async function reviewQueue(ctx: Ctx, status: ReviewStatus): Promise<KycReviewSummary[]> {
  const now = new Date();
  const summaries: KycReviewSummary[] = [];
  for (const row of await repo.listReviews(ctx.db, status)) summaries.push(await summaryOf(ctx, row, now));
  return summaries;
}

export async function reviewDetail(ctx: Ctx, id: string): Promise<KycReviewDetail> {
  const { db } = ctx;
  const row = await repo.findReview(db, id);
  if (!row) throw new AppError('not_found');
  const [profile, sent] = await Promise.all([repo.senderProfile(db, row.review.profile_id), repo.reviewDocuments(db, row.review)]);
  if (!profile) throw new AppError('not_found');
  const { kyc_level: _level, ...shown } = profile;
  const inReview = new Set(row.review.document_ids);
  // Documents come oldest first: the newest of each kind and side is the one to judge, and each
  // kind and side is shown together (where it first came), a superseded one just before its successor.
  const slot = (d: (typeof sent)[number]) => `${d.kind}:${d.side ?? ''}`;
  const newest = new Map(sent.map((d) => [slot(d), d.id]));
  const order = [...new Set(sent.map(slot))];
  const documents = [...sent].sort((a, b) => order.indexOf(slot(a)) - order.indexOf(slot(b)));
  const zones = documents.map((d) => (carriesMrz(d.kind, d.side) ? (d.mrz ?? null) as KycReviewDocument['mrz'] : null));
  const elsewhere = await repo.approvedElsewhere(db, row.review.profile_id, [...new Set(zones.map(trustedNumber).filter((n) => n !== null))]);
  return {
    ...await summaryOf(ctx, row, new Date()),
    note: row.review.note,
    decided_by: row.review.decided_by,
    profile: shown,
    documents: documents.map((d, i) => {
      const mrz = zones[i] ?? null;
      const number = trustedNumber(mrz);
      return {
        id: d.id, kind: d.kind, side: d.side ?? null, content_type: d.content_type, size: d.size, uploaded_at: d.created_at.toISOString(),
        status: d.status, href: `/api/kyc/documents/${d.id}`,
        // A card's front read before only backs were: its result says nothing of a zone.
        mrz,
        current: newest.get(slot(d)) === d.id,
        in_review: inReview.has(d.id),
        approved_elsewhere: number === null ? [] : elsewhere
          .filter((e) => e.number === number && (!e.state || !mrz?.issuing_state || e.state === mrz.issuing_state))
          .map(({ profile_id, full_name, email }) => ({ profile_id, full_name, email })),
      };
    }),
  };
}

/** A zone's document number when its check digit holds (as read after cleaning, or as typed), else null. */
function trustedNumber(mrz: KycReviewDocument['mrz']): string | null {
  return mrz && mrz.status !== 'unreadable' && mrz.checks.document_number === true ? mrz.document_number : null;
}

/**
 * Staff decide an open review: approve sets the sender's level (the asked one, or a lower one
 * given) and accepts its documents; reject closes it with the reason the sender reads and rejects
 * its documents; request_more closes it with what is needed: the documents staff ask again for are
 * rejected (the sender sends only those), the others accepted and kept for the next submission.
 * The e-mail is queued in the same transaction, in the sender's language; the decision is audited.
 * A staff member never decides their own review (`403 own_case`, nothing changed).
 */
export async function decideReview(ctx: AppContext, actor: Actor, id: string, input: KycReviewDecision): Promise<KycReviewDetail> {
  const note = input.note.trim();
  if (input.decision !== 'approve' && note === '') throw new AppError('kyc_review_note_required');
  await ctx.db.transaction(async (tx) => {
    const row = await repo.findReview(tx, id, true);
    if (!row) throw new AppError('not_found');
    const { review } = row;
    // No one decides on their own identity (docs/rules/back-office.md#no-one-decides-on-their-own-case).
    if (isOwnCase([review.profile_id], actor.profile_id)) throw new AppError('own_case');
    if (review.status !== 'open') throw new AppError('kyc_review_decided');
    const level = input.decision === 'approve' ? (input.level ?? review.level as ReviewLevel) : null;
    if (level !== null && level > review.level) throw new AppError('kyc_review_level_over', { vars: { level: review.level } });
    const resend = [...new Set(input.resend)];
    if (input.decision === 'request_more' && (resend.length === 0 || resend.some((d) => !review.document_ids.includes(d)))) {
      throw AppError.onField('kyc_review_resend_required', 'resend');
    }
    const closed = await repo.closeReview(tx, id, { status: DECISION_STATUS[input.decision], note: note || null, decided_by: actor.profile_id });
    if (level !== null) {
      await repo.setLevel(tx, review.profile_id, level);
      await repo.setDocumentsStatus(tx, review.document_ids, 'accepted');
    } else if (input.decision === 'reject') {
      await repo.setDocumentsStatus(tx, review.document_ids, 'rejected');
    } else {
      // What was not asked again is accepted and kept; what was asked again no longer counts.
      await repo.setDocumentsStatus(tx, review.document_ids.filter((d) => !resend.includes(d)), 'accepted');
      await repo.setDocumentsStatus(tx, resend, 'rejected');
    }
    const profile = await repo.senderProfile(tx, review.profile_id);
    if (profile) {
      await queueMail(ctx, tx, reviewMail(ctx, { decision: input.decision, level: level ?? review.level, note: note || null }, profile));
    }
    await recordAudit(tx, actor, {
      action: 'kyc_review.decide', target: 'kyc_review', id,
      // The level staff approved before (the column this decision raises), not the effective one.
      before: { status: review.status, level: review.level, kyc_level: row.sender.kyc_level },
      // Whether a note was written, not its words: the audit log is never erased, the note is
      // erased with the review's other personal data after retention (docs/rules/your-data.md).
      after: {
        status: closed.status, decision: input.decision, level, kyc_level: level ?? row.sender.kyc_level, note_written: closed.note !== null, profile_id: review.profile_id,
        ...(input.decision === 'request_more' ? { resend } : {}),
      },
    });
  });
  return reviewDetail(ctx, id);
}
