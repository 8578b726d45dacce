import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { mailOutbox } from '../../db/schema.js';
import { notFound } from '../../lib/http-error.js';
import type { ApiModule } from '../module.js';
import { outboxReadable } from './outbox-access.js';

/**
 * GET /api/dev/outbox: the mail that would have been sent, newest first, for the /dev/outbox page.
 * Only while mail goes to the outbox, never in production, and only to this machine: 404 otherwise.
 */
const routes: ApiModule = async (app, { ctx }) => {
  app.get('/dev/outbox', {
    // Refused before the query is even read: elsewhere the route does not exist.
    onRequest: async (request) => {
      if (!outboxReadable(ctx.config, request)) throw notFound();
    },
    schema: { querystring: z.object({ to: z.string().trim().max(254).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }) },
  }, async (request) => {
    const { to, limit } = request.query;
    const rows = await ctx.db.select().from(mailOutbox)
      .where(to ? eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()) : undefined)
      .orderBy(desc(mailOutbox.id)).limit(limit);
    return { data: rows.map((m) => ({ ...m, created_at: m.created_at.toISOString() })) };
  });
};
export default routes;
