import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { AppError } from '@core/errors.js';
import { hasControlCharacter } from '@core/schemas.js';

// What every upload route (proofs, identity documents, statements, the ECB's file, sanctions
// lists) does with a multipart body before judging the file: a usable boundary, each file part
// read to its end before its size is judged, and the parser's own failures answered as listed
// refusals, never as a 500.

/** RFC 2046: a boundary is 1 to 70 characters. */
const MAX_BOUNDARY_LENGTH = 70;

/**
 * Refuses (400 bad_request) a multipart request whose Content-Type names no boundary, an empty
 * one or one longer than the RFC allows: the parser would otherwise fail on it, or find nothing.
 */
export function requireBoundary(request: FastifyRequest): void {
  const type = request.headers['content-type'] ?? '';
  const match = /;\s*boundary=(?:"([^"]*)"|([^\s;]*))/i.exec(type);
  const boundary = match?.[1] ?? match?.[2] ?? '';
  if (boundary.length === 0 || boundary.length > MAX_BOUNDARY_LENGTH) throw new AppError('bad_request');
}

/**
 * A file part's bytes, read to the part's end whatever the timing, then refused with the route's
 * too-large error when the parser cut it at its size limit (`truncated`): a file exactly at the
 * limit when a chunk ends is cut too, and its cut is known only once the part has ended.
 */
export async function readFilePart(part: MultipartFile, tooLarge: () => AppError): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
  } catch (error) {
    throw uploadFailure(error, tooLarge);
  }
  if (part.file.truncated) throw tooLarge();
  if (!part.file.readableEnded) throw new AppError('upload_incomplete');
  return Buffer.concat(chunks);
}

/**
 * Refuses (upload_incomplete) a file part the parser already gave up on: a body cut before its
 * closing boundary can end the part before the route reaches it, and a stream closed that way
 * never ends nor fails for a reader attached after (a pipeline would wait for ever).
 */
export function assertPartOpen(part: MultipartFile): void {
  if (part.file.destroyed && !part.file.readableEnded) throw new AppError('upload_incomplete');
}

/**
 * What the multipart parser threw, as the answer the caller gets: a file over its limit as the
 * route's too-large error, a body cut before its closing boundary as upload_incomplete, one the
 * parser cannot read as bad_request. Anything else is returned as it is.
 */
export function uploadFailure(error: unknown, tooLarge: () => AppError): unknown {
  if (error instanceof AppError) return error;
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || /terminated early|Unexpected end of (multipart data|form)/.test(message ?? '')) return new AppError('upload_incomplete');
  if (isMultipartParseError(error)) return new AppError('bad_request');
  return error;
}

/** A failure of the multipart parser (busboy) itself: a boundary it cannot use, a malformed part. */
export function isMultipartParseError(error: unknown): boolean {
  const message = (error as { message?: unknown })?.message;
  if (typeof message !== 'string') return false;
  return /^Multipart: Boundary not found$|^Boundary required$|^The needle cannot|^Malformed part header|terminated early|^Unexpected end of (multipart data|form)/.test(message);
}

/**
 * Whether the bytes decode as the image they start as (sharp, errors fatal): a PNG, JPEG or WebP
 * header followed by anything else (HTML, a program) does not. Decoded shrunk, so a large photo
 * costs milliseconds; every pixel row is still read.
 */
export async function decodesAsImage(data: Buffer): Promise<boolean> {
  try {
    await sharp(data, { failOn: 'error' }).resize({ width: 256, height: 256, fit: 'inside', withoutEnlargement: true }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * A statement's file as a route takes it: a multipart file part (browsers) or the request body
 * itself as text/csv (scripts, named by the query's `filename`), read to its end and refused past
 * `maxBytes`, never cut. The route parses its text/csv body as bytes.
 */
export async function readStatementFile(request: FastifyRequest, maxBytes: number, tooLarge: () => AppError, queryFilename?: string): Promise<{ bytes: Buffer; filename: string | null }> {
  if (request.isMultipart()) {
    requireBoundary(request);
    const part = await request.file({ limits: { fileSize: maxBytes } }).catch((error: unknown) => { throw uploadFailure(error, tooLarge); });
    if (!part) throw new AppError('file_missing');
    // Read to its end, then judged: a file cut at the limit is refused, never imported cut.
    const bytes = await readFilePart(part, tooLarge);
    // The file's name is text the route takes too (the schemas never see it).
    if (hasControlCharacter(part.filename)) throw new AppError('validation_failed', { fields: { filename: 'validation.controlCharacters' } });
    return { bytes, filename: part.filename || null };
  }
  if (Buffer.isBuffer(request.body)) return { bytes: request.body, filename: queryFilename ?? null };
  throw new AppError('file_missing');
}
