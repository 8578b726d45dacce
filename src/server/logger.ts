import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

/** Structured JSON logs; credentials and tokens are redacted wherever they appear. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'token', '*.token', 'otp', '*.otp'],
      censor: '[redacted]',
    },
  });
}
