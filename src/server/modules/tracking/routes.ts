import { z } from 'zod';
import { IdParamsSchema } from '@core/api/common.js';
import { TrackingLinkResponseSchema, TrackingParamsSchema, TrackingResponseSchema } from '@core/api/tracking.js';
import { replies } from '@server/lib/contract.js';
import { requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { renewTracking, revokeTracking, trackTransfer } from './service.js';

/**
 * Per client address on the public page's API: a recipient reloads now and then, nobody needs
 * more; guessing 144-bit tokens is hopeless anyway, this keeps it from costing database reads.
 */
export const TRACKING_LIMIT = { max: 60, timeWindow: 60_000 };

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/track/:token', {
    config: { access: 'public', rateLimit: TRACKING_LIMIT },
    schema: { params: TrackingParamsSchema, response: replies({ 200: TrackingResponseSchema }) },
  }, async (request) => {
    // Kept by no cache (the API's default Cache-Control): the link may be revoked, the status move.
    return { data: await trackTransfer(ctx, request.params.token) };
  });

  // The sender's own transfer only; anyone else's is "not found".
  app.delete('/transfer-requests/:id/tracking', {
    config: { access: 'user' },
    schema: { params: IdParamsSchema, response: replies({ 204: z.null().describe('The link is off') }) },
  }, async (request, reply) => {
    await revokeTracking(ctx, requireUser(request), request.params.id);
    return reply.status(204).send(null);
  });

  app.post('/transfer-requests/:id/tracking', {
    config: { access: 'user' },
    schema: { params: IdParamsSchema, response: replies({ 201: TrackingLinkResponseSchema }) },
  }, async (request, reply) => reply.status(201).send({ data: await renewTracking(ctx, requireUser(request), request.params.id) }));
};
export default routes;
