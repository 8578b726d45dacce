import { KycLevelParamsSchema, KycLimitsListSchema, KycLimitsResponseSchema, KycLimitsUpdateSchema, KycStatusResponseSchema } from '@core/api/kyc.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { kycStatus, limitsList, setLimits } from './service.js';

// Know your sender (docs/rules/know-your-sender.md): the sender's own level and limits; the
// limits per level, read by staff and edited by the admin.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/kyc', {
    config: { access: 'user' },
    schema: { summary: 'The signed-in sender\'s level, what is used and left of each limit, and what raises it', response: replies({ 200: KycStatusResponseSchema }) },
  }, async (request) => ({ data: await kycStatus(ctx, requireUser(request).profile_id) }));

  app.get('/kyc/limits', {
    config: { access: 'staff' },
    schema: { summary: 'The limits of each identity level, in EUR (staff)', response: replies({ 200: KycLimitsListSchema }) },
  }, async () => ({ data: await limitsList(ctx.db) }));

  app.put('/kyc/limits/:level', {
    config: { access: 'admin' },
    schema: { summary: 'Sets an identity level\'s limits (admin)', params: KycLevelParamsSchema, body: KycLimitsUpdateSchema, response: replies({ 200: KycLimitsResponseSchema }) },
  }, async (request) => ({ data: await setLimits(ctx.db, actorOf(request), request.params.level, request.body) }));
};
export default routes;
