import type { FastifyReply } from 'fastify';
import type { MfaChallenge } from '@core/api/auth.js';
import type { MfaVerify } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import { type Lang, t } from '@server/i18n.js';
import { AppError } from '@core/errors.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { type ProfileRow, findAccountById } from './accounts.js';
import { MAX_CODE_ATTEMPTS, consumeTokenRow, countTokenTry, findLiveToken, issueToken } from './codes.js';
import { LIMITS, enforceLimits, refuseAttempt } from './limits.js';
import * as repo from './mfa-repo.js';
import { type ReauthProof, assertOwner } from './reauth.js';
import type { AuthUser } from './tokens.js';
import { matchStep, newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash } from './totp.js';

// Two-step sign-in (docs/rules/accounts.md#two-step-sign-in): TOTP codes from an
// authenticator app, 10 single-use recovery codes, the code step of every sign-in of an account
// that has it, and the rule that staff endpoints need a session opened with it.

/** How long the code step may wait after the password. */
const MFA_TOKEN_TTL_MS = 5 * 60_000;

const STAFF: readonly string[] = ['admin', 'manager'];

/** Where a session is opened from, kept on its row. */
export interface SessionClient {
  ip: string;
  userAgent?: string | undefined;
}

/**
 * What a right password (or reset link, or provider sign-in) opens: a session, or, for an account
 * with two-step sign-in, the code step (no session; a single-use token for POST /auth/mfa/verify).
 */
export async function sessionOrChallenge(
  ctx: AppContext, profile: Pick<ProfileRow, 'id' | 'email' | 'totp_enabled_at'>, opts: SessionClient & { remember?: boolean },
): Promise<{ token: string; expires_at: string } | MfaChallenge> {
  const remember = opts.remember ?? false;
  if (profile.totp_enabled_at) {
    const mfaToken = await issueToken(ctx.db, {
      purpose: 'mfa_login', email: profile.email, profileId: profile.id, ttlMs: MFA_TOKEN_TTL_MS, payload: { remember },
    });
    return { mfa_required: true, mfa_token: mfaToken };
  }
  const { token, session } = await ctx.tokens.createSession(profile.id, { remember, userAgent: opts.userAgent, ip: opts.ip });
  return { token, expires_at: session.expires_at.toISOString() };
}

/** A wrong code: a 400 naming the code field. */
const wrongCode = () => AppError.onField('mfa_code_invalid', 'code');

/** Refuses (429) when the account's wrong codes, from this address or from anywhere, are over their limits. */
async function assertCodesAllowed(ctx: AppContext, reply: FastifyReply, profileId: string, ip: string): Promise<void> {
  await enforceLimits(ctx, reply, [[LIMITS.mfaAddress, ip]]);
  const [pair, account] = await Promise.all([
    ctx.limiter.peek(LIMITS.mfaAccountAddress, `${profileId}|${ip}`),
    ctx.limiter.peek(LIMITS.mfaAccount, profileId),
  ]);
  const retryAfterMs = Math.max(pair.retryAfterMs, account.retryAfterMs);
  if (retryAfterMs > 0) refuseAttempt(reply, retryAfterMs);
}

async function recordWrongCode(ctx: AppContext, profileId: string, ip: string): Promise<void> {
  await Promise.all([ctx.limiter.hit(LIMITS.mfaAccountAddress, `${profileId}|${ip}`), ctx.limiter.hit(LIMITS.mfaAccount, profileId)]);
}

/** The account's secret in the clear, or null when none is kept (or the session secret changed since). */
function secretOf(ctx: AppContext, profile: ProfileRow): string | null {
  return profile.totp_secret ? ctx.totpBox.open(profile.totp_secret, profile.id) : null;
}

/**
 * A code from the app (6 digits: its time step within one step of now, later than the last one
 * used) or an unused recovery code; true when it was right, and it is spent.
 */
async function spendSecondFactor(ctx: AppContext, profile: ProfileRow, code: string): Promise<boolean> {
  if (/^\d{6}$/.test(code)) {
    const secret = secretOf(ctx, profile);
    const step = secret ? matchStep(secret, code, Date.now()) : null;
    return step !== null && repo.useStep(ctx.db, profile.id, step);
  }
  return repo.useRecoveryCode(ctx.db, profile.id, recoveryCodeHash(profile.id, code));
}

/**
 * The code step of a sign-in. The token dies when used, after 5 minutes, and after 5 codes
 * tried (the fifth wrong one says to sign in again); wrong codes count like wrong passwords.
 */
export async function verifySignIn(ctx: AppContext, reply: FastifyReply, input: MfaVerify, client: SessionClient) {
  const row = await findLiveToken(ctx.db, 'mfa_login', input.mfa_token);
  if (!row?.profile_id) throw new AppError('mfa_token_invalid');
  await assertCodesAllowed(ctx, reply, row.profile_id, client.ip);
  const tries = await countTokenTry(ctx.db, row.id);
  if (tries === null) throw new AppError('mfa_token_invalid');
  const profile = await findAccountById(ctx.db, row.profile_id);
  if (!profile?.totp_enabled_at) throw new AppError('mfa_token_invalid');
  if (!(await spendSecondFactor(ctx, profile, input.code))) {
    await recordWrongCode(ctx, profile.id, client.ip);
    throw tries >= MAX_CODE_ATTEMPTS ? new AppError('mfa_token_exhausted') : wrongCode();
  }
  if (!(await consumeTokenRow(ctx.db, row.id))) throw new AppError('mfa_token_invalid');
  const remember = (row.payload as { remember?: unknown } | null)?.remember === true;
  const { token, session } = await ctx.tokens.createSession(profile.id, { remember, userAgent: client.userAgent, ip: client.ip, mfaVerified: true });
  return { token, expires_at: session.expires_at.toISOString() };
}

async function myProfile(ctx: AppContext, me: AuthUser): Promise<ProfileRow> {
  const profile = await findAccountById(ctx.db, me.profile_id);
  if (!profile) throw new AppError('not_found');
  return profile;
}

/**
 * Enrolment, first half: a new secret (shown this once, as text and QR code), not yet in use.
 * The caller first proves to be the owner as for an e-mail or password change (reauth.ts: the
 * current password, or a code mailed to the current address): a session alone, stolen, would
 * otherwise bind the account to the thief's authenticator. Nothing is made or stored before the
 * proof holds; enable then needs a code of this secret, which only the proven caller was shown.
 */
export async function setUp(ctx: AppContext, reply: FastifyReply, me: AuthUser, proof: ReauthProof) {
  const profile = await myProfile(ctx, me);
  if (profile.totp_enabled_at) throw new AppError('mfa_already_on');
  await assertOwner(ctx, reply, profile, proof);
  const secret = newTotpSecret();
  if (!(await repo.setPendingSecret(ctx.db, profile.id, ctx.totpBox.seal(secret, profile.id)))) throw new AppError('mfa_already_on');
  return { secret, otpauth_url: otpauthUrl(secret, profile.email, t(profile.language, 'common.app.name')) };
}

/**
 * Enrolment, second half: a code from the app proves it holds the secret. Two-step sign-in is
 * on, this session counts as verified, and the 10 recovery codes are given this once.
 */
export async function enable(ctx: AppContext, reply: FastifyReply, me: AuthUser, code: string, ip: string, lang: Lang) {
  await assertCodesAllowed(ctx, reply, me.profile_id, ip);
  const profile = await myProfile(ctx, me);
  if (profile.totp_enabled_at) throw new AppError('mfa_already_on');
  const secret = secretOf(ctx, profile);
  if (!secret || !profile.totp_secret) throw new AppError('mfa_setup_first');
  const step = matchStep(secret, code, Date.now());
  if (step === null) {
    await recordWrongCode(ctx, profile.id, ip);
    throw wrongCode();
  }
  const codes = newRecoveryCodes();
  const sealed = profile.totp_secret;
  const enabled = await ctx.db.transaction(async (tx) => {
    if (!(await repo.enableTotp(tx, profile.id, sealed, step))) return false;
    await repo.replaceRecoveryCodes(tx, profile.id, codes.map((c) => recoveryCodeHash(profile.id, c)));
    await repo.markSessionVerified(tx, me.session_id);
    return true;
  });
  if (!enabled) throw new AppError('mfa_setup_first');
  return { recovery_codes: codes, message: t(lang, 'auth.mfa.enabled') };
}

/**
 * Turning it off, with a current code or a recovery code (senders only: staff keep it, and an
 * admin resets a lost one). No session of the account stays verified.
 */
export async function disable(ctx: AppContext, reply: FastifyReply, me: AuthUser, code: string, ip: string, lang: Lang) {
  if (STAFF.includes(me.role)) throw new AppError('mfa_staff_keeps_it');
  await assertCodesAllowed(ctx, reply, me.profile_id, ip);
  const profile = await myProfile(ctx, me);
  if (!profile.totp_enabled_at) throw new AppError('mfa_not_on');
  if (!(await spendSecondFactor(ctx, profile, code))) {
    await recordWrongCode(ctx, profile.id, ip);
    throw wrongCode();
  }
  await ctx.db.transaction((tx) => repo.clearTotp(tx, profile.id));
  return { message: t(lang, 'auth.mfa.disabled') };
}

/**
 * An admin resets another account's two-step sign-in (a lost phone).
 */
export async function resetFor(ctx: AppContext, admin: Actor, profileId: string, lang: Lang) {
  if (profileId === admin.profile_id) throw new AppError('mfa_reset_self');
  if (await resetSecondFactor(ctx, admin, profileId) === null) throw new AppError('not_found');
  return { message: t(lang, 'auth.mfa.reset') };
}

/**
 * Resets an account's two-step sign-in: secret and recovery codes gone, every session of the
 * account ended, an audit row written (by the admin, or without an actor from the command line).
 * A staff member enrols again at the next sign-in. The sessions ended, or null for no such account.
 */
export async function resetSecondFactor(ctx: Pick<AppContext, 'db' | 'tokens'>, actor: Actor | null, profileId: string): Promise<number | null> {
  const found = await ctx.db.transaction(async (tx) => {
    const cleared = await repo.clearTotp(tx, profileId);
    if (!cleared) return false;
    await recordAudit(tx, actor, {
      action: 'profile.mfa_reset', target: 'profile', id: profileId,
      before: { totp_enabled: cleared.was_enabled }, after: { totp_enabled: false },
    });
    return true;
  });
  return found ? ctx.tokens.revokeAllSessions(profileId) : null;
}
