import { HealthSchema, LiveSchema, type Ready, ReadySchema } from '@core/api/system.js';
import { replies } from '@server/lib/contract.js';
import type { ApiModule } from '../module.js';
import { databaseAnswers } from './repo.js';

/** A check not answered within this long counts as down: a probe must answer before its own timeout. */
const CHECK_MS = 2_000;

/** Resolves true when `check` succeeds within CHECK_MS. */
async function answers(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), CHECK_MS); });
  try {
    return await Promise.race([check().then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/health', {
    config: { access: 'public' },
    schema: { summary: 'Whether the service and its database answer (503 when the database does not)', response: replies({ 200: HealthSchema, 503: HealthSchema }) },
  }, async (_request, reply) => {
    try {
      await databaseAnswers(ctx.db);
      return { status: 'ok' as const, database: 'reachable' as const };
    } catch (err) {
      ctx.log.error({ err }, 'health check: database unreachable');
      return reply.status(503).send({ status: 'error' as const, database: 'unreachable' as const });
    }
  });

  app.get('/health/live', {
    config: { access: 'public' },
    schema: { summary: 'Whether the process answers (liveness probe)', response: replies({ 200: LiveSchema }) },
  }, async () => ({ status: 'ok' as const }));

  app.get('/health/ready', {
    config: { access: 'public' },
    schema: { summary: 'Whether this process can serve now: PostgreSQL, Redis when configured, the job worker; 503 while shutting down (readiness probe)', response: replies({ 200: ReadySchema, 503: ReadySchema }) },
  }, async (_request, reply) => {
    const { draining, worker } = ctx.readiness;
    const redis = ctx.limiter.redis;
    const [database, redisUp] = await Promise.all([
      answers(() => databaseAnswers(ctx.db)),
      redis ? answers(() => redis.client.ping()) : Promise.resolve(true),
    ]);
    const down: Ready['down'] = [];
    if (!database) down.push('database');
    if (!redisUp) down.push('redis');
    if (worker && !worker.alive()) down.push('job_worker');
    if (draining) down.push('shutting_down');
    return reply.status(down.length ? 503 : 200).send({ status: down.length ? 'error' : 'ok', down });
  });
};
export default routes;
