import fastifyCompress from '@fastify/compress';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { MAX_PROOF_BYTES } from '@core/proof.js';
import type { AppContext } from '../context.js';
import { registerRequestRateLimit } from '../lib/request-rate-limit.js';
import { shared } from './shared.js';

/** How bodies travel: compressed answers, multipart uploads, per-address request ceilings. Shared: every route uses them. */
export const transport = shared<{ ctx: AppContext }>('transport', async (app, { ctx }) => {
  // Dynamic answers (API, translations) compressed on the fly; the built app is precompressed.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_PROOF_BYTES, files: 1, fields: 5 } });
  await registerRequestRateLimit(app as unknown as FastifyInstance, { redis: ctx.limiter.redis, prefix: ctx.config.REDIS_KEY_PREFIX });
});
