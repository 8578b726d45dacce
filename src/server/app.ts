import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors, serializerCompiler, validatorCompiler, type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { ZodError, type ZodType } from 'zod';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import type { Database } from './db/client.js';
import { requestLanguage } from '../core/language-detection.js';
import { MAX_PROOF_BYTES } from '../core/proof.js';
import { refusingControlCharacters } from '../core/schemas.js';
import { type Lang, t } from './i18n.js';
import { accessRefusal, assertDeclared } from './lib/access.js';
import { errorAnswer } from './lib/http-error.js';
import { AppError, ERRORS, type ErrorCode } from '../core/errors.js';
import { PriceCache, listenForPriceEdits } from './lib/price-cache.js';
import { priceFastPath } from './lib/price-fast-path.js';
import { createRateLimiter } from './lib/rate-limit.js';
import { REQUEST_ID_HEADER, proxyTrust, requestIdOf } from './lib/request-id.js';
import { registerRequestRateLimit } from './lib/request-rate-limit.js';
import { DocumentBox, documentKey } from './lib/document-box.js';
import { SecretBox } from './lib/secret-box.js';
import { uploadFailure } from './lib/uploads.js';
import { API_ANSWER_HEADERS, helmetHeaders, isApiAnswer } from './lib/security-headers.js';
import { type AuthUser, TokenService } from './modules/auth/tokens.js';
import { configuredMailer, type Mailer } from './modules/mail/mailer.js';
import { apiModules } from './modules/index.js';
import { createMetrics, serveMetrics } from './modules/metrics/metrics.js';
import { newReadiness, type Readiness } from './modules/health/readiness.js';
import { jobWaker } from './modules/jobs/waker.js';
import { IN_PROCESS_JOBS, type JobWorker, startWorker } from './modules/jobs/worker.js';
import { registerOpenApi } from './openapi.js';
import { WEB_FILE_OPTIONS, isKnownPageRoute, prerenderedPages } from './page-routes.js';
import { LOCALES_DIR, PAGES_DIST_DIR, WEB_DIST_DIR } from './paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthUser | null;
    readonly lang: Lang;
    langCache: Lang | null;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  sessionSecret: string;
  logger: Logger;
  /** Tests may hand in their own transport; by default SMTP_URL or the development outbox. */
  mailer?: Mailer;
  /** The process's state for /api/health/ready (the server marks its shutdown there). */
  readiness?: Readiness;
}

/**
 * One log line per request, when it completes: its id, method and URL (secret query values
 * redacted by the logger's `req` serializer), status and time. Fastify's default writes a second
 * line as each request comes in, which doubled the logging cost of every answer. The line is made
 * only of the `req` and `res` serializers' chosen fields (never headers, bodies or query secrets),
 * so it is written by a child without the path redaction, whose object walks were a third of the
 * line's cost; a failed request's line, which carries the error, keeps the redaction.
 */
class OneLinePerRequest extends LogController {
  private readonly accessLog: Logger;

  constructor(logger: Logger) {
    super();
    this.accessLog = logger.child({}, { redact: [] });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else this.accessLog.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The one app factory, used by main.ts and by every test. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, logger } = deps;
  // helmet's headers for pages, worked out once and set on every page as they are.
  const pageHeaders = await helmetHeaders({
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
  const prices = new PriceCache();
  const trust = proxyTrust(config.TRUST_PROXY);
  const requestId = requestIdOf(trust);
  const fastPath = priceFastPath(prices, API_ANSWER_HEADERS, requestId);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    trustProxy: config.TRUST_PROXY === false ? false : trust,
    genReqId: requestId,
    // What Fastify refuses before routing (a malformed URL, an overlong path parameter) answers as
    // any refusal does: our error body, headers and the request's id.
    frameworkErrors: (error, request, reply) => {
      const lang = requestLanguage({ cookies: request.raw.headers.cookie, acceptLanguage: request.raw.headers['accept-language'] });
      void (reply as FastifyReply).headers(isApiAnswer(request.url) ? API_ANSWER_HEADERS : pageHeaders).header(REQUEST_ID_HEADER, request.id)
        .status(error.statusCode ?? 400).send({ error: t(lang, ERRORS.bad_request.key), code: 'bad_request' });
    },
    bodyLimit: 1_000_000,
    logController: new OneLinePerRequest(logger),
    // Published prices already in memory are answered before routing (lib/price-fast-path.ts).
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => { if (!fastPath(req, res)) handler(req, res); });
      // Fastify's defaults for the server it would have made itself.
      server.keepAliveTimeout = 72_000;
      server.requestTimeout = 0;
      return server;
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Every request schema refuses control characters in any text first (core/schemas.ts).
  app.setValidatorCompiler(({ schema, ...route }) => validatorCompiler({ ...route, schema: refusingControlCharacters(schema as ZodType) }));
  app.setSerializerCompiler(serializerCompiler);

  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    tokens: new TokenService(database.db, deps.sessionSecret),
    mailer: deps.mailer ?? configuredMailer(config, database.db, logger),
    log: logger,
    limiter: createRateLimiter({ redisUrl: config.REDIS_URL, prefix: config.REDIS_KEY_PREFIX, log: logger }),
    prices,
    totpBox: new SecretBox(deps.sessionSecret, 'totp-secret'),
    documentBox: new DocumentBox(documentKey(config, deps.sessionSecret)),
    jobWaker: jobWaker(database.pool, logger),
    readiness: deps.readiness ?? newReadiness(),
    metrics: createMetrics(database),
  };
  app.addHook('onClose', () => ctx.limiter.close());
  app.addHook('onClose', () => ctx.jobWaker.close());
  // The in-process worker (RUN_WORKER): started once the app is ready, stopped before the
  // database closes; `npm run worker` runs the same worker alone.
  let worker: JobWorker | null = null;
  if (config.RUN_WORKER) {
    app.addHook('onReady', async () => {
      worker = await startWorker({ config, pool: database.pool, db: database.db, mailer: ctx.mailer, log: logger, concurrency: IN_PROCESS_JOBS });
      ctx.readiness.worker = worker;
    });
  }
  // The worker's e-mails in flight are sent before the mail connections close (a mailer given
  // by the caller is the caller's to close).
  app.addHook('onClose', async () => {
    await worker?.stop();
    if (!deps.mailer) ctx.mailer.close();
  });
  // Published prices are served from memory while this process hears every edit's NOTIFY.
  const priceListener = listenForPriceEdits(database.url, ctx.prices, logger);
  app.addHook('onClose', () => priceListener.close());
  await priceListener.ready;

  // Dynamic answers (API, translations) compressed on the fly; the built app is precompressed.
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_PROOF_BYTES, files: 1, fields: 5 } });
  await registerRequestRateLimit(app as unknown as FastifyInstance, { redis: ctx.limiter.redis, prefix: config.REDIS_KEY_PREFIX });

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
  // headers (the API's or a page's) and the request's id, the caller behind a bearer token, then
  // the route's declared access (lib/access.ts).
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
  app.addHook('onRoute', assertDeclared);
  serveMetrics(app as unknown as FastifyInstance, ctx.metrics, config);

  // The one place a refusal becomes text in the caller's language: services and schemas give
  // codes and message keys (core/errors.ts), the browser reacts to the codes.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const lang = request.lang;
    const listed = (code: ErrorCode, status: number = ERRORS[code].status) =>
      reply.status(status).send({ error: t(lang, ERRORS[code].key), code, ...(status >= 500 ? { request_id: request.id } : {}) });
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A malformed id in the path names no resource: 404, like an unknown one.
      if (error.validationContext === 'params') return listed('not_found');
      const fields: Record<string, string> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
        fields[field] ??= v.message ?? ERRORS.validation_failed.key;
      }
      return reply.status(400).send(errorAnswer(new AppError('validation_failed', { fields }), lang).body);
    }
    if (error instanceof ZodError) {
      const issue = error.issues[0];
      return reply.status(400).send({ error: t(lang, issue?.message ?? ERRORS.validation_failed.key), code: 'validation_failed' });
    }
    if (error instanceof AppError) {
      const { status, body } = errorAnswer(error, lang);
      return reply.status(status).send(status >= 500 ? { ...body, request_id: request.id } : body);
    }
    // An upload whose body ended before its closing boundary: the client's fault, not ours.
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' && request.isMultipart()) return listed('upload_incomplete');
    // A multipart body the parser cannot read (no usable boundary, a malformed part): the
    // client's too, whichever route read it (lib/uploads.ts).
    if (request.isMultipart() && !error.statusCode) {
      const failure = uploadFailure(error, () => new AppError('file_too_large'));
      if (failure instanceof AppError) return listed(failure.code);
    }
    // Fastify's own 4xx (bad JSON, body too large, unsupported media type): safe to name.
    if (error.statusCode && error.statusCode < 500) {
      return listed(error.code === 'FST_REQ_FILE_TOO_LARGE' ? 'file_too_large' : 'bad_request', error.statusCode);
    }
    request.log.error({ err: error }, 'unhandled error');
    return listed('internal_error');
  });

  await registerOpenApi(app as unknown as FastifyInstance);
  await app.register(async (api) => {
    for (const mod of apiModules) await api.register(mod, { ctx });
  }, { prefix: '/api' });

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
    // Public pages come prerendered in the visitor's language: ?lng, the i18next cookie, then
    // Accept-Language, as the browser would detect it
    // (docs/decisions/012-one-route-list-one-language-detection.md). The browser hydrates them.
    const query = new URLSearchParams(request.url.slice(pathname.length)).get('lng') ?? undefined;
    const lang = requestLanguage({ query, cookies: request.headers.cookie, acceptLanguage: request.headers['accept-language'] });
    const prerendered = prerenderedPage(pathname, lang);
    if (prerendered) return reply.header('Vary', 'Accept-Language, Cookie').sendFile(prerendered, PAGES_DIST_DIR);
    // History fallback: the app renders every other route itself, its 404 page included.
    return reply.status(isKnownPageRoute(pathname) ? 200 : 404).sendFile('index.html', WEB_DIST_DIR);
  });

  return app as unknown as FastifyInstance;
}
