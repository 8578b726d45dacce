import { RatesResponseSchema } from '../../../core/api/pricing.js';
import { expandRateSet } from '../../../core/rates.js';
import { replies } from '../../lib/contract.js';
import type { ApiModule } from '../module.js';
import { loadRates } from './repo.js';

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/rates', {
    config: { access: 'public' },
    schema: { response: replies({ 200: RatesResponseSchema }) },
  }, async () => ({ data: expandRateSet(await loadRates(ctx.db)) }));
};
export default routes;
