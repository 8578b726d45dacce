import { HealthSchema } from '@core/api/system.js';
import { replies } from '@server/lib/contract.js';
import type { ApiModule } from '../module.js';
import { databaseAnswers } from './repo.js';

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/health', {
    config: { access: 'public' },
    schema: { response: replies({ 200: HealthSchema, 503: HealthSchema }) },
  }, async (_request, reply) => {
    try {
      await databaseAnswers(ctx.db);
      return { status: 'ok' as const, database: 'reachable' as const };
    } catch (err) {
      ctx.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error' as const, database: 'unreachable' as const });
    }
  });
};
export default routes;
