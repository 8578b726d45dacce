import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pg from 'pg';
import type { Logger } from 'pino';

/**
 * The channel an edit of the published prices (fee tiers, rates) is announced on, by NOTIFY in
 * the edit's own transaction, so every process drops its copy when the edit commits
 * (docs/decisions/016-price-cache-and-scale-out.md).
 */
export const PRICES_CHANNEL = 'prices_changed';

export interface CachedJson {
  body: string;
  /** Strong: a hash of the exact bytes served. */
  etag: string;
}

/**
 * Published answers kept serialized in memory. Only while this process is listening for price
 * edits: before the listener is up, or while it is reconnecting, an edit could go unheard, so
 * every request then reads the database.
 */
export class PriceCache {
  private entries = new Map<string, Promise<unknown>>();
  /** The answers of `get` whose load has finished, for `peek`. */
  private settled = new Map<string, CachedJson>();
  private listening = false;

  /** The cached answer for `key`, or `load`'s, serialized once and shared by concurrent requests. */
  get(key: string, load: () => Promise<unknown>): Promise<CachedJson> {
    const pending = this.keep(`json:${key}`, () => load().then(serialized));
    if (this.listening && !this.settled.has(key)) {
      void pending.then((cached) => { if (this.entries.get(`json:${key}`) === pending) this.settled.set(key, cached); }, () => {});
    }
    return pending;
  }

  /** The answer `get` has already loaded for `key`, without waiting; undefined when it has none. */
  peek(key: string): CachedJson | undefined {
    return this.settled.get(key);
  }

  /**
   * `load`'s result kept as it is, for the server's own use of the published prices (a quote, an
   * initiation): under the same rules as `get`, so it is never older than the last edit heard.
   * Callers must not change it.
   */
  value<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.keep(`value:${key}`, load);
  }

  private keep<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) return hit as Promise<T>;
    const pending = load();
    if (!this.listening) return pending;
    // A load still in flight when an edit commits is dropped by clear(), never stored after it.
    this.entries.set(key, pending);
    pending.catch(() => { if (this.entries.get(key) === pending) this.entries.delete(key); });
    return pending;
  }

  invalidate(): void {
    this.entries.clear();
    this.settled.clear();
  }

  setListening(on: boolean): void {
    this.listening = on;
    this.invalidate();
  }
}

function serialized(value: unknown): CachedJson {
  const body = JSON.stringify(value);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

/** True when the client's copy is current (If-None-Match compares weakly, RFC 9110 §13.1.2). */
export function clientHasCurrent(ifNoneMatch: string | undefined, cached: CachedJson): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === cached.etag || tag.trim() === '*');
}

/** Revalidated each time: an edit must show at once, not after a max-age. */
export const CACHED_ANSWER_HEADERS = { 'cache-control': 'no-cache', 'content-type': 'application/json; charset=utf-8' } as const;

/** 304 when the client's copy is current, else the answer's bytes as they were serialized. */
export function sendCached(request: FastifyRequest, reply: FastifyReply, cached: CachedJson): FastifyReply {
  reply.header('ETag', cached.etag).header('Cache-Control', CACHED_ANSWER_HEADERS['cache-control']);
  if (clientHasCurrent(request.headers['if-none-match'], cached)) return reply.code(304).send();
  // A string with a JSON type is sent as it is, not serialized again.
  return reply.type(CACHED_ANSWER_HEADERS['content-type']).send(cached.body);
}

/**
 * One connection per process LISTENing on the prices channel: a notification clears the cache;
 * a dropped connection stops caching and is reopened with backoff, and the cache starts empty
 * again once it is back (notifications sent meanwhile were missed).
 */
export function listenForPriceEdits(url: string, cache: PriceCache, log: Logger): { ready: Promise<void>; close(): Promise<void> } {
  let closed = false;
  let heard!: () => void;
  // Resolves on the first LISTEN, so an app that has started caches from its first request.
  const ready = new Promise<void>((resolve) => { heard = resolve; });
  let client: pg.Client | null = null;
  let delay = 100;
  let timer: NodeJS.Timeout | null = null;

  const retry = () => {
    cache.setListening(false);
    if (closed || timer) return;
    timer = setTimeout(() => { timer = null; void open(); }, delay);
    delay = Math.min(delay * 2, 5_000);
  };

  async function open() {
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('notification', (msg) => { if (msg.channel === PRICES_CHANNEL) cache.invalidate(); });
    c.on('error', (err) => {
      log.warn({ err }, 'price listener connection lost');
      void c.end().catch(() => {});
      if (client === c) retry();
    });
    c.on('end', () => { if (client === c && !closed) retry(); });
    try {
      await c.connect();
      await c.query(`LISTEN ${PRICES_CHANNEL}`);
      if (closed) return void c.end().catch(() => {});
      delay = 100;
      cache.setListening(true);
      heard();
    } catch (err) {
      log.warn({ err }, 'price listener could not connect');
      void c.end().catch(() => {});
      if (client === c) retry();
    }
  }

  void open();
  return {
    ready,
    async close() {
      closed = true;
      heard();
      if (timer) clearTimeout(timer);
      cache.setListening(false);
      await client?.end().catch(() => {});
    },
  };
}
