import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { requestLanguage } from '@core/language-detection.js';
import { ERRORS } from '@core/errors.js';
import { t } from '../i18n.js';
import { WEB_FILE_OPTIONS, isKnownPageRoute, prerenderedPages } from '../page-routes.js';
import { LOCALES_DIR, PAGES_DIST_DIR, WEB_DIST_DIR } from '../paths.js';
import { shared } from './shared.js';

/**
 * The translations, the built web app and its pages, and the answer to every unknown URL.
 * Shared: the not-found handler is the whole app's, the API's unknown paths included.
 */
export const webPages = shared('web-pages', async (app) => {
  // Translations are served from the same files the server reads, so the two never drift.
  await app.register(fastifyStatic, { root: LOCALES_DIR, prefix: '/locales/', decorateReply: false, maxAge: '5m' });
  const hasWeb = existsSync(path.join(WEB_DIST_DIR, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: WEB_DIST_DIR, prefix: '/', wildcard: false, index: false, preCompressed: true, ...WEB_FILE_OPTIONS,
    });
  }

  const prerenderedPage = prerenderedPages(PAGES_DIST_DIR);
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET' || !hasWeb) {
      return reply.status(404).send({ error: t(request.lang, ERRORS.not_found.key), code: 'not_found' });
    }
    const pathname = request.url.split('?')[0] ?? '/';
    reply.header('Cache-Control', 'no-cache');
    // Public pages (and signed-in pages' headings) come prerendered in the visitor's language: ?lng,
    // the i18next cookie, then Accept-Language, as the browser would detect it
    // (docs/decisions/012-one-route-list-one-language-detection.md).
    const query = new URLSearchParams(request.url.slice(pathname.length)).get('lng') ?? undefined;
    const lang = requestLanguage({ query, cookies: request.headers.cookie, acceptLanguage: request.headers['accept-language'] });
    const prerendered = prerenderedPage(pathname, lang);
    if (prerendered) return reply.header('Vary', 'Accept-Language, Cookie').sendFile(prerendered, PAGES_DIST_DIR);
    // History fallback: the app renders every other route itself, its 404 page included.
    return reply.status(isKnownPageRoute(pathname) ? 200 : 404).sendFile('index.html', WEB_DIST_DIR);
  });
});
