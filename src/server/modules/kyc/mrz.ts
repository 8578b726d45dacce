import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '@core/errors.js';
import { isOwnCase } from '@core/own-case.js';
import { checkZone, type ProfileFacts } from '@core/mrz-check.js';
import { carriesMrz, type MrzResult } from '@core/mrz.js';
import type { Config } from '@server/config.js';
import type { Db, Tx } from '@server/db/client.js';
import { kycDocuments, profiles } from '@server/db/schema.js';
import { DocumentBox, documentKey } from '@server/lib/document-box.js';
import { resolveSessionSecret } from '@server/session-secret.js';
import type { AppContext } from '@server/context.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { enqueue } from '../jobs/service.js';
import { readMrzPhoto } from './mrz-ocr.js';

// The machine-readable zone of a passport, ID card or residence permit (docs/rules/know-your-sender.md#documents, core/mrz.ts): read
// from the photo by the durable job `kyc_mrz_read` after upload, or typed by staff when the photo
// is unreadable; checked and compared with the profile, kept in `kyc_documents.mrz`. Nothing of a
// document (lines, names, numbers) goes to a log, an error or a job's payload: only its id.

const MrzJobSchema = z.object({ document_id: z.string().uuid() });
/** A photo is tried a few times (the worker restarting, the database away), then parked. */
const MRZ_JOB_ATTEMPTS = 3;

/** Queues the reading of an uploaded photo of the side that carries a zone (a passport's page, a card's back). */
export async function queueMrzRead(tx: Db | Tx, doc: { id: string; kind: string; side: string | null; content_type: string }): Promise<void> {
  if (!carriesMrz(doc.kind, doc.side) || !doc.content_type.startsWith('image/') || doc.content_type === 'image/heic') return;
  await enqueue(tx, 'kyc_mrz_read', { document_id: doc.id }, MRZ_JOB_ATTEMPTS, `kyc_mrz_read:${doc.id}`);
}

async function profileFacts(db: Db | Tx, profileId: string): Promise<ProfileFacts> {
  const [row] = await db.select({ full_name: profiles.full_name, date_of_birth: profiles.date_of_birth }).from(profiles).where(eq(profiles.id, profileId));
  return { full_name: row?.full_name ?? null, date_of_birth: row?.date_of_birth ?? null };
}

/**
 * The job: opens the photo, OCRs its bottom band, keeps the first zone whose check digits hold
 * after cleaning. A zone that still fails them is a misread as far as anyone can tell: it is stored
 * `unreadable` ("could not be read reliably"), never as wrong check digits or a name that differs.
 * A zone a reviewer typed is never replaced.
 */
export async function runMrzReadJob(deps: { db: Db; config: Config }, payload: unknown): Promise<void> {
  const parsed = MrzJobSchema.safeParse(payload);
  if (!parsed.success) throw new Error('kyc_mrz_read: payload is not a document id');
  const id = parsed.data.document_id;
  const [doc] = await deps.db.select().from(kycDocuments).where(eq(kycDocuments.id, id));
  // A card's front queued before only backs were read carries no zone: nothing to read.
  if (!doc || !doc.sealed || !carriesMrz(doc.kind, doc.side) || doc.mrz?.status === 'typed') return;
  const box = new DocumentBox(documentKey(deps.config, resolveSessionSecret(deps.config)));
  const image = box.open(doc.sealed, doc.id);
  if (!image) throw new Error('kyc_mrz_read: the document does not open with DOCUMENT_KEY');
  const facts = await profileFacts(deps.db, doc.profile_id);
  let mrz: MrzResult;
  try {
    mrz = await readMrzPhoto(image, facts, new Date());
  } catch {
    // An error's text could quote the photo's decoder or OCR output: only that it failed is said.
    throw new Error('kyc_mrz_read: the photo could not be read');
  }
  // A reviewer may have typed the zone while the photo was being read: theirs stays.
  await deps.db.update(kycDocuments).set({ mrz })
    .where(and(eq(kycDocuments.id, id), or(isNull(kycDocuments.mrz), sql`${kycDocuments.mrz}->>'status' <> 'typed'`)));
}

/** Staff type the zone of a document whose photo is unreadable (or misread): checked the same way, audited. */
export async function typeMrz(ctx: AppContext, actor: Actor, id: string, lines: string[]): Promise<MrzResult> {
  return ctx.db.transaction(async (tx) => {
    const [doc] = await tx.select({ id: kycDocuments.id, kind: kycDocuments.kind, side: kycDocuments.side, profile_id: kycDocuments.profile_id, mrz: kycDocuments.mrz })
      .from(kycDocuments).where(eq(kycDocuments.id, id)).for('update');
    if (!doc || !carriesMrz(doc.kind, doc.side)) throw new AppError('not_found');
    // The typed zone is what the reviewer relies on: no one types their own (docs/rules/back-office.md#no-one-decides-on-their-own-case).
    if (isOwnCase([doc.profile_id], actor.profile_id)) throw new AppError('own_case');
    const result = checkZone(lines, 'typed', await profileFacts(tx, doc.profile_id), new Date());
    if (!result) throw AppError.onField('validation_failed', 'lines');
    const typed: MrzResult = { ...result, typed_by: actor.profile_id };
    await tx.update(kycDocuments).set({ mrz: typed }).where(eq(kycDocuments.id, id));
    // The audit keeps what the check found, not the zone's personal data.
    await recordAudit(tx, actor, {
      action: 'kyc_document.mrz_type', target: 'kyc_document', id,
      before: { status: doc.mrz?.status ?? null, valid: doc.mrz?.valid ?? null },
      after: { status: typed.status, valid: typed.valid, expired: typed.expired, name_matches_profile: typed.name_matches_profile, birth_date_matches_profile: typed.birth_date_matches_profile },
    });
    return typed;
  });
}
