import type { FastifyRequest } from 'fastify';
import { requestLanguage } from '@core/language-detection.js';
import type { AppContext } from '../context.js';
import type { Lang } from '../i18n.js';
import { accessRefusal } from '../lib/access.js';
import { REQUEST_ID_HEADER } from '../lib/request-id.js';
import { API_ANSWER_HEADERS, helmetHeaders, isApiAnswer } from '../lib/security-headers.js';
import type { AuthUser } from '../modules/auth/tokens.js';
import { shared } from './shared.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser | null;
    readonly lang: Lang;
    langCache: Lang | null;
  }
}

/** helmet's headers for pages, worked out once and set on every page as they are. */
export function pageSecurityHeaders(): Promise<Record<string, string>> {
  return helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        // No plugins and no <base> rewriting where relative URLs point (ASVS 3.4.3).
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'", 'https:'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * What every request carries: its security headers (the API's or a page's), its id, its caller
 * and its language. Shared: the decorations and the hook are the whole app's.
 */
export const requestContext = shared<{ ctx: AppContext; pageHeaders: Record<string, string> }>('request-context', async (app, { ctx, pageHeaders }) => {
  app.decorateRequest('auth', null);
  // The caller's language is read from the cookie and Accept-Language when first asked for (an
  // error message, an e-mail), not on every request.
  app.decorateRequest('langCache', null);
  app.decorateRequest('lang', {
    getter(this: FastifyRequest) {
      return this.langCache ??= requestLanguage({ cookies: this.headers.cookie, acceptLanguage: this.headers['accept-language'] });
    },
  });
  // One hook for every request, synchronous unless there is a session to look up: the security
  // headers and the request's id, the caller behind a bearer token, then the route's declared
  // access (lib/access.ts).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswer(request.url) ? API_ANSWER_HEADERS : pageHeaders);
    reply.header(REQUEST_ID_HEADER, request.id);
    const header = request.headers.authorization;
    if (!header?.startsWith('Bearer ')) return done(accessRefusal(request) ?? undefined);
    ctx.tokens.authenticate(header.slice(7).trim()).then((auth) => {
      request.auth = auth;
      done(accessRefusal(request) ?? undefined);
    }, done);
  });
});
