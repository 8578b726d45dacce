import type { FastifyReply } from 'fastify';
import type { AppContext } from '@server/context.js';
import { AppError, type ErrorCode, type MessageVars } from '@core/errors.js';
import { sendAccountMail } from '../mail/service.js';
import { CODE_TTL_MS, checkCode, issueCode } from './codes.js';
import { LIMITS, enforceLimits, refuseAttempt } from './limits.js';
import { verifyPassword } from './password.js';
import type { ProfileRow } from './repo.js';

// A session alone does not change the e-mail or the password, nor set up two-step sign-in, nor
// close the account, or a stolen session would become the account for good
// (docs/rules/accounts.md). The caller proves to be the owner: with the current password, or, for
// an account signed in only through Google/Facebook, with a code mailed to its current address.
// The one check of its kind: two-step sign-in (mfa.ts) calls assertOwner, and the profiles and
// privacy modules through auth's service.

export interface ReauthProof {
  current_password?: string | undefined;
  current_code?: string | undefined;
}

/** A refusal naming the proof's field; its code tells a client which proof to ask for. */
const refused = (code: ErrorCode, field: keyof ReauthProof, vars?: MessageVars) => AppError.onField(code, field, vars);

/**
 * Returns when the proof holds; otherwise throws (and nothing has changed). Wrong passwords and
 * codes mailed count against the account's limit (a code dies after five wrong tries itself).
 */
export async function assertOwner(ctx: AppContext, reply: FastifyReply, profile: ProfileRow, proof: ReauthProof): Promise<void> {
  if (profile.password_hash) {
    if (!proof.current_password) throw refused('current_password_required', 'current_password');
    const limit = await ctx.limiter.peek(LIMITS.reauthAccount, profile.id);
    if (!limit.allowed) refuseAttempt(reply, limit.retryAfterMs);
    if (!(await verifyPassword(profile.password_hash, proof.current_password))) {
      await ctx.limiter.hit(LIMITS.reauthAccount, profile.id);
      throw refused('current_password_wrong', 'current_password');
    }
    return;
  }
  if (!proof.current_code) {
    await enforceLimits(ctx, reply, [[LIMITS.reauthAccount, profile.id]]);
    const code = await issueCode(ctx.db, { purpose: 'reauth', email: profile.email, profileId: profile.id });
    await sendAccountMail(ctx, profile.language, profile.email, profile.full_name, { kind: 'reauthCode', code, minutes: CODE_TTL_MS / 60_000 });
    throw refused('reauth_code_sent', 'current_code', { email: profile.email });
  }
  const check = await checkCode(ctx.db, { purpose: 'reauth', email: profile.email, code: proof.current_code, profileId: profile.id });
  if (!check.ok) throw refused(check.reason === 'exhausted' ? 'reauth_code_exhausted' : 'reauth_otp_invalid', 'current_code');
}
