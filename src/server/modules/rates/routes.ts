import { RatesResponseSchema } from '@core/api/pricing.js';
import { replies } from '@server/lib/contract.js';
import { sendCached } from '@server/lib/price-cache.js';
import type { ApiModule } from '../module.js';
import { currentRates } from './service.js';

const routes: ApiModule = async (app, { ctx }) => {
  // Served from memory until an admin edits a rate (docs/decisions/016-price-cache-and-scale-out.md).
  app.get('/rates', {
    config: { access: 'public' },
    schema: { response: replies({ 200: RatesResponseSchema }) },
  }, async (request, reply) =>
    sendCached(request, reply, await ctx.prices.get('rates', async () => RatesResponseSchema.parse({ data: await currentRates(ctx.db) }))));
};
export default routes;
