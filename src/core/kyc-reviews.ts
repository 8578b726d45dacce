import type { DocumentKind } from './kyc-documents.js';

// Staff reviews of a sender's documents (docs/rules/know-your-sender.md#reviews): the levels a
// review asks for, its statuses, the decisions staff take, and what each level needs uploaded.

export const REVIEW_LEVELS = [2, 3] as const;
export type ReviewLevel = (typeof REVIEW_LEVELS)[number];

/** `open` waits on staff; the others are closed: approved, rejected, or more asked of the sender. */
export const REVIEW_STATUSES = ['open', 'approved', 'rejected', 'more_requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_DECISIONS = ['approve', 'reject', 'request_more'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const DECISION_STATUS: Record<ReviewDecision, ReviewStatus> = { approve: 'approved', reject: 'rejected', request_more: 'more_requested' };

/** What a review may still lack: named as the sender's screen and the 422 name them. */
export const REVIEW_NEEDS = ['identity_document', 'id_card_front', 'id_card_back', 'residence_permit_front', 'residence_permit_back', 'selfie', 'proof_of_address', 'source_of_funds'] as const;
export type ReviewNeed = (typeof REVIEW_NEEDS)[number];

/** A document the sender has (not rejected, not erased): its kind and side. */
export interface HeldDocument { kind: DocumentKind; side: 'front' | 'back' | null }

/**
 * What is missing for a review at `level`: level 2 an identity document (a passport, both sides
 * of an ID card, or both sides of a residence permit) and a selfie; level 3 the same, a proof of
 * address and a source of funds. A card with one side names the missing side.
 */
export function missingForLevel(level: ReviewLevel, held: readonly HeldDocument[]): ReviewNeed[] {
  const has = (kind: DocumentKind, side: 'front' | 'back' | null = null) => held.some((d) => d.kind === kind && (side === null || d.side === side));
  const missing: ReviewNeed[] = [];
  const card = (kind: 'id_card' | 'residence_permit') => has(kind, 'front') && has(kind, 'back');
  if (!has('passport') && !card('id_card') && !card('residence_permit')) {
    if (has('id_card')) missing.push(has('id_card', 'front') ? 'id_card_back' : 'id_card_front');
    else if (has('residence_permit')) missing.push(has('residence_permit', 'front') ? 'residence_permit_back' : 'residence_permit_front');
    else missing.push('identity_document');
  }
  if (!has('selfie')) missing.push('selfie');
  if (level === 3) {
    if (!has('proof_of_address')) missing.push('proof_of_address');
    if (!has('source_of_funds')) missing.push('source_of_funds');
  }
  return missing;
}
