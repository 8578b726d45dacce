import { DeletedResponseSchema } from '@core/api/admin.js';
import { IdParamsSchema } from '@core/api/common.js';
import {
  AdminOperatorPrefixListSchema, AdminOperatorPrefixResponseSchema, OperatorPrefixInputSchema, OperatorPrefixUpdateSchema,
  OperatorsResponseSchema,
} from '@core/api/operators.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { sendCached } from '@server/lib/price-cache.js';
import type { ApiModule } from '../module.js';
import { adminTable, createPrefix, deletePrefix, publishedOperators, updatePrefix } from './service.js';

// The operators' number ranges (docs/rules/corridors.md#phone-country-rules): public, so the browser names the operator as the sender
// types and refuses what the server would; edited by the admin, every edit audited.

const routes: ApiModule = async (app, { ctx }) => {
  // Served from memory until an admin edits a range (docs/decisions/016-price-cache-and-scale-out.md);
  // revalidated with its ETag.
  app.get('/operators', {
    config: { access: 'public' },
    schema: { summary: 'Mobile-money operators and the number ranges that name them', response: replies({ 200: OperatorsResponseSchema }) },
  }, async (request, reply) => sendCached(request, reply, await publishedOperators(ctx)));

  app.get('/admin/operator-prefixes', {
    config: { access: 'admin' },
    schema: { summary: 'Every operator number range, as the admin edits them (admin)', response: replies({ 200: AdminOperatorPrefixListSchema }) },
  }, async () => ({ data: await adminTable(ctx) }));

  app.post('/admin/operator-prefixes', {
    config: { access: 'admin' },
    schema: { summary: 'Adds an operator number range (admin)', body: OperatorPrefixInputSchema, response: replies({ 201: AdminOperatorPrefixResponseSchema }, ['operator_prefix_overlap']) },
  }, async (request, reply) => reply.status(201).send({ data: await createPrefix(ctx, actorOf(request), request.body) }));

  app.put('/admin/operator-prefixes/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Changes an operator number range (admin)', params: IdParamsSchema, body: OperatorPrefixUpdateSchema, response: replies({ 200: AdminOperatorPrefixResponseSchema }, ['operator_prefix_overlap']) },
  }, async (request) => ({ data: await updatePrefix(ctx, actorOf(request), request.params.id, request.body) }));

  app.delete('/admin/operator-prefixes/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Deletes an operator number range (admin)', params: IdParamsSchema, response: replies({ 200: DeletedResponseSchema }, ['operator_last_prefix']) },
  }, async (request) => {
    await deletePrefix(ctx, actorOf(request), request.params.id);
    return { data: { id: request.params.id, deleted: true as const } };
  });
};
export default routes;
