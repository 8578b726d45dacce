import { z } from 'zod';
import { isValidBic, isValidIban, normalizeBic, normalizeIban } from '@core/iban.js';

// The only reader of process.env. Every variable is validated once at start; a bad value stops
// the process with a message naming each bad variable.
const optionalUrl = z.url().optional();
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** DOCUMENT_KEY's 32 bytes, read as hex or base64; null when it is not exactly 32 bytes. */
export function documentKeyBytes(value: string): Buffer | null {
  const bytes = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64') : null;
  return bytes?.length === 32 ? bytes : null;
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.preprocess(emptyToUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional()),
  /** The schema owner's URL, for migrations only, so DATABASE_URL can name a role that only reads and writes rows. */
  MIGRATION_DATABASE_URL: z.preprocess(emptyToUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional()),
  PUBLIC_URL: z.preprocess(emptyToUndefined, optionalUrl),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  /** The key encrypting identity documents at rest: 32 bytes as 64 hex digits or base64 (docs/decisions). Required in production. */
  DOCUMENT_KEY: z.preprocess(emptyToUndefined, z.string().trim().refine((v) => documentKeyBytes(v) !== null, 'must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)').optional()),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
  ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(8, 'must be at least 8 characters').optional()),
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email().default('support@example.com')),
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').refine((v) => URL.canParse(v), 'must be a valid URL (percent-encode special characters in the password)').optional()),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().min(3).default('Money Transfer <no-reply@example.com>')),
  /** The longest wait on the mail server for a connection, its greeting, or any answer: past it the e-mail fails and is retried. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  PAYPAL_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  PAYPAL_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  PAYPAL_API_BASE: z.preprocess(emptyToUndefined, z.url().default('https://api-m.sandbox.paypal.com')),
  /** The id of the webhook registered with PayPal: webhooks are verified with PayPal under it; unset, none is trusted. */
  PAYPAL_WEBHOOK_ID: z.preprocess(emptyToUndefined, z.string().regex(/^[a-zA-Z0-9]+$/, 'must be the webhook id PayPal shows (letters and digits)').optional()),
  GOOGLE_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  GOOGLE_ISSUER: z.preprocess(emptyToUndefined, z.url().default('https://accounts.google.com')),
  FACEBOOK_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  FACEBOOK_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  FACEBOOK_AUTH_URL: z.preprocess(emptyToUndefined, z.url().default('https://www.facebook.com/v19.0/dialog/oauth')),
  FACEBOOK_TOKEN_URL: z.preprocess(emptyToUndefined, z.url().default('https://graph.facebook.com/v19.0/oauth/access_token')),
  FACEBOOK_USERINFO_URL: z.preprocess(emptyToUndefined, z.url().default('https://graph.facebook.com/me')),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional()),
  /** Namespace of this app's keys in a Redis shared with others (and per test). */
  REDIS_KEY_PREFIX: z.preprocess(emptyToUndefined, z.string().max(100).default('mt:')),
  PAYMENT_INSTRUCTIONS_AIRTEL: z.preprocess(emptyToUndefined, z.string().default('Airtel Money Gabon: +241 00 00 00 00 (Money Transfer SARL)')),
  PAYMENT_INSTRUCTIONS_RWANDA: z.preprocess(emptyToUndefined, z.string().default('MTN Mobile Money Rwanda: +250 700 000 000 (Money Transfer Ltd)')),
  PAYMENT_INSTRUCTIONS_BANK: z.preprocess(emptyToUndefined, z.string().default('IBAN FR76 3000 6000 0112 3456 7890 189, BIC AGRIFRPP (Money Transfer SAS)')),
  PAYMENT_INSTRUCTIONS_PAYPAL: z.preprocess(emptyToUndefined, z.string().default('PayPal: payments@example.com')),
  // Which proxies may set X-Forwarded-For: unset trusts none (client addresses can't be forged
  // past the rate limits); `true`, a hop count, or addresses/CIDRs behind a load balancer.
  TRUST_PROXY: z.preprocess(emptyToUndefined, z.string().default('false').transform((v): boolean | number | string => {
    if (v === 'true' || v === 'false') return v === 'true';
    return /^\d+$/.test(v) ? Number(v) : v;
  })),
  /** `false` starts servers that only enqueue; then run `npm run worker` apart (docs/decisions/014-durable-jobs.md). */
  RUN_WORKER: z.preprocess(emptyToUndefined, z.enum(['true', 'false'], 'must be true or false').default('true').transform((v) => v === 'true')),
  /** Attempts of a background job (an e-mail) before it is parked for the admin. */
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * How long a sender's e-mail about a transfer waits for the next step of the same transfer, so
   * steps done together (payment recorded, processing, paid out) arrive as one e-mail; 0 sends
   * each step's e-mail at once. A wait never exceeds five such windows from the first step.
   */
  MAIL_GROUP_SECONDS: z.coerce.number().int().min(0).max(600).default(60),
  /**
   * The most quotes stored in any hour by every caller together (POST /api/quotes); past it quotes
   * are refused with 429 until the hour's count falls (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
   */
  QUOTES_PER_HOUR: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** The ECB's reference-rate file (eurofxref-daily.xml), fetched every weekday at 16:30 UTC as a job; unset: rates are uploaded by the admin. */
  ECB_RATES_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** OFAC's sdn.csv, fetched every 6 hours as a job with the other sanctions lists; unset: the admin uploads the list. */
  SCREENING_OFAC_SDN_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** OFAC's alt.csv (aliases), fetched with sdn.csv; only with SCREENING_OFAC_SDN_URL. */
  SCREENING_OFAC_ALT_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** OFAC's add.csv (addresses), fetched with sdn.csv; only with SCREENING_OFAC_SDN_URL. */
  SCREENING_OFAC_ADD_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** The EU consolidated list (CSV), fetched every 6 hours as a job; unset: the admin uploads it. */
  SCREENING_EU_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** The UN consolidated list (XML), fetched every 6 hours as a job; unset: the admin uploads it. */
  SCREENING_UN_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** The UK sanctions list (CSV), fetched every 6 hours as a job; unset: the admin uploads it. */
  SCREENING_UK_URL: z.preprocess(emptyToUndefined, z.url().optional()),
  /** Airtel Africa's Open API (Airtel Money Gabon and Rwanda); with the client id and secret, the PIN and its key, the admin can switch the Airtel rails on. */
  AIRTEL_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://openapi.airtel.africa')),
  AIRTEL_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  AIRTEL_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The disbursement wallet's PIN, sent encrypted with AIRTEL_PUBLIC_KEY. */
  AIRTEL_PIN: z.preprocess(emptyToUndefined, z.string().regex(/^\d{4,6}$/, 'must be the wallet PIN\'s 4 to 6 digits').optional()),
  /** Airtel's RSA public key (PEM, or its base64 body) that encrypts the PIN. */
  AIRTEL_PUBLIC_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** Verifies Airtel's callback signature when Airtel is set to sign them; unset: callbacks only trigger a status enquiry. */
  AIRTEL_CALLBACK_SECRET: z.preprocess(emptyToUndefined, z.string().optional()),
  /** MTN MoMo's Open API (MTN Rwanda); with the API user, key and product keys, the admin can switch the MTN rail on. */
  MTN_MOMO_BASE_URL: z.preprocess(emptyToUndefined, z.url().default('https://proxy.momoapi.mtn.com')),
  MTN_MOMO_TARGET_ENVIRONMENT: z.preprocess(emptyToUndefined, z.string().default('mtnrwanda')),
  MTN_MOMO_API_USER: z.preprocess(emptyToUndefined, z.string().optional()),
  MTN_MOMO_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The Disbursement product's subscription key (Ocp-Apim-Subscription-Key). */
  MTN_MOMO_DISBURSEMENT_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The Collection product's subscription key: with it, senders paying from MoMo can approve on their phone. */
  MTN_MOMO_COLLECTION_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The business's bank account the SEPA payout files are debited from (docs/rules/bank-rail.md); with BANK_BIC and BANK_ACCOUNT_NAME the admin can switch the sepa_france rail on. */
  BANK_IBAN: z.preprocess(emptyToUndefined, z.string().transform(normalizeIban).refine(isValidIban, 'must be a valid IBAN').optional()),
  BANK_BIC: z.preprocess(emptyToUndefined, z.string().transform(normalizeBic).refine(isValidBic, 'must be a valid BIC (8 or 11 characters)').optional()),
  /** The account holder's name as the bank knows it (70 characters at most, the file's limit). */
  BANK_ACCOUNT_NAME: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(70, 'must be 70 characters at most').optional()),
  /** The daily cut-off (UTC time of day, "14:30"): a scheduled job gathers the payouts ready into a bank file then; unset, files are made by staff only. */
  BANK_FILE_CUTOFF: z.preprocess(emptyToUndefined, z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a UTC time of day such as 14:30').optional()),
  /** A folder the bank's statements (camt.053/054 XML) are dropped in: a scheduled job imports each new file every 10 minutes; unset, staff upload them. */
  BANK_STATEMENTS_DIR: z.preprocess(emptyToUndefined, z.string().optional()),
  /** How long a payout whose outcome is unknown is asked about before it goes to staff's "needs attention": 90s, 30m, 2h. */
  PAYOUT_UNKNOWN_AFTER: z.preprocess(emptyToUndefined, z.string().regex(/^\d+(s|m|h)$/, 'must be a duration such as 90s, 30m or 2h').default('30m')),
  /** After SIGTERM, how long the server keeps answering (readiness 503) before it stops taking connections. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Prometheus metrics at /metrics for `Authorization: Bearer <token>`; unset with METRICS_PORT unset: no metrics. */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
  /** Metrics served without a token on this port of HOST (for a private network only). */
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
});

export type Env = z.infer<typeof EnvSchema>;

/** Every variable's name, for the checks that .env.example and the README list them all. */
export const CONFIG_VARIABLES = Object.keys(EnvSchema.shape) as Array<keyof Env>;

export interface Config extends Env {
  /** Where browsers reach the app: PUBLIC_URL, else http://localhost:PORT. */
  publicUrl: string;
  isProduction: boolean;
  /** PAYOUT_UNKNOWN_AFTER in milliseconds. */
  payoutUnknownAfterMs: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  // A generated key would differ between processes and be lost with DATA_DIR, and the documents with it.
  if (e.NODE_ENV === 'production' && !e.DOCUMENT_KEY) {
    throw new ConfigError('Invalid configuration:\n  DOCUMENT_KEY: required in production (32 bytes: openssl rand -base64 32)');
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const payoutUnknownAfterMs = Number(e.PAYOUT_UNKNOWN_AFTER.slice(0, -1)) * { s: 1_000, m: 60_000, h: 3_600_000 }[e.PAYOUT_UNKNOWN_AFTER.slice(-1) as 's' | 'm' | 'h'];
  return { ...e, publicUrl, isProduction: e.NODE_ENV === 'production', payoutUnknownAfterMs };
}

/** For entry points: the configuration, or the process ends with the message naming every bad variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}
