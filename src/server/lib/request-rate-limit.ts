import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { HttpError } from './http-error.js';

// Plain per-address request ceilings, for public endpoints that do real work for anyone (a quote
// reads tiers, corridors and rates). @fastify/rate-limit counts them, in Redis when REDIS_URL is
// set so every process shares the count. Sign-in limits stay in rate-limit.ts: they count per
// account and address, and only failures.

/** Per client address (generous: many phones share one carrier address), for routes that opt in with `config: { rateLimit: PUBLIC_WORK_LIMIT }`. */
export const PUBLIC_WORK_LIMIT = { max: 300, timeWindow: 60_000 };

export async function registerRequestRateLimit(app: FastifyInstance, opts: { redisUrl?: string | undefined; prefix: string }): Promise<void> {
  const redis = opts.redisUrl
    // Commands wait for the connection being made at start (counted, not skipped); when Redis is
    // down they fail after one retry and skipOnError lets the request through.
    ? new Redis(opts.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2_000 })
    : undefined;
  redis?.on('error', (err: Error) => app.log.warn({ err: err.message }, 'redis (request limits) unavailable'));
  if (redis) app.addHook('onClose', async () => { redis.disconnect(); });
  await app.register(fastifyRateLimit, {
    global: false,
    redis,
    nameSpace: `${opts.prefix}requests:`,
    // A Redis outage must not take the public site down: requests pass uncounted meanwhile.
    skipOnError: true,
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, 'errors.rateLimited', {}, { count: Math.max(1, Math.ceil(context.ttl / 60_000)) }),
  });
}
