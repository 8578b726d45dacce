import { createReadStream } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { ListImportJob, ListSourceId } from '@core/api/screening.js';
import { AppError, ERRORS } from '@core/errors.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { screeningListImportChunks, screeningListImports } from '@server/db/schema.js';
import { type Lang, t } from '@server/i18n.js';
import type { Actor } from '../audit/service.js';
import { enqueue } from '../jobs/service.js';
import { importList, type UploadedListFile } from './lists-service.js';
import type { ReceivedListFile } from './upload.js';

// An uploaded list is imported as durable work (docs/rules/screening.md#importing): the request
// stores the files in the database in pieces and queues the job `screening_import`, answering at
// once; the job (in any process's worker, after any restart) reads the pieces back as a stream,
// imports them, writes its progress for the admin, and ends `done` with the version or `failed`
// with the reason. The pieces are deleted once read.

/** The size of a stored piece: a 200 MB file is 200 rows. */
const PIECE_BYTES = 1 << 20;
/** Progress written every this many entries read (a statement of its own, outside the import's transaction). */
const PROGRESS_EVERY = 5_000;

const PayloadSchema = z.object({ import_id: z.uuid() });

type ImportRow = typeof screeningListImports.$inferSelect;

function importJson(r: ImportRow, lang: Lang): ListImportJob {
  const e = r.error;
  const code = e && e.code in ERRORS ? (e.code as keyof typeof ERRORS) : 'internal_error';
  return {
    id: r.id, source: r.source, state: r.state, files: r.files.map((f) => f.name), entries_read: r.entries_read, names_cut: r.names_cut,
    version_id: r.version_id, unchanged: r.unchanged,
    error: e ? { code: e.code, message: t(lang, ERRORS[code].key, { file: e.file ?? '', line: e.line ?? '', reason: e.reason ?? '' }), ...(e.file ? { file: e.file } : {}), ...(e.line ? { line: e.line } : {}) } : null,
    imported_by: r.imported_by, created_at: r.created_at.toISOString(), finished_at: r.finished_at?.toISOString() ?? null,
  };
}

/** Stores the received files and queues their import, in one transaction: the upload is kept whole or not at all. */
export async function queueListImport(
  ctx: Pick<AppContext, 'db' | 'config' | 'jobWaker'>, actor: Actor, lang: Lang, source: ListSourceId, files: ReceivedListFile[],
): Promise<ListImportJob> {
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx.insert(screeningListImports).values({
      source, files: files.map((f) => ({ name: f.name, sha256: f.sha256, bytes: f.bytes })), imported_by: actor.profile_id,
    }).returning();
    for (const [file, f] of files.entries()) {
      let seq = 0;
      for await (const piece of createReadStream(f.path, { highWaterMark: PIECE_BYTES })) {
        await tx.insert(screeningListImportChunks).values({ import_id: created!.id, file, seq: seq++, data: piece as Buffer });
      }
    }
    await enqueue(tx, 'screening_import', { import_id: created!.id }, ctx.config.JOB_MAX_ATTEMPTS);
    return created!;
  });
  ctx.jobWaker.added(1);
  return importJson(row, lang);
}

export async function listImport(db: Db, lang: Lang, id: string): Promise<ListImportJob> {
  const [row] = await db.select().from(screeningListImports).where(eq(screeningListImports.id, id));
  if (!row) throw new AppError('not_found');
  return importJson(row, lang);
}

/** What the parser is handed at a time: as a file stream's chunks, so that it parses a little between two turns of the event loop. */
const READ_BYTES = 1 << 16;

/**
 * A stored file's pieces, one row at a time, handed on in READ_BYTES slices with a turn of the
 * event loop between two: the parsers work synchronously on what they are given, and 1 MiB of
 * CSV at once would keep the server from answering for a tenth of a second.
 */
async function* storedPieces(db: Db, importId: string, file: number): AsyncGenerator<Uint8Array> {
  for (let seq = 0; ; seq++) {
    const [piece] = await db.select({ data: screeningListImportChunks.data }).from(screeningListImportChunks)
      .where(and(eq(screeningListImportChunks.import_id, importId), eq(screeningListImportChunks.file, file), eq(screeningListImportChunks.seq, seq)));
    if (!piece) return;
    for (let at = 0; at < piece.data.length; at += READ_BYTES) {
      yield piece.data.subarray(at, at + READ_BYTES);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

const finish = (db: Db, id: string, values: Partial<typeof screeningListImports.$inferInsert>) =>
  db.transaction(async (tx) => {
    await tx.update(screeningListImports).set({ ...values, finished_at: new Date() }).where(eq(screeningListImports.id, id));
    await tx.delete(screeningListImportChunks).where(eq(screeningListImportChunks.import_id, id));
  });

/**
 * The job. A file refused (format, bounds) ends the import `failed` with the reason and is not
 * retried; anything else (the database gone) fails the job, which graphile-worker retries, and the
 * last attempt's failure ends the import `failed` too. Either way the current version stays.
 */
export async function runListImport(
  deps: Pick<AppContext, 'db' | 'config'>, payload: unknown, attempt: { attempts: number; max_attempts: number },
): Promise<void> {
  const { import_id: id } = PayloadSchema.parse(payload);
  const { db } = deps;
  const [row] = await db.update(screeningListImports).set({ state: 'running', started_at: new Date() })
    .where(and(eq(screeningListImports.id, id), inArray(screeningListImports.state, ['queued', 'running']))).returning();
  // Done or failed already: a repeated job changes nothing. Running: a worker died in it, the import's transaction with it.
  if (!row) return;
  const files: UploadedListFile[] = row.files.map((f, i) => ({ name: f.name, sha256: f.sha256, open: () => storedPieces(db, id, i) }));
  const actor: Actor | null = row.imported_by ? { profile_id: row.imported_by, role: 'admin', ip: null } : null;
  let lastWritten = 0;
  const progress = async (entries: number) => {
    if (entries - lastWritten < PROGRESS_EVERY) return;
    lastWritten = entries;
    await db.update(screeningListImports).set({ entries_read: entries }).where(eq(screeningListImports.id, id));
  };
  try {
    const imported = await importList(deps, actor, row.source, files, progress);
    await finish(db, id, { state: 'done', entries_read: imported.unchanged ? row.entries_read : imported.entries, names_cut: imported.names_cut, version_id: imported.id, unchanged: imported.unchanged });
  } catch (err) {
    if (err instanceof AppError && (err.code === 'list_format_invalid' || err.code === 'list_too_large')) {
      const extra = (err.details.extra ?? {}) as { file?: string; line?: number };
      const reason = String(err.details.vars?.reason ?? '');
      await finish(db, id, { state: 'failed', error: { code: err.code, ...extra, ...(reason ? { reason } : {}) } });
      return;
    }
    if (attempt.attempts >= attempt.max_attempts) await finish(db, id, { state: 'failed', error: { code: 'internal_error' } });
    else await db.update(screeningListImports).set({ state: 'queued' }).where(eq(screeningListImports.id, id));
    throw err;
  }
}
