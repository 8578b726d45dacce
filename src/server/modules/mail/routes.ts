import { z } from 'zod';
import { OutboxResponseSchema } from '@core/api/mail.js';
import { replies } from '@server/lib/contract.js';
import { AppError } from '@core/errors.js';
import type { ApiModule } from '../module.js';
import { outboxReadable } from './outbox-access.js';
import { readOutbox } from './service.js';

const OutboxQuery = z.object({
  to: z.string().trim().max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/**
 * GET /api/dev/outbox: the mail that would have been sent. No session is asked for: only while
 * mail goes to the outbox, never in production, and only to a person at this machine (404 otherwise).
 */
const routes: ApiModule = async (app, { ctx }) => {
  app.get('/dev/outbox', {
    config: { access: 'public' },
    // Refused before the query is even read: elsewhere the route does not exist.
    onRequest: async (request) => {
      if (!outboxReadable(ctx.config, request)) throw new AppError('not_found');
    },
    schema: { summary: 'The e-mails the server would have sent, newest first (development, on this machine only)', querystring: OutboxQuery, response: replies({ 200: OutboxResponseSchema }, ['not_found']) },
  }, async (request) => ({ data: await readOutbox(ctx.db, request.query) }));
};
export default routes;
