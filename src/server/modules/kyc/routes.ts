import { z } from 'zod';
import { KycDocumentListSchema, KycDocumentResponseSchema, KycLevelParamsSchema, KycLimitsListSchema, KycLimitsResponseSchema, KycLimitsUpdateSchema, KycStatusResponseSchema } from '@core/api/kyc.js';
import { AppError } from '@core/errors.js';
import { MAX_DOCUMENT_BYTES } from '@core/kyc-documents.js';
import { IdParamsSchema } from '@core/api/common.js';
import { replies } from '@server/lib/contract.js';
import { readFilePart, requireBoundary, uploadFailure } from '@server/lib/uploads.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { FastifyRequest } from 'fastify';
import type { ApiModule } from '../module.js';
import { addDocument, checkDocumentUpload, documentFields, documentFile, myDocuments } from './documents.js';
import { kycStatus, limitsList, setLimits } from './service.js';
import { reviewRoutes } from './reviews-routes.js';
import { openReview } from './reviews.js';

const DOCUMENT_BYTES = z.any().describe('The document as stored: JPEG, PNG, WebP, HEIC or PDF bytes');

/**
 * The upload's fields and file, whatever their order. Only the bytes are kept: the file's name
 * and declared type are the sender's words and are neither trusted, stored nor logged.
 */
async function readUpload(request: FastifyRequest): Promise<{ fields: { kind?: string; side?: string }; data: Buffer | null }> {
  const fields: { kind?: string; side?: string } = {};
  let data: Buffer | null = null;
  if (!request.isMultipart()) return { fields, data };
  requireBoundary(request);
  const tooLarge = () => new AppError('document_too_large');
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_DOCUMENT_BYTES } })) {
      if (part.type === 'file') {
        // Read to its end, then judged: a file cut at the limit is refused, never kept cut.
        if (part.fieldname === 'file' && !data) data = await readFilePart(part, tooLarge);
        else part.file.resume();
      } else if ((part.fieldname === 'kind' || part.fieldname === 'side') && typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    throw uploadFailure(error, tooLarge);
  }
  return { fields, data };
}

// Know your sender (docs/rules/know-your-sender.md): the sender's own level and limits; the
// limits per level, read by staff and edited by the admin.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/kyc', {
    config: { access: 'user' },
    schema: { summary: 'The signed-in sender\'s level, what is used and left of each limit, and what raises it', response: replies({ 200: KycStatusResponseSchema }, ['not_found']) },
  }, async (request) => {
    const me = requireUser(request).profile_id;
    const [status, review] = await Promise.all([kycStatus(ctx, me), openReview(ctx.db, me)]);
    return { data: { ...status, open_review: review } };
  });

  app.get('/kyc/limits', {
    config: { access: 'staff' },
    schema: { summary: 'The limits of each identity level, in EUR (staff)', response: replies({ 200: KycLimitsListSchema }) },
  }, async () => ({ data: await limitsList(ctx.db) }));

  app.put('/kyc/limits/:level', {
    config: { access: 'admin' },
    schema: { summary: 'Sets an identity level\'s limits (admin)', params: KycLevelParamsSchema, body: KycLimitsUpdateSchema, response: replies({ 200: KycLimitsResponseSchema }, ['kyc_limits_order']) },
  }, async (request) => ({ data: await setLimits(ctx.db, actorOf(request), request.params.level, request.body) }));

  app.post('/kyc/documents', {
    config: { access: 'user' },
    schema: {
      summary: 'Uploads one of the sender\'s identity documents (multipart: kind, side for a card, file: JPEG, PNG, WebP or PDF up to 10 MB)',
      consumes: ['multipart/form-data'],
      response: replies({ 201: KycDocumentResponseSchema }, ['document_heic', 'document_kind', 'document_limit_daily', 'document_missing', 'document_needs_image', 'document_side_not_applicable', 'document_side_required', 'document_too_large', 'document_type', 'document_unreadable', 'upload_incomplete']),
    },
  }, async (request, reply) => {
    const me = requireUser(request).profile_id;
    // Refused before the upload is read when today's limit is reached.
    await checkDocumentUpload(ctx.db, me);
    const upload = await readUpload(request);
    const fields = documentFields(upload.fields);
    if (!upload.data || upload.data.length === 0) throw new AppError('document_missing');
    return reply.status(201).send({ data: await addDocument(ctx, me, fields, upload.data) });
  });

  app.get('/kyc/documents', {
    config: { access: 'user' },
    schema: { summary: 'The signed-in sender\'s identity documents, newest first (metadata only)', response: replies({ 200: KycDocumentListSchema }) },
  }, async (request) => ({ data: await myDocuments(ctx.db, requireUser(request).profile_id) }));

  app.get('/kyc/documents/:id', {
    config: { access: 'user' },
    schema: { summary: 'An identity document\'s bytes, for its sender or staff (each staff view audited)', params: IdParamsSchema, response: replies({ 200: DOCUMENT_BYTES }) },
  }, async (request, reply) => {
    const file = await documentFile(ctx, actorOf(request), request.params.id);
    return reply
      .header('Content-Type', file.content_type)
      .header('Content-Disposition', `inline; filename="${file.filename}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-store')
      .send(file.data);
  });

  await reviewRoutes(app, ctx);
};
export default routes;
