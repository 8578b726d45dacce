import { sql } from 'drizzle-orm';
import type { ApiModule } from '../module.js';

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/health', async (_request, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      return { status: 'ok', database: 'reachable' };
    } catch (err) {
      ctx.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error', database: 'unreachable' });
    }
  });
};
export default routes;
