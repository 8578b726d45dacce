import { StatsResponseSchema, VolumeQuerySchema, VolumeResponseSchema } from '@core/api/admin.js';
import { replies } from '@server/lib/contract.js';
import { requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { stats, volume } from './service.js';

// The admin's screen: counts (staff see the requests', the admin everything) and volume. See
// docs/rules/back-office.md.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/admin/stats', {
    config: { access: 'staff' },
    schema: { response: replies({ 200: StatsResponseSchema }) },
  }, async (request) => ({ data: await stats(ctx.db, requireUser(request).role) }));

  app.get('/admin/volume', {
    config: { access: 'admin' },
    schema: { querystring: VolumeQuerySchema, response: replies({ 200: VolumeResponseSchema }) },
  }, async (request) => ({ data: await volume(ctx.db, request.query.days) }));
};
export default routes;
