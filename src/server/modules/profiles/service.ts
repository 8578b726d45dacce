import type { FastifyReply } from 'fastify';
import type { MyProfile, Profile, ProfilePageResponse } from '@core/api/profiles.js';
import type { EmailChangeConfirm, PasswordChange, ProfileUpdate, RoleUpdate } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import { type Lang, t } from '@server/i18n.js';
import { decodeCursor } from '@server/lib/cursor.js';
import { AppError } from '@core/errors.js';
import {
  type AuthUser, CODE_TTL_MS, assertAcceptablePassword, assertOwner, checkCode, findAccountByEmail, findAccountById, hashPassword,
  issueCode, normalizePhone, revokeTokens,
} from '../auth/service.js';
import { sendAccountMail } from '../mail/service.js';
import { screenSenderOnChange } from '../screening/service.js';
import { isKnownCountry } from '../geo/service.js';
import * as repo from './repo.js';
import { recordAudit, type Actor } from '../audit/service.js';

// The signed-in user's own profile, and the admin's user management (docs/rules/accounts.md).

/** A profile as the API shows it: never the password hash. */
export function toProfile(p: Omit<repo.MyProfileRow, 'has_password' | 'totp_enabled' | 'stats'>): Profile {
  return {
    id: p.id, user_id: p.user_id, email: p.email, full_name: p.full_name, phone: p.phone, address: p.address,
    state: p.state, city: p.city, country: p.country, date_of_birth: p.date_of_birth, role: p.role, language: p.language,
    email_verified: p.email_verified_at !== null, created_at: p.created_at.toISOString(),
  };
}

async function myRow(ctx: AppContext, me: AuthUser): Promise<repo.ProfileRow> {
  const profile = await findAccountById(ctx.db, me.profile_id);
  if (!profile) throw new AppError('not_found');
  return profile;
}

export async function getMyProfile(ctx: AppContext, me: AuthUser): Promise<MyProfile> {
  const profile = await repo.myProfile(ctx.db, me.profile_id);
  if (!profile) throw new AppError('not_found');
  return { ...toProfile(profile), has_password: profile.has_password, totp_enabled: profile.totp_enabled, mfa_verified: me.mfa_verified, stats: profile.stats };
}

/**
 * Name and phone change at once. A new e-mail needs the owner's proof and takes effect only once
 * it confirms a code sent to it: the answer then says where the code went (`pending_email`).
 */
export async function updateMyProfile(ctx: AppContext, reply: FastifyReply, me: AuthUser, input: ProfileUpdate, lang: Lang) {
  const current = await myRow(ctx, me);
  const changes: repo.ProfileChanges = {};
  if (input.full_name !== undefined) changes.full_name = input.full_name;
  if (input.phone !== undefined) changes.phone = normalizePhone(input.phone);
  // The address and date of birth complete the profile for sending (docs/rules/know-your-sender.md#levels).
  if (input.date_of_birth !== undefined) changes.date_of_birth = input.date_of_birth;
  if (input.address !== undefined) changes.address = input.address;
  if (input.state !== undefined) changes.state = input.state || null;
  if (input.city !== undefined) changes.city = input.city;
  if (input.country !== undefined) {
    const country = input.country.toUpperCase();
    if (!isKnownCountry(country)) throw AppError.onField('country_unknown', 'country');
    changes.country = country;
  }
  const newEmail = input.email !== undefined && input.email !== current.email.toLowerCase() ? input.email : null;
  if (newEmail) {
    await assertOwner(ctx, reply, current, input);
    if (await findAccountByEmail(ctx.db, newEmail)) throw new AppError('email_already_registered');
  }
  const profile = Object.keys(changes).length > 0 ? (await repo.updateProfile(ctx.db, current.id, changes)) ?? current : current;
  // Screened on reaching level 1 and on a new name or date of birth (docs/rules/screening.md#holds-and-alerts).
  await screenSenderOnChange(ctx.db, current, profile);
  if (!newEmail) return { data: toProfile(profile), message: t(lang, 'auth.profile.saved') };
  const code = await issueCode(ctx.db, { purpose: 'change_email', email: newEmail, profileId: profile.id });
  await sendAccountMail(ctx, profile.language, newEmail, profile.full_name, { kind: 'changeEmail', code, minutes: CODE_TTL_MS / 60_000 });
  return { data: toProfile(profile), pending_email: newEmail, message: t(lang, 'auth.profile.emailCodeSent', { email: newEmail }) };
}

/** The code sent to the new address makes it the profile's e-mail; the old address is told. */
export async function confirmEmailChange(ctx: AppContext, me: AuthUser, input: EmailChangeConfirm, lang: Lang) {
  const check = await checkCode(ctx.db, { purpose: 'change_email', email: input.email, code: input.otp, profileId: me.profile_id });
  if (!check.ok) throw new AppError(check.reason === 'exhausted' ? 'code_exhausted' : 'otp_invalid');
  const before = await myRow(ctx, me);
  const profile = await repo.setVerifiedEmail(ctx.db, me.profile_id, input.email);
  // Someone registered the address in the meantime.
  if (profile === 'taken') throw new AppError('email_already_registered');
  if (!profile) throw new AppError('not_found');
  // The old address hears of the change, in case it was not its owner's doing.
  await sendAccountMail(ctx, profile.language, before.email, profile.full_name, { kind: 'emailChanged', newEmail: profile.email })
    .catch(() => { /* logged by sendAccountMail; the change stands */ });
  return { data: toProfile(profile), message: t(lang, 'auth.profile.emailChanged') };
}

/**
 * With the owner's proof, sets a new password, ends every other session and every reset link,
 * and tells the account by e-mail.
 */
export async function changeMyPassword(ctx: AppContext, reply: FastifyReply, me: AuthUser, input: PasswordChange, lang: Lang) {
  const current = await myRow(ctx, me);
  assertAcceptablePassword(input.password, current.email);
  await assertOwner(ctx, reply, current, input);
  await repo.updateProfile(ctx.db, current.id, { password_hash: await hashPassword(input.password) });
  await revokeTokens(ctx.db, 'reset_password', current.id);
  const revoked = await ctx.tokens.revokeAllSessions(current.id, { except: me.session_id });
  await sendAccountMail(ctx, current.language, current.email, current.full_name, { kind: 'passwordChanged' })
    .catch(() => { /* logged by sendAccountMail; the change stands */ });
  return { message: t(lang, 'auth.profile.passwordChanged'), revoked };
}

/** The language the user's e-mails are written in. */
export async function setMyLanguage(ctx: AppContext, me: AuthUser, language: Lang): Promise<Profile> {
  const profile = await repo.updateProfile(ctx.db, me.profile_id, { language });
  if (!profile) throw new AppError('not_found');
  return toProfile(profile);
}

/** One page of every profile, newest first; `q` searches e-mails and names. */
export async function listProfiles(ctx: AppContext, query: { q?: string | undefined; limit: number; cursor?: string | undefined }): Promise<ProfilePageResponse> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) throw new AppError('cursor_invalid');
  const page = await repo.listProfiles(ctx.db, { q: query.q || undefined, cursor, limit: query.limit });
  return { data: page.data.map((p) => ({ ...toProfile(p), totp_enabled: p.totp_enabled_at !== null })), next_cursor: page.next_cursor };
}

/**
 * An admin changes a role. The admins are locked while the change is decided, so two admins
 * demoting each other at once cannot leave the service without one. The account is then signed
 * out everywhere: a session keeps nothing of the role it was opened under, and a promoted
 * account signs in again, with its second factor, to use its new role.
 */
export async function changeRole(ctx: AppContext, actor: Actor, profileId: string, input: RoleUpdate): Promise<Profile> {
  const { profile, changed } = await ctx.db.transaction(async (tx) => {
    const { adminCount, target } = await repo.lockAdminsAndProfile(tx, profileId);
    if (!target) throw new AppError('not_found');
    if (target.role === input.role) return { profile: toProfile(target), changed: false };
    if (target.role === 'admin' && adminCount <= 1) throw new AppError('last_admin');
    const updated = await repo.writeRole(tx, target, input.role);
    await recordAudit(tx, actor, { action: 'profile.role_update', target: 'profile', id: target.id, before: { role: target.role }, after: { role: input.role } });
    return { profile: toProfile(updated), changed: true };
  });
  if (changed) await ctx.tokens.revokeAllSessions(profileId);
  return profile;
}
