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
