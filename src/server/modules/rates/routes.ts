import { RatesResponseSchema } from '@core/api/pricing.js';
import { replies } from '@server/lib/contract.js';
import type { ApiModule } from '../module.js';
import { currentRates } from './service.js';

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/rates', {
    config: { access: 'public' },
    schema: { response: replies({ 200: RatesResponseSchema }) },
  }, async () => ({ data: await currentRates(ctx.db) }));
};
export default routes;
