import { z } from 'zod';
import { RecipientSchema } from '../../../core/schemas.js';
import { requireUser } from '../../lib/guards.js';
import { notFound } from '../../lib/http-error.js';
import type { ApiModule } from '../module.js';
import { deleteRecipient, listRecipients, recipientToJson, saveRecipient } from './repo.js';

const IdParams = z.object({ id: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** D10: the sender's saved recipients; nobody sees or deletes another sender's. */
const routes: ApiModule = async (app, { ctx }) => {
  app.get('/recipients', async (request) => {
    const user = requireUser(request);
    return { data: (await listRecipients(ctx.db, user.profile_id)).map(recipientToJson) };
  });

  app.post('/recipients', { preValidation: async (request) => { requireUser(request); }, schema: { body: RecipientSchema } }, async (request, reply) => {
    const user = requireUser(request);
    const row = await saveRecipient(ctx.db, user.profile_id, request.body);
    return reply.status(201).send({ data: recipientToJson(row) });
  });

  app.delete('/recipients/:id', { schema: { params: IdParams } }, async (request) => {
    const user = requireUser(request);
    if (!UUID.test(request.params.id) || !(await deleteRecipient(ctx.db, user.profile_id, request.params.id))) throw notFound();
    return { data: { id: request.params.id } };
  });
};
export default routes;
