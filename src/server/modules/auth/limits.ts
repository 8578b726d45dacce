import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import type { RateLimitRule } from '@server/lib/rate-limit.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Sign-ins and code requests are limited per account and per client address (docs/rules/accounts.md). Account limits
 * stop guessing one password or code; address limits stop one client trying many accounts.
 */
export const LIMITS = {
  /**
   * Sign-in counts only wrong passwords against an account, so strangers cannot lock its owner
   * out: strictly per account and address (one guesser), loosely per account from anywhere (past
   * that, each failure makes every sign-in of the account wait longer; see login-throttle.ts).
   */
  loginAccountAddress: { name: 'login:account-ip', limit: 10, windowMs: 15 * MINUTE },
  loginAccount: { name: 'login:account', limit: 20, windowMs: HOUR },
  loginAddress: { name: 'login:ip', limit: 100, windowMs: 15 * MINUTE },
  registerAccount: { name: 'register:account', limit: 5, windowMs: HOUR },
  registerAddress: { name: 'register:ip', limit: 30, windowMs: HOUR },
  verifyAccount: { name: 'verify:account', limit: 10, windowMs: 15 * MINUTE },
  verifyAddress: { name: 'verify:ip', limit: 60, windowMs: 15 * MINUTE },
  resendAccount: { name: 'resend:account', limit: 5, windowMs: HOUR },
  resendAddress: { name: 'resend:ip', limit: 30, windowMs: HOUR },
  resetAccount: { name: 'reset:account', limit: 5, windowMs: HOUR },
  resetAddress: { name: 'reset:ip', limit: 30, windowMs: HOUR },
  /** Single-use secrets presented back (reset links, OAuth tickets): per address only. */
  secretAddress: { name: 'secret:ip', limit: 60, windowMs: 15 * MINUTE },
  /** OAuth sign-ins started (each stores a pending flow until it expires): per address. */
  oauthStartAddress: { name: 'oauth-start:ip', limit: 30, windowMs: 15 * MINUTE },
  /** Links mailed to confirm an address a provider did not vouch for: per address mailed. */
  oauthConfirmAccount: { name: 'oauth-confirm:account', limit: 5, windowMs: HOUR },
  /** Wrong current passwords, and codes mailed, to change the e-mail or password: per account. */
  reauthAccount: { name: 'reauth:account', limit: 10, windowMs: HOUR },
  /** E-mail changes on the profile: codes requested and tried, per account. */
  emailChangeAccount: { name: 'email-change:account', limit: 10, windowMs: HOUR },
  /**
   * Two-step sign-in codes (docs/rules/accounts.md#two-step-sign-in), like passwords: wrong codes
   * strictly per account and address and loosely per account; every code tried per address.
   */
  mfaAccountAddress: { name: 'mfa:account-ip', limit: 10, windowMs: 15 * MINUTE },
  mfaAccount: { name: 'mfa:account', limit: 20, windowMs: HOUR },
  mfaAddress: { name: 'mfa:ip', limit: 100, windowMs: 15 * MINUTE },
} as const satisfies Record<string, RateLimitRule>;

/**
 * Counts one attempt on each rule; if any is over its limit, answers 429 with Retry-After and
 * "Too many attempts. Please try again in N minutes."
 */
export async function enforceLimits(ctx: AppContext, reply: FastifyReply, checks: Array<[RateLimitRule, string]>): Promise<void> {
  let retryAfterMs = 0;
  for (const [rule, key] of checks) {
    const result = await ctx.limiter.hit(rule, key.toLowerCase());
    if (!result.allowed) retryAfterMs = Math.max(retryAfterMs, result.retryAfterMs);
  }
  if (retryAfterMs > 0) refuseAttempt(reply, retryAfterMs);
}

/** The 429 of every limit: Retry-After, and the wait in whole minutes ("1 minute", "2 minutes"). */
export function refuseAttempt(reply: FastifyReply, retryAfterMs: number): never {
  const seconds = Math.ceil(retryAfterMs / 1000);
  reply.header('Retry-After', String(seconds));
  throw new AppError('rate_limited', { vars: { count: Math.max(1, Math.ceil(seconds / 60)) } });
}

/** The client's address, as the proxy in front reports it (trustProxy) or the socket's. */
export const clientAddress = (request: FastifyRequest) => request.ip;
