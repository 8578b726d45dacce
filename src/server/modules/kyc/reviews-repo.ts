import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, notInArray, sql } from 'drizzle-orm';
import type { ReviewStatus } from '@core/kyc-reviews.js';
import type { Db, Tx } from '@server/db/client.js';
import { kycDocuments, kycReviews, profiles } from '@server/db/schema.js';

// Reviews' SQL: the sender's usable documents, one open review per sender (a unique index), the
// staff queue oldest first, and the decision written with the level and the documents' status.

export type ReviewRow = typeof kycReviews.$inferSelect;

const document = {
  id: kycDocuments.id, profile_id: kycDocuments.profile_id, kind: kycDocuments.kind, side: kycDocuments.side,
  content_type: kycDocuments.content_type, size: kycDocuments.size, status: kycDocuments.status, created_at: kycDocuments.created_at,
};

/** The sender's documents a review can use: neither rejected nor erased. */
export function usableDocuments(db: Db | Tx, profileId: string) {
  return db.select(document).from(kycDocuments)
    .where(and(eq(kycDocuments.profile_id, profileId), ne(kycDocuments.status, 'rejected'), isNull(kycDocuments.erased_at)))
    .orderBy(asc(kycDocuments.created_at));
}

/** Locks the sender's profile row: two submissions of one sender are checked one after the other. */
export async function lockSender(tx: Tx, profileId: string): Promise<{ kyc_level: number } | null> {
  const [row] = await tx.select({ kyc_level: profiles.kyc_level }).from(profiles).where(eq(profiles.id, profileId)).for('update');
  return row ?? null;
}

export async function openReviewOf(db: Db | Tx, profileId: string): Promise<ReviewRow | null> {
  const [row] = await db.select().from(kycReviews).where(and(eq(kycReviews.profile_id, profileId), eq(kycReviews.status, 'open')));
  return row ?? null;
}

export async function latestReview(db: Db, profileId: string): Promise<ReviewRow | null> {
  const [row] = await db.select().from(kycReviews).where(eq(kycReviews.profile_id, profileId)).orderBy(desc(kycReviews.created_at)).limit(1);
  return row ?? null;
}

export async function insertReview(tx: Tx, row: typeof kycReviews.$inferInsert): Promise<ReviewRow> {
  const [inserted] = await tx.insert(kycReviews).values(row).returning();
  return inserted!;
}

/** The sender as the queue names them, with what their level is computed from (service.ts senderLevel). */
const sender = {
  profile_id: profiles.id, full_name: profiles.full_name, email: profiles.email, kyc_level: profiles.kyc_level,
  date_of_birth: profiles.date_of_birth, phone: profiles.phone, address: profiles.address, city: profiles.city, country: profiles.country,
  screened_for: profiles.screened_for,
};

/** The queue of one status, oldest first (closed ones: most recently decided first), at most 200. */
export function listReviews(db: Db, status: ReviewStatus) {
  return db.select({ review: kycReviews, sender }).from(kycReviews).innerJoin(profiles, eq(profiles.id, kycReviews.profile_id))
    .where(eq(kycReviews.status, status))
    .orderBy(status === 'open' ? asc(kycReviews.created_at) : desc(kycReviews.decided_at), asc(kycReviews.id))
    .limit(200);
}

export async function findReview(db: Db | Tx, id: string, lock = false) {
  const query = db.select({ review: kycReviews, sender }).from(kycReviews).innerJoin(profiles, eq(profiles.id, kycReviews.profile_id)).where(eq(kycReviews.id, id));
  const [row] = await (lock ? query.for('update', { of: kycReviews }) : query);
  return row ?? null;
}

export async function senderProfile(db: Db | Tx, profileId: string) {
  const [row] = await db.select({
    full_name: profiles.full_name, date_of_birth: profiles.date_of_birth, email: profiles.email, phone: profiles.phone,
    address: profiles.address, city: profiles.city, state: profiles.state, country: profiles.country, language: profiles.language,
    kyc_level: profiles.kyc_level,
  }).from(profiles).where(eq(profiles.id, profileId));
  return row ?? null;
}

/**
 * The review's documents with their machine-readable zone (null until read, and for other kinds),
 * and the sender's earlier documents of the same kinds sent up to the review (not erased), oldest first.
 */
export async function reviewDocuments(db: Db, review: Pick<ReviewRow, 'profile_id' | 'document_ids' | 'created_at'>) {
  if (review.document_ids.length === 0) return [];
  const columns = { ...document, mrz: kycDocuments.mrz };
  const held = await db.select(columns).from(kycDocuments).where(inArray(kycDocuments.id, review.document_ids));
  const earlier = await db.select(columns).from(kycDocuments).where(and(
    eq(kycDocuments.profile_id, review.profile_id), isNull(kycDocuments.erased_at), lte(kycDocuments.created_at, review.created_at),
    inArray(kycDocuments.kind, [...new Set(held.map((d) => d.kind))]), notInArray(kycDocuments.id, review.document_ids),
  ));
  return [...held, ...earlier].sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id.localeCompare(b.id));
}

/**
 * Documents of other accounts, part of an approved review, whose zone gives one of these document
 * numbers: who holds them, and the number and issuing state as their zone gives them.
 */
export async function approvedElsewhere(db: Db, profileId: string, numbers: string[]) {
  if (numbers.length === 0) return [];
  return db.selectDistinct({
    profile_id: profiles.id, full_name: profiles.full_name, email: profiles.email,
    number: sql<string>`${kycDocuments.mrz}->>'document_number'`, state: sql<string | null>`${kycDocuments.mrz}->>'issuing_state'`,
  }).from(kycDocuments).innerJoin(profiles, eq(profiles.id, kycDocuments.profile_id))
    .where(and(
      ne(kycDocuments.profile_id, profileId),
      inArray(sql`${kycDocuments.mrz}->>'document_number'`, numbers),
      sql`exists (select 1 from kyc_reviews r where r.status = 'approved' and ${kycDocuments.id} = any(r.document_ids))`,
    ));
}

export async function closeReview(tx: Tx, id: string, values: { status: ReviewStatus; note: string | null; decided_by: string }): Promise<ReviewRow> {
  const [row] = await tx.update(kycReviews).set({ ...values, decided_at: sql`now()` }).where(eq(kycReviews.id, id)).returning();
  return row!;
}

export async function setDocumentsStatus(tx: Tx, ids: string[], status: 'accepted' | 'rejected'): Promise<void> {
  if (ids.length > 0) await tx.update(kycDocuments).set({ status }).where(inArray(kycDocuments.id, ids));
}

export async function setLevel(tx: Tx, profileId: string, level: number): Promise<void> {
  await tx.update(profiles).set({ kyc_level: sql`greatest(${profiles.kyc_level}, ${level})` }).where(eq(profiles.id, profileId));
}

/**
 * The review a document is read in: its sender's newest review sent since it (a superseded
 * document is shown in the later reviews of its kind); null when none is.
 */
export async function reviewShowing(db: Db, doc: { profile_id: string; created_at: Date }): Promise<{ id: string } | null> {
  const [row] = await db.select({ id: kycReviews.id }).from(kycReviews)
    .where(and(eq(kycReviews.profile_id, doc.profile_id), gte(kycReviews.created_at, doc.created_at)))
    .orderBy(desc(kycReviews.created_at)).limit(1);
  return row ?? null;
}
