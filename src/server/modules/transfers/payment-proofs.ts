import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { ProofJson } from '@core/api/transfers.js';
import { PROOF_MIME_TYPES } from '@core/proof.js';
import { isFinalStatus, isStaff } from '@core/status.js';
import type { Db } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { pdfProblem } from '@server/lib/pdf-check.js';
import { decodesAsImage } from '@server/lib/uploads.js';
import { recordAudit } from '../audit/service.js';
import type { StaffActor } from './money-step.js';
import {
  clearActionNeeded, findProof, insertProof, lockRequest, lockSender, proofCounts, type ProofInfo, type ProofRow, type TransferRequestRow,
} from './repo.js';
import { type Caller, visibleRequest } from './visible-transfer.js';

// A transfer's proofs of payment, kept and never replaced: staff see each one with its time, so
// a sender cannot swap the proof after staff looked. Bounded per transfer and per sender per
// day, since each is up to 5 MB in the database.

const MAX_PROOFS_PER_TRANSFER = 5;
const MAX_PROOFS_PER_SENDER_PER_DAY = 20;

/** Proofs of payment by what the bytes are, never by the name or the declared type. */
const PROOF_TYPES: ReadonlySet<string> = new Set(PROOF_MIME_TYPES);

export function proofToJson(row: ProofInfo): ProofJson {
  return { ...row, created_at: row.created_at.toISOString() };
}

/** A closed transfer takes no proof: nothing is to be paid for it. */
const proofClosed = () => new AppError('proof_closed');

function checkProofLimits(counts: { onTransfer: number; today: number }): void {
  if (counts.onTransfer >= MAX_PROOFS_PER_TRANSFER) {
    throw new AppError('proof_limit_transfer', { vars: { max: MAX_PROOFS_PER_TRANSFER } });
  }
  if (counts.today >= MAX_PROOFS_PER_SENDER_PER_DAY) {
    throw new AppError('proof_limit_daily', { vars: { max: MAX_PROOFS_PER_SENDER_PER_DAY } });
  }
}

/**
 * Whether the sender may upload a proof to this open request of theirs: asked before the upload
 * is read (cheap), and again when storing it.
 */
export async function checkProofUpload(db: Db, caller: Caller, id: string): Promise<TransferRequestRow> {
  const row = await visibleRequest(db, caller, id, false);
  if (isFinalStatus(row.status)) throw proofClosed();
  checkProofLimits(await proofCounts(db, row.id, caller.profile_id));
  return row;
}

/**
 * Stores an uploaded proof once its bytes are a PNG, JPEG or WebP that decodes, or a PDF whose
 * structure holds with no script, launch action or embedded file, and the limits still hold. The
 * sender's profile row is locked while counting, so concurrent uploads cannot slip past a limit
 * together.
 */
export async function addProof(db: Db, caller: Caller, request: TransferRequestRow, file: { filename: string; data: Buffer }): Promise<ProofJson> {
  const type = await fileTypeFromBuffer(file.data);
  if (!type || !PROOF_TYPES.has(type.mime)) throw new AppError('proof_type');
  // Judged by structure, not the first bytes: an image must decode whole, a PDF must be one and
  // hold nothing a viewer would run (docs/rules/money-states.md, the proof).
  if (type.mime === 'application/pdf' ? pdfProblem(file.data) !== null : !await decodesAsImage(file.data)) throw new AppError('proof_type');
  const proof = await db.transaction(async (tx) => {
    await lockSender(tx, caller.profile_id);
    // Closed while the file was arriving: still refused.
    const current = await lockRequest(tx, request.id);
    if (!current || isFinalStatus(current.status)) throw proofClosed();
    checkProofLimits(await proofCounts(tx, request.id, caller.profile_id));
    // A new proof answers what staff asked (docs/rules/back-office.md#notes-and-action-needed).
    await clearActionNeeded(tx, request.id);
    return insertProof(tx, {
      transfer_request_id: request.id, profile_id: caller.profile_id, mime_type: type.mime, data: file.data,
      // Only a label: control characters (PostgreSQL refuses NUL in text), quotes and slashes become "_".
      // eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
      filename: (file.filename || 'proof').replace(/[\u0000-\u001f\u007f-\u009f"\\/]/g, '_').slice(-120),
      sha256: createHash('sha256').update(file.data).digest('hex'),
    });
  });
  return proofToJson(proof);
}

/** A proof's bytes (the newest when no id is named), for its sender or staff; staff viewing one is audited. */
export async function proofFile(db: Db, caller: StaffActor, id: string, proofId?: string): Promise<ProofRow> {
  const row = await visibleRequest(db, caller, id, true);
  const proof = await findProof(db, row.id, proofId);
  if (!proof) throw new AppError('not_found');
  if (isStaff(caller.role) && row.profile_id !== caller.profile_id) {
    await recordAudit(db, { ...caller, ip: caller.ip ?? null }, {
      action: 'proof.view', target: 'proof', id: proof.id, after: { transfer_id: row.id, filename: proof.filename },
    });
  }
  return proof;
}
