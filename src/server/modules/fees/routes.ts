import { AdminFeeTierResponseSchema, DeletedResponseSchema } from '@core/api/admin.js';
import { IdParamsSchema } from '@core/api/common.js';
import { FeesResponseSchema, QuoteResponseSchema } from '@core/api/pricing.js';
import { FeeTierInputSchema, FeeTierPatchSchema, QuoteRequestSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { sendCached } from '@server/lib/price-cache.js';
import { PUBLIC_WORK_LIMIT } from '@server/lib/request-rate-limit.js';
import { checkQuote } from '../kyc/service.js';
import type { ApiModule } from '../module.js';
import { createTier, deleteTier, priceTransfer, publishedFees, quoteToJson, updateTier } from './service.js';

const routes: ApiModule = async (app, { ctx }) => {
  // Public: the tiers are the published prices (docs/rules/fees-and-rates.md#one-price-everywhere),
  // served from memory until an admin edits them (docs/decisions/016-price-cache-and-scale-out.md).
  app.get('/fees', {
    config: { access: 'public' },
    schema: { summary: 'Every corridor\'s fee tiers', response: replies({ 200: FeesResponseSchema }) },
  }, async (request, reply) =>
    sendCached(request, reply, await ctx.prices.get('fees', async () => FeesResponseSchema.parse(await publishedFees(ctx.db)))));

  app.post('/quotes', {
    config: { access: 'public', rateLimit: PUBLIC_WORK_LIMIT },
    schema: { summary: 'What a transfer would cost and deliver: fee, total, rate, payout and the corridor\'s limits; for a signed-in sender, refused over their own limits', body: QuoteRequestSchema, response: replies({ 200: QuoteResponseSchema }) },
  }, async (request) => {
    const priced = await priceTransfer(ctx, request.body.direction, request.body.amount);
    // A signed-in sender is told of their own limits before the transfer screen (docs/rules/know-your-sender.md#limits).
    if (request.auth) await checkQuote(ctx, request.auth.profile_id, priced.quote.amount, priced.quote.currency);
    return { data: quoteToJson(priced) };
  });

  // The admin's tier edits: each checked against its whole direction, audited, and clearing the
  // published prices everywhere.
  app.post('/fees', {
    config: { access: 'admin' },
    schema: { summary: 'Adds a fee tier (admin)', body: FeeTierInputSchema, response: replies({ 201: AdminFeeTierResponseSchema }) },
  }, async (request, reply) => reply.status(201).send({ data: await createTier(ctx.db, ctx.prices, actorOf(request), request.body) }));

  app.patch('/fees/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Changes a fee tier (admin)', params: IdParamsSchema, body: FeeTierPatchSchema, response: replies({ 200: AdminFeeTierResponseSchema }) },
  }, async (request) => ({
    data: await updateTier(ctx.db, ctx.prices, actorOf(request), request.params.id, request.body),
  }));

  app.delete('/fees/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Deletes a fee tier (admin)', params: IdParamsSchema, response: replies({ 200: DeletedResponseSchema }) },
  }, async (request) => {
    await deleteTier(ctx.db, ctx.prices, actorOf(request), request.params.id);
    return { data: { id: request.params.id, deleted: true as const } };
  });
};
export default routes;
