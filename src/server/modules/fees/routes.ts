import { z } from 'zod';
import { QuoteRequestSchema } from '../../../core/schemas.js';
import type { ApiModule } from '../module.js';
import { listCorridors, listTiers } from './repo.js';
import { priceTransfer, quoteToJson } from './quote-service.js';

const routes: ApiModule = async (app, { ctx }) => {
  // Public: the tiers are the published prices (D3).
  app.get('/fees', async () => {
    const [tiers, corridors] = await Promise.all([listTiers(ctx.db), listCorridors(ctx.db)]);
    return { data: tiers, corridors };
  });

  app.post('/quotes', { schema: { body: QuoteRequestSchema } }, async (request) => {
    const body = request.body as z.infer<typeof QuoteRequestSchema>;
    return { data: quoteToJson(await priceTransfer(ctx.db, body.direction, body.amount)) };
  });
};
export default routes;
