import { IdParamsSchema } from '@core/api/common.js';
import { RecipientDeletedResponseSchema, RecipientListResponseSchema, RecipientResponseSchema } from '@core/api/recipients.js';
import { RecipientSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { deleteMyRecipient, myRecipients, saveRecipient } from './service.js';

/** The sender's saved recipients, offered again on the transfer form. */
const routes: ApiModule = async (app, { ctx }) => {
  app.get('/recipients', {
    config: { access: 'user' },
    schema: { summary: 'The caller\'s saved recipients', response: replies({ 200: RecipientListResponseSchema }) },
  }, async (request) => ({ data: await myRecipients(ctx.db, requireUser(request).profile_id) }));

  app.post('/recipients', {
    config: { access: 'user' },
    schema: { summary: 'Saves a recipient for later transfers', body: RecipientSchema, response: replies({ 201: RecipientResponseSchema }, ['recipient_phone_operator']) },
  }, async (request, reply) => {
    const data = await saveRecipient(ctx, requireUser(request).profile_id, request.body);
    return reply.status(201).send({ data });
  });

  app.delete('/recipients/:id', {
    config: { access: 'user' },
    schema: { summary: 'Deletes one of the caller\'s saved recipients', params: IdParamsSchema, response: replies({ 200: RecipientDeletedResponseSchema }) },
  }, async (request) => ({ data: await deleteMyRecipient(ctx.db, requireUser(request).profile_id, request.params.id) }));
};
export default routes;
