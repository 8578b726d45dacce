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
class MemoryRateLimitStore implements RateLimitStore {
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
 * The Redis connection of the rate limits (the sign-in counters below, and the request ceilings
 * of request-rate-limit.ts). It fails fast: while Redis is unreachable no command waits for it
 * (no offline queue, short connect and command timeouts) and the limits are counted in each
 * process instead; the outage is logged once, and its end once, when the connection is back.
 */
export class RateLimitRedis {
  readonly client: Redis;
  /** Settles once the first connection attempt has ended, either way: the start waits for it, no longer. */
  readonly firstAttempt: Promise<void>;
  private down = false;
  private dropping = false;

  constructor(url: string, private readonly log?: Logger) {
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      commandTimeout: 500,
      // The counts of requests read in one turn of the event loop leave in one write, not one each.
      enableAutoPipelining: true,
      // Tries again at least every second while down, so its return is noticed within a second.
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    });
    this.firstAttempt = new Promise((resolve) => {
      this.client.once('ready', () => resolve());
      this.client.once('error', () => resolve());
    });
    this.client.on('error', (err: Error) => this.lost(err));
    this.client.on('ready', () => {
      this.dropping = false;
      if (!this.down) return;
      this.down = false;
      this.log?.info('redis reachable again: rate limits are shared by every process again');
    });
  }

  /** Whether commands can be sent now; false until the first connection is made. */
  get up(): boolean {
    return this.client.status === 'ready';
  }

  /** Redis failed or is not connected: taken as down (logged once) until the connection is made again. */
  lost(err: unknown): void {
    if (!this.down) {
      this.down = true;
      this.log?.warn({ err: err instanceof Error ? err.message : String(err) }, 'redis unreachable: rate limits are counted in each process until it is back');
    }
    // A command timed out on a connection that looks open (a peer gone silent): drop it, so the
    // next requests do not wait on it too, and connect again. Once: the commands in flight with it
    // time out together, and the connection stays 'ready' until its socket has closed.
    if (this.client.status === 'ready' && !this.dropping) {
      this.dropping = true;
      this.client.disconnect(true);
    }
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

/**
 * Counters in Redis, shared by every server process. While Redis is down the limits are this
 * process's own counters, at once: a sign-in never waits on Redis.
 */
class RedisRateLimitStore implements RateLimitStore {
  private readonly fallback = new MemoryRateLimitStore();

  constructor(private readonly redis: RateLimitRedis, private readonly prefix: string) {}

  async hit(key: string, windowMs: number) {
    if (!(await this.usable())) return this.fallback.hit(key, windowMs);
    try {
      const [count, ttl] = (await this.redis.client.eval(HIT_SCRIPT, 1, `${this.prefix}${key}`, String(windowMs))) as [number, number];
      return { count, resetInMs: ttl };
    } catch (err) {
      this.redis.lost(err);
      return this.fallback.hit(key, windowMs);
    }
  }

  async peek(key: string) {
    if (!(await this.usable())) return this.fallback.peek(key);
    try {
      const [count, ttl] = (await this.redis.client.eval(PEEK_SCRIPT, 1, `${this.prefix}${key}`)) as [number, number];
      return { count, resetInMs: Math.max(ttl, 0) };
    } catch (err) {
      this.redis.lost(err);
      return this.fallback.peek(key);
    }
  }

  /** Whether to count in Redis: after the first connection attempt (the first requests after start), only while connected. */
  private async usable(): Promise<boolean> {
    await this.redis.firstAttempt;
    if (this.redis.up) return true;
    this.redis.lost(new Error('not connected'));
    return false;
  }

  async close() {
    await this.fallback.close();
    await this.redis.close();
  }
}

/** A named limit: so many attempts per window, for one kind of key (an account, an address). */
export interface RateLimitRule {
  name: string;
  limit: number;
  windowMs: number;
}

export class RateLimiter {
  /** `redis`: the connection `store` counts in, when REDIS_URL is set. */
  constructor(readonly store: RateLimitStore, readonly redis?: RateLimitRedis) {}

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
  if (!opts.redisUrl) return new RateLimiter(new MemoryRateLimitStore());
  const redis = new RateLimitRedis(opts.redisUrl, opts.log);
  return new RateLimiter(new RedisRateLimitStore(redis, opts.prefix), redis);
}
