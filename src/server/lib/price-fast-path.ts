import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { CACHED_ANSWER_HEADERS, type CachedJson, type PriceCache, clientHasCurrent } from './price-cache.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * The published prices answered straight from memory, before Fastify routes the request: the
 * public `GET /api/fees` and `GET /api/rates` are the most asked answers and the same bytes for
 * everyone, and routing, hooks and the access log cost several times the answer itself
 * (docs/decisions/020-published-prices-fast-path.md). Only a plain GET of a path whose answer is
 * already in the cache is answered here, with the same headers and bytes as the route's
 * (`sendCached`); everything else (a cold cache, a query string, HEAD, an Accept-Encoding with
 * weights) goes on to Fastify. These answers are not access-logged.
 */
const PATHS: Record<string, string> = { '/api/fees': 'fees', '/api/rates': 'rates' };
/** As @fastify/compress in plugins/transport.ts: smaller answers go as they are. */
const COMPRESS_FROM = 1024;

type Encoding = 'identity' | 'br' | 'gzip';
/**
 * A cached answer's body and its headers in each encoding, made on first use: nothing is built per
 * request. An uncompressed body stays text: node:http then sends the headers and it in one write
 * instead of two buffers (about a tenth of a small answer's CPU).
 */
interface Prepared { body: string | Buffer; headers: string[] }
type Answers = { size: number; notModified: string[] } & Partial<Record<Encoding, Prepared>>;
const prepared = new WeakMap<CachedJson, Answers>();

function answersOf(cached: CachedJson, securityHeaders: Record<string, string>): Answers {
  let a = prepared.get(cached);
  if (!a) prepared.set(cached, a = { size: Buffer.byteLength(cached.body), notModified: flat({ ...securityHeaders, etag: cached.etag, 'cache-control': CACHED_ANSWER_HEADERS['cache-control'] }) });
  return a;
}

function prepare(cached: CachedJson, securityHeaders: Record<string, string>, encoding: Encoding): Prepared {
  const body = encoding === 'br' ? brotliCompressSync(cached.body) : encoding === 'gzip' ? gzipSync(cached.body) : cached.body;
  const headers: Record<string, string> = {
    ...securityHeaders, etag: cached.etag, 'cache-control': CACHED_ANSWER_HEADERS['cache-control'],
    'content-type': CACHED_ANSWER_HEADERS['content-type'],
  };
  if (encoding !== 'identity') Object.assign(headers, { vary: 'accept-encoding', 'content-encoding': encoding });
  headers['content-length'] = String(Buffer.byteLength(body));
  return { body, headers: flat(headers) };
}

/** [name, value, name, value, …]: the form writeHead takes without normalizing each header again. */
const flat = (headers: Record<string, string>) => Object.entries(headers).flat();

/** The encoding to send, as @fastify/compress picks it (br before gzip); null to leave the request to Fastify. */
function pickEncoding(acceptEncoding: string | undefined, size: number): Encoding | null {
  if (!acceptEncoding || size < COMPRESS_FROM) return 'identity';
  if (acceptEncoding.includes(';')) return null;
  const accepted = acceptEncoding.split(',').map((v) => v.trim().toLowerCase());
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip')) return 'gzip';
  return accepted.includes('*') ? null : 'identity';
}

/** A request handler answering what it can and returning false for the rest; each answer carries its request id. */
export function priceFastPath(cache: PriceCache, securityHeaders: Record<string, string>, requestId: (req: IncomingMessage) => string) {
  return (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET') return false;
    const key = PATHS[req.url ?? ''];
    const cached = key === undefined ? undefined : cache.peek(key);
    if (!cached) return false;
    const answers = answersOf(cached, securityHeaders);
    const encoding = pickEncoding(req.headers['accept-encoding'], answers.size);
    if (encoding === null) return false;
    if (clientHasCurrent(req.headers['if-none-match'], cached)) {
      res.writeHead(304, [...answers.notModified, REQUEST_ID_HEADER, requestId(req)]);
      res.end();
      return true;
    }
    const answer = answers[encoding] ??= prepare(cached, securityHeaders, encoding);
    res.writeHead(200, [...answer.headers, REQUEST_ID_HEADER, requestId(req)]);
    res.end(answer.body);
    return true;
  };
}
