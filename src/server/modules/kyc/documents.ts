import { randomUUID } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { KycDocument } from '@core/api/kyc.js';
import { AppError } from '@core/errors.js';
import {
  DOCUMENT_KINDS, DOCUMENT_MAX_SIDE_PX, DOCUMENT_SIDES, DOCUMENT_UPLOAD_TYPES, IMAGE_ONLY_KINDS, MAX_DOCUMENTS_PER_DAY, SIDED_KINDS,
  type DocumentKind, type DocumentMimeType, type DocumentSide,
} from '@core/kyc-documents.js';
import { pdfProblem } from '@server/lib/pdf-check.js';
import { isStaff } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { recordAuditOncePer, type Actor } from '../audit/service.js';
import * as repo from './documents-repo.js';
import { queueMrzRead } from './mrz.js';
import { reviewShowing } from './reviews-repo.js';

// A sender's identity documents (docs/rules/know-your-sender.md#documents): checked by their
// bytes, photos shrunk and stripped of their metadata, sealed before they reach the database,
// and opened only for their sender and for staff (each staff view audited).

function documentToJson(row: repo.DocumentInfo): KycDocument {
  return { id: row.id, kind: row.kind, side: row.side ?? null, content_type: row.content_type, size: row.size, uploaded_at: row.created_at.toISOString(), status: row.status };
}

/** The form's `kind` and `side`, refused with the code naming what is wrong. */
export function documentFields(fields: { kind?: string; side?: string }): { kind: DocumentKind; side: DocumentSide | null } {
  const kind = DOCUMENT_KINDS.find((k) => k === fields.kind);
  if (!kind) throw new AppError('document_kind');
  const side = fields.side ? DOCUMENT_SIDES.find((s) => s === fields.side) : undefined;
  if (SIDED_KINDS.has(kind)) {
    if (!side) throw new AppError('document_side_required');
    return { kind, side };
  }
  if (fields.side) throw new AppError('document_side_not_applicable');
  return { kind, side: null };
}

type UploadMimeType = (typeof DOCUMENT_UPLOAD_TYPES)[number];
const HEIF_TYPES: ReadonlySet<string> = new Set(['image/heic', 'image/heic-sequence', 'image/heif', 'image/heif-sequence']);

const dailyLimit = () => new AppError('document_limit_daily', { vars: { max: MAX_DOCUMENTS_PER_DAY } });

/** Asked before the upload is read (cheap), and again under the profile's lock when storing. */
export async function checkDocumentUpload(db: Db, profileId: string): Promise<void> {
  if (await repo.uploadedToday(db, profileId) >= MAX_DOCUMENTS_PER_DAY) throw dailyLimit();
}

/**
 * A photo as stored: decoded whole (a photo's header followed by anything else is refused),
 * turned upright, its longest side at most DOCUMENT_MAX_SIDE_PX, re-encoded in its own format,
 * which drops its metadata (EXIF: the place and device it was taken with). A PDF is kept as
 * uploaded once its structure was checked (contentType).
 */
async function shrunk(data: Buffer, type: UploadMimeType): Promise<Buffer> {
  if (type === 'application/pdf') return data;
  try {
    const image = sharp(data, { failOn: 'error' }).rotate()
      .resize({ width: DOCUMENT_MAX_SIDE_PX, height: DOCUMENT_MAX_SIDE_PX, fit: 'inside', withoutEnlargement: true });
    if (type === 'image/jpeg') return await image.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    if (type === 'image/webp') return await image.webp({ quality: 85 }).toBuffer();
    return await image.png({ compressionLevel: 9 }).toBuffer();
  } catch {
    throw new AppError('document_unreadable');
  }
}

/**
 * What the bytes are, whatever the file's name or declared type: a JPEG, PNG or WebP photo (checked
 * whole when shrunk) or a PDF whose structure holds and that holds nothing a viewer would run.
 * HEIC is refused: sharp's prebuilt binaries carry no HEVC decoder, so it could be neither
 * checked nor stripped of its metadata.
 */
async function contentType(data: Buffer, kind: DocumentKind): Promise<UploadMimeType> {
  const mime = (await fileTypeFromBuffer(data))?.mime;
  // file-type names HEIC stills image/heic (image/heif for other HEIF brands), sequences image/heic-sequence.
  if (mime && HEIF_TYPES.has(mime)) throw new AppError('document_heic');
  const type = DOCUMENT_UPLOAD_TYPES.find((m) => m === mime);
  if (!type) throw new AppError('document_type');
  if (type === 'application/pdf') {
    if (IMAGE_ONLY_KINDS.has(kind)) throw new AppError('document_needs_image');
    if (pdfProblem(data) !== null) throw new AppError('document_type');
  }
  return type;
}

/** Stores an uploaded document, sealed, once its bytes are an accepted type and the daily limit holds. */
export async function addDocument(
  ctx: AppContext, profileId: string, fields: { kind: DocumentKind; side: DocumentSide | null }, data: Buffer,
): Promise<KycDocument> {
  const type = await contentType(data, fields.kind);
  const stored = await shrunk(data, type);
  const id = randomUUID();
  const sealed = ctx.documentBox.seal(stored, id);
  const row = await ctx.db.transaction(async (tx) => {
    await repo.lockProfile(tx, profileId);
    if (await repo.uploadedToday(tx, profileId) >= MAX_DOCUMENTS_PER_DAY) throw dailyLimit();
    const inserted = await repo.insertDocument(tx, { id, profile_id: profileId, kind: fields.kind, side: fields.side, content_type: type, size: stored.length, sealed });
    await queueMrzRead(tx, inserted);
    return inserted;
  });
  return documentToJson(row);
}

export async function myDocuments(db: Db, profileId: string): Promise<KycDocument[]> {
  return (await repo.listDocuments(db, profileId)).map(documentToJson);
}

const EXTENSIONS: Record<DocumentMimeType, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/heic': 'heic', 'application/pdf': 'pdf',
};

/** How long one sitting over a sender's documents lasts for the audit log. */
export const VIEW_SITTING_MINUTES = 30;

/**
 * A staff view, audited once per staff member, review and sitting: opening a review's documents
 * (the superseded ones too) writes one row, not one per image. A document no review shows is
 * audited once per sitting on its own.
 */
async function auditView(db: Db, caller: Actor, doc: repo.DocumentInfo): Promise<void> {
  const review = await reviewShowing(db, doc);
  await recordAuditOncePer(db, VIEW_SITTING_MINUTES, caller, review
    ? { action: 'kyc_document.view', target: 'kyc_review', id: review.id, after: { profile_id: doc.profile_id } }
    : { action: 'kyc_document.view', target: 'kyc_document', id: doc.id, after: { profile_id: doc.profile_id, kind: doc.kind, side: doc.side } });
}

/**
 * A document's bytes for its sender or staff (anyone else: 404, as if it did not exist); a staff
 * view is audited. An erased document's bytes are gone: 404.
 */
export async function documentFile(
  ctx: AppContext, caller: Actor, id: string,
): Promise<{ data: Buffer; content_type: DocumentMimeType; filename: string }> {
  const row = await repo.findDocument(ctx.db, id);
  const own = row?.profile_id === caller.profile_id;
  if (!row || (!own && !isStaff(caller.role)) || !row.sealed) throw new AppError('not_found');
  const data = ctx.documentBox.open(row.sealed, row.id);
  if (!data) throw new Error(`document ${row.id} does not open with DOCUMENT_KEY`);
  if (!own) await auditView(ctx.db, caller, row);
  return { data, content_type: row.content_type, filename: `${row.kind}${row.side ? `-${row.side}` : ''}.${EXTENSIONS[row.content_type]}` };
}
