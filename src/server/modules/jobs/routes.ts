import { z } from 'zod';
import { JobResponseSchema, JobsQuerySchema, JobsResponseSchema } from '@core/api/jobs.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { listParked, retryParked } from './service.js';

// Background jobs for the admin: the parked ones (every attempt failed) and a retry.
// See docs/decisions/014-durable-jobs.md.

const JobParamsSchema = z.object({ id: z.string().regex(/^\d{1,18}$/) });

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/admin/jobs', {
    config: { access: 'admin' },
    schema: { summary: 'Background jobs parked after their last attempt, without their payload (admin)', querystring: JobsQuerySchema, response: replies({ 200: JobsResponseSchema }) },
  }, async (request) => ({ data: await listParked(ctx.db, request.query.limit) }));

  app.post('/admin/jobs/:id/retry', {
    config: { access: 'admin' },
    schema: { summary: 'Runs a parked background job again (admin)', params: JobParamsSchema, response: replies({ 200: JobResponseSchema }, ['not_parked']) },
  }, async (request) => ({ data: await retryParked(ctx.db, actorOf(request), request.params.id) }));
};
export default routes;
