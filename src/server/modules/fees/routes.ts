import { FeesResponseSchema, QuoteResponseSchema } from '@core/api/pricing.js';
import { QuoteRequestSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { sendCached } from '@server/lib/price-cache.js';
import { PUBLIC_WORK_LIMIT } from '@server/lib/request-rate-limit.js';
import type { ApiModule } from '../module.js';
import { priceTransfer, publishedFees, quoteToJson } from './service.js';

const routes: ApiModule = async (app, { ctx }) => {
  // Public: the tiers are the published prices (docs/rules/fees-and-rates.md#one-price-everywhere),
  // served from memory until an admin edits them (docs/decisions/016-price-cache-and-scale-out.md).
  app.get('/fees', {
    config: { access: 'public' },
    schema: { response: replies({ 200: FeesResponseSchema }) },
  }, async (request, reply) =>
    sendCached(request, reply, await ctx.prices.get('fees', async () => FeesResponseSchema.parse(await publishedFees(ctx.db)))));

  app.post('/quotes', {
    config: { access: 'public', rateLimit: PUBLIC_WORK_LIMIT },
    schema: { body: QuoteRequestSchema, response: replies({ 200: QuoteResponseSchema }) },
  }, async (request) => ({ data: quoteToJson(await priceTransfer(ctx, request.body.direction, request.body.amount)) }));
};
export default routes;
