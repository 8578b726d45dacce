import { TrackingParamsSchema, TrackingResponseSchema } from '@core/api/tracking.js';
import { replies } from '@server/lib/contract.js';
import type { ApiModule } from '../module.js';
import { trackTransfer } from './service.js';

/**
 * Per client address on the public page's API: a recipient reloads now and then, nobody needs
 * more; guessing 144-bit tokens is hopeless anyway, this keeps it from costing database reads.
 */
export const TRACKING_LIMIT = { max: 60, timeWindow: 60_000 };

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/track/:token', {
    config: { access: 'public', rateLimit: TRACKING_LIMIT },
    schema: { summary: 'A transfer\'s progress, for whoever holds its tracking link', params: TrackingParamsSchema, response: replies({ 200: TrackingResponseSchema }, ['tracking_link_not_found']) },
  }, async (request) => {
    // Kept by no cache (the API's default Cache-Control): the link may be revoked, the status move.
    return { data: await trackTransfer(ctx, request.params.token) };
  });
};
export default routes;
