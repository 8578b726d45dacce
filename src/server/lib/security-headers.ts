import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';

/**
 * The response headers helmet sets for `options`, worked out once: @fastify/helmet builds its
 * middleware again and parses the CSP on every request (about a tenth of a cached answer's cost),
 * though with fixed options (no nonces, no per-route settings) the headers never change. A probe
 * app with the plugin answers one request; the headers it adds to a bare app's are the set.
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const headersOf = async (probe: FastifyInstance) => {
    probe.get('/', async () => 'probe');
    try {
      return (await probe.inject({ method: 'GET', url: '/' })).headers;
    } finally {
      await probe.close();
    }
  };
  const bare = await headersOf(Fastify());
  const withHelmet = Fastify();
  await withHelmet.register(fastifyHelmet, options);
  const helmeted = await headersOf(withHelmet);
  const added: Record<string, string> = {};
  for (const [name, value] of Object.entries(helmeted)) {
    if (name in bare || value === undefined) continue;
    added[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  if (!added['content-security-policy']) throw new Error('helmet set no Content-Security-Policy');
  return added;
}

/**
 * The headers of the API's own answers (JSON, receipts, proofs), which no browser renders as a page:
 * OWASP's REST set. A stricter policy than the pages' (nothing may load or run, nothing may frame
 * them) without the headers that only a page acts on (opener, referrer, DNS prefetch, old IE and
 * Flash switches): about a third of the bytes, which the most asked answers pay on every request
 * (docs/decisions/023-api-answer-headers.md).
 */
export const API_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  // Kept by no cache, browser or proxy, unless the route says otherwise (published prices, places).
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/** Everything under /api/ except the readable docs, a page with its own scripts and styles. */
export const isApiAnswer = (url: string) => (url.startsWith('/api/') && !url.startsWith('/api/docs')) || url === '/api';
