import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** One counted attempt: allowed, or refused with the time left before the window reopens. */
export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterMs: number;
}

/** Fixed-window counters: `limit` attempts per `windowMs` for each key. */
export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** The current window's count without counting anything (0 when there is no live window). */
  peek(key: string): Promise<{ count: number; resetInMs: number }>;
  close(): Promise<void>;
}

/** In-process counters: right for one server process (the default without REDIS_URL). */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = Date.now();

  async hit(key: string, windowMs: number) {
    const now = Date.now();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetInMs: w.resetAt - now };
  }

  async peek(key: string) {
    const now = Date.now();
    const w = this.windows.get(key);
    return w && w.resetAt > now ? { count: w.count, resetInMs: w.resetAt - now } : { count: 0, resetInMs: 0 };
  }

  /** Drops ended windows now and then, so the map holds only live keys. */
  private sweep(now: number) {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  async close() {
    this.windows.clear();
  }
}

// INCR and the window's expiry in one step, so concurrent processes count the same window.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }
`;

const PEEK_SCRIPT = `
local count = redis.call('GET', KEYS[1])
if not count then return { 0, 0 } end
return { tonumber(count), redis.call('PTTL', KEYS[1]) }
`;

/**
 * Counters in Redis, shared by every server process. When Redis cannot be reached the limits fall
 * back to this process's own counters (logged), rather than failing every sign-in.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryRateLimitStore();

  constructor(url: string, private readonly prefix: string, private readonly log?: Logger) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 });
    this.redis.on('error', (err: Error) => this.log?.warn({ err: err.message }, 'redis (rate limits) unavailable'));
  }

  async hit(key: string, windowMs: number) {
    try {
      if (this.redis.status !== 'ready') await this.ready();
      const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, `${this.prefix}${key}`, String(windowMs))) as [number, number];
      return { count, resetInMs: ttl };
    } catch (err) {
      this.log?.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limit counted in process: redis unavailable');
      return this.fallback.hit(key, windowMs);
    }
  }

  async peek(key: string) {
    try {
      if (this.redis.status !== 'ready') await this.ready();
      const [count, ttl] = (await this.redis.eval(PEEK_SCRIPT, 1, `${this.prefix}${key}`)) as [number, number];
      return { count, resetInMs: Math.max(ttl, 0) };
    } catch (err) {
      this.log?.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limit read in process: redis unavailable');
      return this.fallback.peek(key);
    }
  }

  /** Waits briefly for a connection still being made (the first requests after start). */
  private ready(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { cleanup(); reject(new Error('redis not ready')); }, 2_000);
      const onReady = () => { cleanup(); resolve(); };
      const cleanup = () => { clearTimeout(timer); this.redis.off('ready', onReady); };
      this.redis.once('ready', onReady);
    });
  }

  async close() {
    await this.fallback.close();
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}

/** A named limit: so many attempts per window, for one kind of key (an account, an address). */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

export class RateLimiter {
  constructor(readonly store: RateLimitStore) {}

  /** Counts one attempt against a rule for a key (already normalised, e.g. a lower-case e-mail). */
  async hit(rule: RateLimitRule, key: string): Promise<RateLimitResult> {
    const { count, resetInMs } = await this.store.hit(`${rule.name}:${key}`, rule.windowMs);
    return { allowed: count <= rule.limit, count, retryAfterMs: count <= rule.limit ? 0 : Math.max(resetInMs, 1000) };
  }

  /** Whether one more attempt would be within the rule, without counting one. */
  async peek(rule: RateLimitRule, key: string): Promise<RateLimitResult> {
    const { count, resetInMs } = await this.store.peek(`${rule.name}:${key}`);
    return { allowed: count < rule.limit, count, retryAfterMs: count < rule.limit ? 0 : Math.max(resetInMs, 1000) };
  }

  close() {
    return this.store.close();
  }
}

export function createRateLimiter(opts: { redisUrl?: string | undefined; prefix: string; log?: Logger }): RateLimiter {
  return new RateLimiter(opts.redisUrl ? new RedisRateLimitStore(opts.redisUrl, opts.prefix, opts.log) : new MemoryRateLimitStore());
}
