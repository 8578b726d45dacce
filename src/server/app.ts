import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { ZodType } from 'zod';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { Database } from './db/client.js';
import { refusingControlCharacters } from '../core/schemas.js';
import { fastifyOptions } from './fastify-options.js';
import { DocumentBox, documentKey } from './lib/document-box.js';
import { PriceCache } from './lib/price-cache.js';
import { createRateLimiter } from './lib/rate-limit.js';
import { SecretBox } from './lib/secret-box.js';
import { TokenService } from './modules/auth/tokens.js';
import { configuredMailer, type Mailer } from './modules/mail/mailer.js';
import { createMetrics, serveMetrics } from './modules/metrics/metrics.js';
import { newReadiness, type Readiness } from './modules/health/readiness.js';
import { jobWaker } from './modules/jobs/waker.js';
import { api } from './plugins/api.js';
import { errorHandler } from './plugins/error-handler.js';
import { pageSecurityHeaders, requestContext } from './plugins/request-context.js';
import { resources } from './plugins/resources.js';
import { routeDeclarations } from './plugins/route-declarations.js';
import { transport } from './plugins/transport.js';
import { webPages } from './plugins/web-pages.js';

export interface AppDeps {
  config: Config;
  database: Database;
  sessionSecret: string;
  logger: Logger;
  /** Tests may hand in their own transport; by default SMTP_URL or the development outbox. */
  mailer?: Mailer;
  /** The process's state for /api/health/ready (the server marks its shutdown there). */
  readiness?: Readiness;
}

/** What every module's routes and services are given, built once per app. */
function createContext(deps: AppDeps, prices: PriceCache): AppContext {
  const { config, database, logger } = deps;
  return {
    config,
    database,
    db: database.db,
    tokens: new TokenService(database.db, deps.sessionSecret),
    mailer: deps.mailer ?? configuredMailer(config, database.db, logger),
    log: logger,
    limiter: createRateLimiter({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX, log: logger }),
    prices,
    totpBox: new SecretBox(deps.sessionSecret, 'totp-secret'),
    documentBox: new DocumentBox(documentKey(config, deps.sessionSecret)),
    jobWaker: jobWaker(database.pool, logger),
    readiness: deps.readiness ?? newReadiness(),
    metrics: createMetrics(database),
  };
}

/** The one app factory, used by main.ts and by every test: the server's plugins, in the order they must run. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const pageHeaders = await pageSecurityHeaders();
  const prices = new PriceCache();
  const app = Fastify(fastifyOptions(deps.config, deps.logger, pageHeaders, prices)).withTypeProvider<ZodTypeProvider>();
  // Every request schema refuses control characters in any text first (core/schemas.ts).
  app.setValidatorCompiler(({ schema, ...route }) => validatorCompiler({ ...route, schema: refusingControlCharacters(schema as ZodType) }));
  app.setSerializerCompiler(serializerCompiler);

  const ctx = createContext(deps, prices);
  await app.register(resources, { ctx, closeMailer: !deps.mailer });
  await app.register(transport, { ctx });
  await app.register(requestContext, { ctx, pageHeaders });
  await app.register(routeDeclarations);
  serveMetrics(app as unknown as FastifyInstance, ctx.metrics, deps.config);
  await app.register(errorHandler);
  await app.register(api, { ctx });
  await app.register(webPages);
  return app as unknown as FastifyInstance;
}
