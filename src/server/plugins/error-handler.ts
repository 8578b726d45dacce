import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { AppError, ERRORS, type ErrorCode } from '@core/errors.js';
import { t } from '../i18n.js';
import { errorAnswer } from '../lib/http-error.js';
import { uploadFailure } from '../lib/uploads.js';
import { shared } from './shared.js';

/**
 * The one place a refusal becomes text in the caller's language: services and schemas give codes
 * and message keys (core/errors.ts), the browser reacts to the codes. Shared: it answers for every
 * route, the API's and the pages'.
 */
export const errorHandler = shared('error-handler', async (app) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const lang = request.lang;
    const listed = (code: ErrorCode, status: number = ERRORS[code].status) =>
      reply.status(status).send({ error: t(lang, ERRORS[code].key), code, ...(status >= 500 ? { request_id: request.id } : {}) });
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names no resource: 404, like an unknown one.
      if (error.validationContext === 'params') return listed('not_found');
      const fields: Record<string, string> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        fields[field] ??= v.message ?? ERRORS.validation_failed.key;
      }
      return reply.status(400).send(errorAnswer(new AppError('validation_failed', { fields }), lang).body);
    }
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      return reply.status(400).send({ error: t(lang, issue?.message ?? ERRORS.validation_failed.key), code: 'validation_failed' });
    }
    if (error instanceof AppError) {
      const { status, body } = errorAnswer(error, lang);
      return reply.status(status).send(status >= 500 ? { ...body, request_id: request.id } : body);
    }
    // An upload whose body ended before its closing boundary: the client's fault, not ours.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' && request.isMultipart()) return listed('upload_incomplete');
    // A multipart body the parser cannot read (no usable boundary, a malformed part): the
    // client's too, whichever route read it (lib/uploads.ts).
    if (request.isMultipart() && !error.statusCode) {
      const failure = uploadFailure(error, () => new AppError('file_too_large'));
      if (failure instanceof AppError) return listed(failure.code);
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): safe to name.
    if (error.statusCode && error.statusCode < 500) {
      return listed(error.code === 'FST_REQ_FILE_TOO_LARGE' ? 'file_too_large' : 'bad_request', error.statusCode);
    }
    request.log.error({ err: error }, 'unhandled error');
    return listed('internal_error');
  });
});
