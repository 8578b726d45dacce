import fastifyRateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import { AppError } from '@core/errors.js';
import type { FastifyInstance } from 'fastify';
import type { RateLimitRedis } from './rate-limit.js';

// Plain per-address request ceilings, for public endpoints that do real work for anyone (a quote
// reads tiers, corridors and rates). @fastify/rate-limit counts them, in Redis when REDIS_URL is
// set so every process shares the count, and in each process while Redis is down. Sign-in limits
// stay in rate-limit.ts: they count per account and address, and only failures.

/** Per client address (generous: many phones share one carrier address), for routes that opt in with `config: { rateLimit: PUBLIC_WORK_LIMIT }`. */
export const PUBLIC_WORK_LIMIT = { max: 300, timeWindow: 60_000 };

/**
 * The typed price's own count (POST /api/quotes/preview): it stores nothing, and is asked at every
 * pause in the typing (0.4 s at the quickest, so 150 a minute from one sender typing without a
 * break), so the stored quotes' 300 would be reached by two people typing behind one address. Its
 * own route, its own count: typing never spends what the review's quote needs
 * (docs/rules/fees-and-rates.md#rates-on-screen).
 */
export const TYPING_PRICE_LIMIT = { max: 1_200, timeWindow: 60_000 };

export async function registerRequestRateLimit(app: FastifyInstance, opts: { redis?: RateLimitRedis | undefined; prefix: string }): Promise<void> {
  // The sign-in limits' connection (rate-limit.ts): no command waits while Redis is down, and the
  // first requests are counted once the connection made at start is up (or has failed).
  await opts.redis?.firstAttempt;
  const redis = opts.redis;
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { store: sharedOrLocal(redis, `${opts.prefix}requests:`) } : {}),
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', { vars: { count: Math.max(1, Math.ceil(context.ttl / 60_000)) } }),
  });
}

/**
 * The ceilings' counts in Redis, shared by every process; while Redis is down, in this process at
 * once, as the sign-in limits are (rate-limit.ts): an outage neither takes the public site down nor
 * lets anyone ask without a ceiling. Each route has its own count (`child`).
 */
function sharedOrLocal(redis: RateLimitRedis, nameSpace: string) {
  class SharedOrLocalStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly shared: FastifyRateLimitStore = new RedisStore(false, false, redis.client, nameSpace),
      private readonly local: FastifyRateLimitStore = new LocalStore(false, false),
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number, max: number): void {
      if (!redis.up) {
        redis.lost(new Error('not connected'));
        this.local.incr(key, callback, timeWindow, max);
        return;
      }
      this.shared.incr(key, (error, result) => {
        if (!error) return callback(null, result);
        redis.lost(error);
        this.local.incr(key, callback, timeWindow, max);
      }, timeWindow, max);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return new SharedOrLocalStore(undefined, this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }
  return SharedOrLocalStore;
}
