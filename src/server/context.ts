import type { FastifyBaseLogger } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { PriceCache } from './lib/price-cache.js';
import type { RateLimiter } from './lib/rate-limit.js';
import type { DocumentBox } from './lib/document-box.js';
import type { SecretBox } from './lib/secret-box.js';
import type { TokenService } from './modules/auth/tokens.js';
import type { JobWaker } from './modules/jobs/waker.js';
import type { Readiness } from './modules/health/readiness.js';
import type { Mailer } from './modules/mail/mailer.js';
import type { AppMetrics } from './modules/metrics/metrics.js';

/** What every module's routes and services are given; built once by buildApp. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  tokens: TokenService;
  mailer: Mailer;
  /** Attempt counters: in this process, or in Redis (REDIS_URL) shared by every process. */
  limiter: RateLimiter;
  /** Published fees and rates in memory, cleared by every price edit (NOTIFY). */
  prices: PriceCache;
  /** Seals TOTP secrets at rest, with a key derived from the session secret. */
  totpBox: SecretBox;
  /** Encrypts identity documents at rest under DOCUMENT_KEY. */
  documentBox: DocumentBox;
  /** Tells the job workers of jobs written without graphile-worker's NOTIFY (the initiation's). */
  jobWaker: JobWaker;
  /** What /api/health/ready hears from the process: shutting down, its job worker. */
  readiness: Readiness;
  /** Counters of what happens (Prometheus, when served). */
  metrics: AppMetrics;
  log: Logger;
}

/**
 * The context a service is given inside a request: the app's, logging through the request's
 * logger, so each line a service writes for the request carries the request's id.
 */
export function forRequest(ctx: AppContext, request: { log: FastifyBaseLogger }): AppContext {
  return Object.assign(Object.create(ctx) as AppContext, { log: request.log as Logger });
}
