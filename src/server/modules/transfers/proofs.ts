import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { paymentProofs, profiles } from '../../db/schema.js';
import { HttpError } from '../../lib/http-error.js';

// Proofs of payment are kept, never replaced: staff see each one with its time, so a sender
// cannot swap the proof after staff looked. Bounded per transfer and per sender per day, since
// each is up to 5 MB in the database.

export const MAX_PROOFS_PER_TRANSFER = 5;
export const MAX_PROOFS_PER_SENDER_PER_DAY = 20;

export interface NewProof {
  transferRequestId: string;
  profileId: string;
  filename: string;
  mimeType: string;
  sha256: string;
  data: Buffer;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const proofFields = {
  id: paymentProofs.id, filename: paymentProofs.filename, mime_type: paymentProofs.mime_type,
  size: paymentProofs.size, created_at: paymentProofs.created_at,
};

/** Refuses a proof over either limit; cheap enough to ask before the upload is read, and again when storing it. */
export async function checkProofLimits(db: Db | Tx, transferRequestId: string, profileId: string): Promise<void> {
  const [counts] = await db.select({
    onTransfer: sql<number>`(count(*) filter (where ${paymentProofs.transfer_request_id} = ${transferRequestId}))::int`,
    today: sql<number>`(count(*) filter (where ${paymentProofs.created_at} > now() - interval '1 day'))::int`,
  }).from(paymentProofs).where(eq(paymentProofs.profile_id, profileId));
  if ((counts?.onTransfer ?? 0) >= MAX_PROOFS_PER_TRANSFER) {
    throw new HttpError(409, 'transfer.proofLimitTransfer', {}, { max: MAX_PROOFS_PER_TRANSFER });
  }
  if ((counts?.today ?? 0) >= MAX_PROOFS_PER_SENDER_PER_DAY) {
    throw new HttpError(429, 'transfer.proofLimitDaily', {}, { max: MAX_PROOFS_PER_SENDER_PER_DAY });
  }
}

/**
 * Stores a proof once the limits still hold. The sender's profile row is locked while counting,
 * so concurrent uploads cannot slip past a limit together.
 */
export async function addProof(db: Db, proof: NewProof) {
  return db.transaction(async (tx) => {
    await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, proof.profileId)).for('update');
    await checkProofLimits(tx, proof.transferRequestId, proof.profileId);
    const [row] = await tx.insert(paymentProofs).values({
      transfer_request_id: proof.transferRequestId, profile_id: proof.profileId, filename: proof.filename,
      mime_type: proof.mimeType, size: proof.data.length, sha256: proof.sha256, data: proof.data,
    }).returning(proofFields);
    return proofToJson(row!);
  });
}

export function proofToJson(row: { id: string; filename: string; mime_type: string; size: number; created_at: Date }) {
  return { ...row, created_at: row.created_at.toISOString() };
}

/** Every proof of a transfer, newest first, without the bytes. */
export async function listProofs(db: Db, transferRequestId: string) {
  const rows = await db.select(proofFields).from(paymentProofs)
    .where(eq(paymentProofs.transfer_request_id, transferRequestId)).orderBy(desc(paymentProofs.created_at));
  return rows.map(proofToJson);
}

/** One proof with its bytes: the newest when no id is named. */
export async function findProof(db: Db, transferRequestId: string, proofId?: string) {
  const [row] = await db.select().from(paymentProofs)
    .where(and(eq(paymentProofs.transfer_request_id, transferRequestId), proofId ? eq(paymentProofs.id, proofId) : undefined))
    .orderBy(desc(paymentProofs.created_at)).limit(1);
  return row ?? null;
}
