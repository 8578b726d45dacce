import type { FastifyReply } from 'fastify';
import type { AppContext } from '@server/context.js';
import { sendAccountMail } from '../mail/service.js';
import { LIMITS, enforceLimits, refuseAttempt } from './limits.js';
import { findProfileByEmail } from './repo.js';

// Password sign-in against guessing (ASVS 6.6.3) without a lockout switch for strangers:
// - every attempt counts against the client address (one client trying many accounts);
// - only wrong passwords count against the account: strictly per account and address, loosely
//   from anywhere. Past the loose limit each failure makes the account's sign-ins wait, twice as
//   long each time, and the owner is told once by e-mail. Under it, the right password always
//   works, whatever others typed from elsewhere.

/** The first wait once the loose limit is reached, doubled at each further failure, up to the cap. */
export const LOGIN_BACKOFF_MS = { first: 30_000, max: 15 * 60_000 } as const;

/** How long the account's sign-ins wait after its `failures`-th wrong password in the window. */
export function loginBackoffMs(failures: number): number {
  const beyond = failures - LIMITS.loginAccount.limit;
  if (beyond < 0) return 0;
  return Math.min(LOGIN_BACKOFF_MS.max, LOGIN_BACKOFF_MS.first * 2 ** Math.min(beyond, 20));
}

/** The wait imposed after a failure: one counter whose life is the wait. */
const waitRule = (ms: number) => ({ name: 'login:account-wait', limit: 1, windowMs: ms });

/** Refuses (429) a sign-in its address, its account and address pair, or its account's wait forbids. */
export async function assertLoginAllowed(ctx: AppContext, reply: FastifyReply, email: string, ip: string): Promise<void> {
  await enforceLimits(ctx, reply, [[LIMITS.loginAddress, ip]]);
  const account = email.toLowerCase();
  const [pair, wait] = await Promise.all([
    ctx.limiter.peek(LIMITS.loginAccountAddress, `${account}|${ip}`),
    ctx.limiter.peek(waitRule(0), account),
  ]);
  const retryAfterMs = Math.max(pair.retryAfterMs, wait.retryAfterMs);
  if (retryAfterMs > 0) refuseAttempt(reply, retryAfterMs);
}

/** Counts a wrong password; when it brings the account to its loose limit, the owner is told. */
export async function recordLoginFailure(ctx: AppContext, email: string, ip: string): Promise<void> {
  ctx.metrics.signInFailed();
  const account = email.toLowerCase();
  const [, failures] = await Promise.all([
    ctx.limiter.hit(LIMITS.loginAccountAddress, `${account}|${ip}`),
    ctx.limiter.hit(LIMITS.loginAccount, account),
  ]);
  const waitMs = loginBackoffMs(failures.count);
  if (waitMs === 0) return;
  await ctx.limiter.hit(waitRule(waitMs), account);
  // Exactly one failure per window reaches the limit, so the owner hears of it once.
  if (failures.count === LIMITS.loginAccount.limit) {
    void tellOwner(ctx, account, failures.count).catch((err: unknown) => ctx.log.error({ err }, 'sign-in throttle notice not sent'));
  }
}

/** Not awaited by the sign-in: its answer must not reveal whether the account exists. */
async function tellOwner(ctx: AppContext, email: string, failures: number): Promise<void> {
  const profile = await findProfileByEmail(ctx.db, email);
  if (!profile) return;
  await sendAccountMail(ctx, profile.language, profile.email, profile.full_name, {
    kind: 'loginThrottled', failures, minutes: LIMITS.loginAccount.windowMs / 60_000,
  });
}
