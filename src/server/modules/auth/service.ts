import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Login, Register, ResetPasswordConfirm } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import { type Lang, t } from '@server/i18n.js';
import { AppError } from '@core/errors.js';
import { isKnownCountry } from '../geo/service.js';
import { sendAccountMail } from '../mail/service.js';
import { sessionOrChallenge } from './mfa.js';
import { CODE_TTL_MS, RESET_TTL_MS, TICKET_TTL_MS, checkCode, consumeToken, findLiveToken, issueCode, issueToken, revokeTokens } from './codes.js';
import { hashPassword, verifyPassword } from './password.js';
import { assertAcceptablePassword } from './password-policy.js';
import {
  type ProfileRow, findProfileByEmail, findProfileById, insertProfile, markEmailVerified, retakeUnverified, setPasswordAtAddress,
} from './repo.js';

// Sign-up, e-mail verification, password sign-in and reset (docs/rules/accounts.md).

export { findAccountByEmail, findAccountById, type ProfileRow } from './accounts.js';
export type { AuthUser } from './tokens.js';
// What the profiles and privacy modules change of an account goes through these: the mailed codes,
// the attempt limits, passwords and their policy, and the owner's proof (reauth.ts).
export { CODE_TTL_MS, checkCode, issueCode, revokeTokens } from './codes.js';
export { LIMITS, enforceLimits } from './limits.js';
export { hashPassword } from './password.js';
export { assertAcceptablePassword } from './password-policy.js';
export { type ReauthProof, assertOwner } from './reauth.js';
export { resetSecondFactor } from './mfa.js';

/** Where a session is opened from, kept on its row. */
export interface ClientInfo {
  ip: string;
  userAgent?: string | undefined;
}

/** A phone number in E.164 ("+24106123456"), or a 400 naming the phone field. */
export function normalizePhone(value: string): string {
  const parsed = parsePhoneNumberFromString(value);
  if (!parsed?.isValid()) throw AppError.onField('phone_invalid', 'phone');
  return parsed.number;
}

async function sendVerificationCode(ctx: AppContext, profile: Pick<ProfileRow, 'id' | 'email' | 'full_name' | 'language'>) {
  const code = await issueCode(ctx.db, { purpose: 'verify_email', email: profile.email, profileId: profile.id });
  await sendAccountMail(ctx, profile.language, profile.email, profile.full_name, { kind: 'verifyEmail', code, minutes: CODE_TTL_MS / 60_000 });
}

/**
 * A new address gets a profile (role user, the caller's language) and a code by e-mail. An
 * address already verified gets "already registered" and nothing more. An address registered but never verified is taken over by the newest registration (its
 * details and password), since only the mailbox's owner can verify it.
 */
export async function register(ctx: AppContext, input: Register, lang: Lang) {
  assertAcceptablePassword(input.password, input.email);
  const phone = normalizePhone(input.phone);
  const country = input.country.toUpperCase();
  if (!isKnownCountry(country)) throw AppError.onField('country_unknown', 'country');
  const details = {
    full_name: input.full_name, phone, address: input.address || null, state: input.state || null, city: input.city, country,
    language: lang, password_hash: (await hashPassword(input.password)) as string | null,
  };
  const existing = await findProfileByEmail(ctx.db, input.email);
  if (existing?.email_verified_at) throw new AppError('email_already_registered');
  let profile: ProfileRow | null;
  if (existing) {
    // A second registration of an unverified address with another password can't tell the
    // mailbox owner from someone who typed their address first: the account keeps neither
    // password, and whoever verifies the code is sent a link to choose one.
    const samePassword = await verifyPassword(existing.password_hash, input.password);
    if (!samePassword) details.password_hash = null;
    profile = await retakeUnverified(ctx.db, existing.id, details);
  } else {
    profile = await insertProfile(ctx.db, { ...details, email: input.email, role: 'user' });
  }
  // Lost a race with another registration (or a verification) of the same address.
  if (!profile) throw new AppError('email_already_registered');
  await sendVerificationCode(ctx, profile);
  return { requiresVerification: true as const, message: t(lang, 'auth.register.codeSent', { email: profile.email }) };
}

function codeError(reason: 'invalid' | 'exhausted'): AppError {
  return new AppError(reason === 'exhausted' ? 'code_exhausted' : 'otp_invalid');
}

/** The code verifies the address and signs the user in (12-hour session). */
export async function verifyEmail(ctx: AppContext, input: { email: string; otp: string }, client: ClientInfo, lang: Lang) {
  const profile = await findProfileByEmail(ctx.db, input.email);
  if (!profile || profile.email_verified_at) throw codeError('invalid');
  const check = await checkCode(ctx.db, { purpose: 'verify_email', email: input.email, code: input.otp, profileId: profile.id });
  if (!check.ok) throw codeError(check.reason);
  await markEmailVerified(ctx.db, profile.id);
  const { token } = await ctx.tokens.createSession(profile.id, { userAgent: client.userAgent, ip: client.ip });
  if (!profile.password_hash) {
    await requestPasswordReset(ctx, profile.email, lang);
    return { token, password_required: true, message: t(lang, 'auth.verify.successChoosePassword') };
  }
  return { token, message: t(lang, 'auth.verify.success') };
}

/** A new code replaces the old one. The answer is the same for any address. */
export async function resendCode(ctx: AppContext, email: string, lang: Lang) {
  const profile = await findProfileByEmail(ctx.db, email);
  if (profile && !profile.email_verified_at) await sendVerificationCode(ctx, profile);
  return { message: t(lang, 'auth.verify.resent') };
}

let dummyHash: Promise<string> | null = null;

/**
 * Password sign-in. Unknown address and wrong password answer alike (and take as long: a
 * hash is always checked). A right password on an unverified address is told to verify; on an
 * account with two-step sign-in, it opens the code step instead of a session.
 */
export async function login(ctx: AppContext, input: Login, client: ClientInfo) {
  const profile = await findProfileByEmail(ctx.db, input.email);
  dummyHash ??= hashPassword('not-a-real-password');
  const valid = await verifyPassword(profile?.password_hash ?? (await dummyHash), input.password);
  if (!profile || !profile.password_hash || !valid) throw new AppError('invalid_credentials');
  if (!profile.email_verified_at) throw new AppError('unverified', { extra: { requiresVerification: true } });
  // With two-step sign-in on, no session yet: the code step (docs/rules/accounts.md#two-step-sign-in).
  return sessionOrChallenge(ctx, profile, { ...client, remember: input.remember ?? false });
}

/**
 * A password reset: a single-use link valid one hour, in the account's language.
 * The answer is the same whether or not the address has an account, and does not wait for the
 * mail server, so its timing does not tell either.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, lang: Lang) {
  const profile = await findProfileByEmail(ctx.db, email);
  if (profile) {
    const token = await issueToken(ctx.db, { purpose: 'reset_password', email: profile.email, profileId: profile.id, ttlMs: RESET_TTL_MS });
    const link = `${ctx.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    void sendAccountMail(ctx, profile.language, profile.email, profile.full_name, { kind: 'resetPassword', link, minutes: RESET_TTL_MS / 60_000 })
      .catch(() => { /* logged by sendAccountMail */ });
  }
  return { message: t(lang, 'auth.reset.sent') };
}

/**
 * A reset link followed: sets the new password, revokes every session and every
 * other reset link, and signs in on a fresh session. Following the link proves the mailbox, so an
 * unverified address becomes verified.
 */
export async function confirmPasswordReset(ctx: AppContext, input: ResetPasswordConfirm, client: ClientInfo, lang: Lang) {
  const link = await findLiveToken(ctx.db, 'reset_password', input.token);
  if (!link?.profile_id) throw new AppError('reset_link_invalid');
  // A refused password leaves the link usable, so the user can try another one.
  assertAcceptablePassword(input.password, link.email);
  const row = await consumeToken(ctx.db, 'reset_password', input.token);
  if (!row?.profile_id) throw new AppError('reset_link_invalid');
  // A link sent to an address the profile no longer has is void.
  const profile = await setPasswordAtAddress(ctx.db, row.profile_id, row.email, await hashPassword(input.password));
  if (!profile) throw new AppError('reset_link_invalid');
  await revokeTokens(ctx.db, 'reset_password', profile.id);
  await ctx.tokens.revokeAllSessions(profile.id);
  // The link proves the mailbox, not the authenticator: an account with two-step sign-in gives a code next.
  const opened = await sessionOrChallenge(ctx, profile, client);
  const message = t(lang, 'auth.reset.done');
  return 'token' in opened ? { token: opened.token, message } : { ...opened, message };
}

/** A single-use ticket for a profile, put in the address after an OAuth sign-in. */
export function issueSignInTicket(ctx: AppContext, profile: Pick<ProfileRow, 'id' | 'email'>): Promise<string> {
  return issueToken(ctx.db, { purpose: 'oauth_ticket', email: profile.email, profileId: profile.id, ttlMs: TICKET_TTL_MS });
}

/** The ticket, once, for a session token (or the code step of two-step sign-in). */
export async function exchangeTicket(ctx: AppContext, ticket: string, client: ClientInfo) {
  const row = await consumeToken(ctx.db, 'oauth_ticket', ticket);
  if (!row?.profile_id) throw new AppError('ticket_required');
  const profile = await findProfileById(ctx.db, row.profile_id);
  if (!profile) throw new AppError('ticket_required');
  // A provider vouches for the address, not for the authenticator: two-step sign-in gives a code next.
  const opened = await sessionOrChallenge(ctx, profile, client);
  return 'token' in opened ? { token: opened.token } : opened;
}
