import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config.js';
import { loggableError } from './lib/loggable-error.js';

/** Query parameters that carry a secret: sign-in tickets, reset tokens, OAuth codes and state, codes. */
const SECRET_PARAM = /token|ticket|code|state|otp|secret|pass|key|sig|auth|nonce|session|jwt|credential/i;

/** The URL with every secret-looking query value replaced, the rest kept as received. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch { /* a malformed name is judged as written */ }
    return eq >= 0 && SECRET_PARAM.test(decoded) ? `${name}=[redacted]` : pair;
  });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/**
 * Structured JSON logs; credentials and tokens are redacted wherever they appear. Fastify logs
 * each request's method and URL (secret query values redacted) and each response's status only,
 * never its headers (a redirect's Location may carry a sign-in ticket).
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: DestinationStream): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'token', '*.token', 'otp', '*.otp'],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: req.url === undefined ? undefined : redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
        remotePort: req.socket?.remotePort,
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      // A failed query's values (e-mails, password hashes) never reach a log.
      err: loggableError,
    },
    // Standard output written asynchronously: under load the lines of many requests leave in one
    // write instead of one blocking write each (an eighth of a small answer's CPU); pino flushes
    // what is pending when the process exits.
  }, destination ?? pino.destination({ dest: 1, sync: false }));
}
