import { AdminFeeTierResponseSchema, DeletedResponseSchema } from '@core/api/admin.js';
import { IdParamsSchema } from '@core/api/common.js';
import { FeesResponseSchema } from '@core/api/pricing.js';
import { FeeTierInputSchema, FeeTierPatchSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { sendCached } from '@server/lib/price-cache.js';
import type { ApiModule } from '../module.js';
import { createTier, deleteTier, publishedFees, updateTier } from './service.js';

const routes: ApiModule = async (app, { ctx }) => {
  // Public: the tiers are the published prices (docs/rules/fees-and-rates.md#one-price-everywhere),
  // served from memory until an admin edits them (docs/decisions/016-price-cache-and-scale-out.md).
  app.get('/fees', {
    config: { access: 'public' },
    schema: { summary: 'Every corridor\'s fee tiers', response: replies({ 200: FeesResponseSchema }) },
  }, async (request, reply) =>
    sendCached(request, reply, await ctx.prices.get('fees', async () => FeesResponseSchema.parse(await publishedFees(ctx.db)))));

  // The admin's tier edits: each checked against its whole direction, audited, and clearing the
  // published prices everywhere.
  app.post('/fees', {
    config: { access: 'admin' },
    schema: { summary: 'Adds a fee tier (admin)', body: FeeTierInputSchema, response: replies({ 201: AdminFeeTierResponseSchema }, ['fee_amount_invalid', 'fee_min_fee_invalid', 'fee_min_max', 'fee_percentage_range', 'fee_tier_direction_mixed', 'fee_tier_gap', 'fee_tier_overlap']) },
  }, async (request, reply) => reply.status(201).send({ data: await createTier(ctx.db, ctx.prices, actorOf(request), request.body) }));

  app.patch('/fees/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Changes a fee tier (admin)', params: IdParamsSchema, body: FeeTierPatchSchema, response: replies({ 200: AdminFeeTierResponseSchema }, ['fee_amount_invalid', 'fee_min_fee_invalid', 'fee_min_max', 'fee_percentage_range', 'fee_tier_direction_mixed', 'fee_tier_gap', 'fee_tier_overlap']) },
  }, async (request) => ({
    data: await updateTier(ctx.db, ctx.prices, actorOf(request), request.params.id, request.body),
  }));

  app.delete('/fees/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Deletes a fee tier (admin)', params: IdParamsSchema, response: replies({ 200: DeletedResponseSchema }, ['fee_amount_invalid', 'fee_min_fee_invalid', 'fee_min_max', 'fee_percentage_range', 'fee_tier_direction_mixed', 'fee_tier_gap', 'fee_tier_overlap']) },
  }, async (request) => {
    await deleteTier(ctx.db, ctx.prices, actorOf(request), request.params.id);
    return { data: { id: request.params.id, deleted: true as const } };
  });
};
export default routes;
