import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { LIST_SOURCES, type ListSourceId } from '@core/api/screening.js';
import { AppError } from '@core/errors.js';
import { assertPartOpen, requireBoundary, uploadFailure } from '@server/lib/uploads.js';

// A list upload (multipart: a `source` field, the file(s) as parts named `files`) written to a
// temporary directory as it arrives, hashed on the way: never whole in memory, and the OFAC
// files can then be read in the order the parser needs whatever order they were sent in.

/** Each list file's size limit (docs/rules/screening.md#lists-in-the-product): OFAC's and the EU's files run to tens of MB. */
export const MAX_LIST_FILE_MB = 200;
const OFAC_NAMES = new Set(['sdn.csv', 'alt.csv', 'add.csv']);

/** A received file on disk: its official name, where it waits, its hash and size. */
export interface ReceivedListFile {
  name: string;
  path: string;
  sha256: string;
  bytes: number;
}

interface ListUpload {
  source: ListSourceId;
  files: ReceivedListFile[];
  /** Removes the temporary files: call once the import is done, whatever its outcome. */
  cleanup(): Promise<void>;
}

const tooLarge = () => new AppError('list_file_too_large', { vars: { max: MAX_LIST_FILE_MB } });

const filesInvalid = (source: ListSourceId | null) => new AppError('list_files_invalid', {
  vars: {
    expected: source === 'ofac_sdn' || source === null ? 'sdn.csv, with alt.csv and add.csv if you have them (OFAC); one file for eu, un and uk' : 'one file',
  },
});

export async function receiveListUpload(request: FastifyRequest): Promise<ListUpload> {
  if (!request.isMultipart()) throw filesInvalid(null);
  requireBoundary(request);
  const dir = await mkdtemp(join(tmpdir(), 'screening-list-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    let sourceField: string | null = null;
    const received: (ReceivedListFile & { part: string })[] = [];
    const parts = request.parts({ limits: { fileSize: MAX_LIST_FILE_MB * 1_000_000, files: 3, fields: 2 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'source') sourceField = String(part.value);
        continue;
      }
      // Only a label (and OFAC's way of saying which file is which): control characters become "_".
      // eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
      const name = basename(part.filename || 'file').replace(/[\u0000-\u001f\u007f-\u009f]/g, '_').slice(-120);
      const path = join(dir, String(received.length));
      const hash = createHash('sha256');
      let bytes = 0;
      const hashing = new Transform({ transform(chunk: Buffer, _enc, done) { bytes += chunk.length; hash.update(chunk); done(null, chunk); } });
      // Written to its end, then judged: a file cut at the limit is refused, never imported cut.
      assertPartOpen(part);
      await pipeline(part.file, hashing, createWriteStream(path));
      if (part.file.truncated) throw tooLarge();
      received.push({ part: part.fieldname, name, path, sha256: hash.digest('hex'), bytes });
    }
    const source = (LIST_SOURCES as readonly string[]).includes(sourceField ?? '') ? sourceField as ListSourceId : null;
    if (!source) throw new AppError('validation_failed', { fields: { source: 'admin.validation.listSourceInvalid' } });
    const files = received.filter((f) => f.part === 'files').map(({ part: _part, ...f }) => f);
    if (files.length !== received.length || files.length === 0) throw filesInvalid(source);
    if (source === 'ofac_sdn') {
      for (const f of files) f.name = f.name.toLowerCase();
      const names = new Set(files.map((f) => f.name));
      if (names.size !== files.length || !names.has('sdn.csv') || files.some((f) => !OFAC_NAMES.has(f.name))) throw filesInvalid(source);
    } else if (files.length !== 1) {
      throw filesInvalid(source);
    }
    return { source, files, cleanup };
  } catch (err) {
    await cleanup();
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw filesInvalid(null);
    throw uploadFailure(err, tooLarge);
  }
}
