import { expandRateSet } from '../../../core/rates.js';
import type { ApiModule } from '../module.js';
import { loadRates } from './repo.js';

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/rates', async () => ({ data: expandRateSet(await loadRates(ctx.db)) }));
};
export default routes;
