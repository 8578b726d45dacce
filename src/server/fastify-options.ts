import http from 'node:http';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import type { Logger } from 'pino';
import { ERRORS } from '@core/errors.js';
import { requestLanguage } from '@core/language-detection.js';
import type { Config } from './config.js';
import { t } from './i18n.js';
import type { PriceCache } from './lib/price-cache.js';
import { priceFastPath } from './lib/price-fast-path.js';
import { REQUEST_ID_HEADER, proxyTrust, requestIdOf } from './lib/request-id.js';
import { API_ANSWER_HEADERS, isApiAnswer } from './lib/security-headers.js';

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

/** The server's own options: its logging, the request ids behind a trusted proxy, what it refuses before routing, and its HTTP server. */
export function fastifyOptions(config: Config, logger: Logger, pageHeaders: Record<string, string>, prices: PriceCache): FastifyServerOptions {
  const trust = proxyTrust(config.TRUST_PROXY);
  const requestId = requestIdOf(trust);
  const fastPath = priceFastPath(prices, API_ANSWER_HEADERS, requestId);
  return {
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
  };
}
