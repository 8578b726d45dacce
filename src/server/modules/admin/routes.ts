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
    schema: { summary: 'The dashboard\'s counts: transfers by status for staff; accounts, fee tiers, parked jobs and money totals for the admin', response: replies({ 200: StatsResponseSchema }) },
  }, async (request) => ({ data: await stats(ctx.db, requireUser(request).role) }));

  app.get('/admin/volume', {
    config: { access: 'admin' },
    schema: { summary: 'Daily transfer volume and fees per corridor over the last days (admin)', querystring: VolumeQuerySchema, response: replies({ 200: VolumeResponseSchema }) },
  }, async (request) => ({ data: await volume(ctx.db, request.query.days) }));
};
export default routes;
