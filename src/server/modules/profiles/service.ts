import { eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { EmailChangeConfirm, PasswordChange, ProfileUpdate, RoleUpdate } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { auditLog, profiles } from '../../db/schema.js';
import { type Lang, t } from '../../i18n.js';
import { HttpError, badRequest, conflict, notFound } from '../../lib/http-error.js';
import type { AuthUser } from '../auth/tokens.js';
import { CODE_TTL_MS, checkCode, issueCode, revokeTokens } from '../auth/codes.js';
import { hashPassword } from '../auth/password.js';
import { assertAcceptablePassword } from '../auth/password-policy.js';
import { normalizePhone, sendAccountMail } from '../auth/service.js';
import { assertOwner } from './reauth.js';
import { findProfileByEmail, findProfileById, profileStats, serializeProfile } from './repo.js';

// The signed-in user's own profile, and the admin's user management (spec §2, §6; D2, D8).

export async function getMyProfile(ctx: AppContext, me: AuthUser) {
  const profile = await findProfileById(ctx.db, me.profile_id);
  if (!profile) throw notFound();
  // has_password: whether changes are confirmed with the password or with a mailed code (D13).
  return { ...serializeProfile(profile), has_password: profile.password_hash !== null, stats: await profileStats(ctx.db, profile.id) };
}

/**
 * PATCH /api/profiles/me: name and phone change at once. A new e-mail needs the owner's proof
 * (D13) and takes effect only once it confirms a code sent to it (D8): the answer then says
 * where the code went (`pending_email`).
 */
export async function updateMyProfile(ctx: AppContext, reply: FastifyReply, me: AuthUser, input: ProfileUpdate, lang: Lang) {
  const current = await findProfileById(ctx.db, me.profile_id);
  if (!current) throw notFound();
  const changes: Partial<typeof profiles.$inferInsert> = {};
  if (input.full_name !== undefined) changes.full_name = input.full_name;
  if (input.phone !== undefined) changes.phone = normalizePhone(input.phone, lang);
  const newEmail = input.email !== undefined && input.email !== current.email.toLowerCase() ? input.email : null;
  if (newEmail) {
    await assertOwner(ctx, reply, current, input, lang);
    const taken = await findProfileByEmail(ctx.db, newEmail);
    if (taken) throw conflict('validation.emailAlreadyRegistered');
  }
  let profile = current;
  if (Object.keys(changes).length > 0) {
    [profile = current] = await ctx.db.update(profiles).set({ ...changes, updated_at: sql`now()` }).where(eq(profiles.id, current.id)).returning();
  }
  if (!newEmail) return { data: serializeProfile(profile), message: t(lang, 'auth.profile.saved') };
  const code = await issueCode(ctx.db, { purpose: 'change_email', email: newEmail, profileId: profile.id });
  await sendAccountMail(ctx, profile.language, newEmail, profile.full_name, { kind: 'changeEmail', code, minutes: CODE_TTL_MS / 60_000 });
  return { data: serializeProfile(profile), pending_email: newEmail, message: t(lang, 'auth.profile.emailCodeSent', { email: newEmail }) };
}

/** POST /api/profiles/me/email/confirm: the code sent to the new address makes it the profile's e-mail. */
export async function confirmEmailChange(ctx: AppContext, me: AuthUser, input: EmailChangeConfirm, lang: Lang) {
  const check = await checkCode(ctx.db, { purpose: 'change_email', email: input.email, code: input.otp, profileId: me.profile_id });
  if (!check.ok) throw badRequest(check.reason === 'exhausted' ? 'auth.errors.codeExhausted' : 'validation.otpInvalid');
  const before = await findProfileById(ctx.db, me.profile_id);
  if (!before) throw notFound();
  let profile;
  try {
    [profile] = await ctx.db.update(profiles).set({ email: input.email, email_verified_at: sql`now()`, updated_at: sql`now()` })
      .where(eq(profiles.id, me.profile_id)).returning();
  } catch (err) {
    // Someone registered the address in the meantime (unique e-mail index).
    if ((err as { code?: string }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505') {
      throw conflict('validation.emailAlreadyRegistered');
    }
    throw err;
  }
  if (!profile) throw notFound();
  // The old address hears of the change, in case it was not its owner's doing.
  await sendAccountMail(ctx, profile.language, before.email, profile.full_name, { kind: 'emailChanged', newEmail: profile.email })
    .catch(() => { /* logged by sendAccountMail; the change stands */ });
  return { data: serializeProfile(profile), message: t(lang, 'auth.profile.emailChanged') };
}

/**
 * PUT /api/profiles/me/password: with the owner's proof (D13), sets a new password (D13's rules),
 * ends every other session and every reset link, and tells the account by e-mail.
 */
export async function changeMyPassword(ctx: AppContext, reply: FastifyReply, me: AuthUser, input: PasswordChange, lang: Lang) {
  const current = await findProfileById(ctx.db, me.profile_id);
  if (!current) throw notFound();
  assertAcceptablePassword(input.password, current.email, lang);
  await assertOwner(ctx, reply, current, input, lang);
  const password_hash = await hashPassword(input.password);
  await ctx.db.update(profiles).set({ password_hash, updated_at: sql`now()` }).where(eq(profiles.id, current.id));
  await revokeTokens(ctx.db, 'reset_password', current.id);
  const revoked = await ctx.tokens.revokeAllSessions(current.id, { except: me.session_id });
  await sendAccountMail(ctx, current.language, current.email, current.full_name, { kind: 'passwordChanged' })
    .catch(() => { /* logged by sendAccountMail; the change stands */ });
  return { message: t(lang, 'auth.profile.passwordChanged'), revoked };
}

/** PUT /api/profiles/me/language: the language the user's e-mails are written in. */
export async function setMyLanguage(ctx: AppContext, me: AuthUser, language: Lang) {
  const [profile] = await ctx.db.update(profiles).set({ language, updated_at: sql`now()` }).where(eq(profiles.id, me.profile_id)).returning();
  if (!profile) throw notFound();
  return { data: serializeProfile(profile) };
}

/**
 * PATCH /api/profiles/:id { role } (admin only). The admins are locked while the change is
 * decided, so two admins demoting each other at once cannot leave the service without one.
 * Each change is written to the audit log with its actor, before and after.
 */
export async function changeRole(ctx: AppContext, actor: AuthUser, profileId: string, input: RoleUpdate) {
  return ctx.db.transaction(async (tx) => {
    const admins = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.role, 'admin')).for('update');
    const [target] = await tx.select().from(profiles).where(eq(profiles.id, profileId)).for('update');
    if (!target) throw notFound();
    if (target.role === input.role) return serializeProfile(target);
    if (target.role === 'admin' && admins.length <= 1) throw new HttpError(409, 'auth.errors.lastAdmin');
    const [updated] = await tx.update(profiles).set({ role: input.role, updated_at: sql`now()` }).where(eq(profiles.id, profileId)).returning();
    await tx.insert(auditLog).values({
      actor_profile_id: actor.profile_id, action: 'profile.role_update', target_type: 'profile', target_id: profileId,
      before: { role: target.role }, after: { role: input.role },
    });
    return serializeProfile(updated!);
  });
}
