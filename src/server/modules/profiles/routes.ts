import { z } from 'zod';
import { IdParamsSchema } from '@core/api/common.js';
import { SessionsEndedResponseSchema } from '@core/api/auth.js';
import {
  MyProfileResponseSchema, ProfilePageResponseSchema, ProfileResponseSchema, ProfileSavedResponseSchema,
} from '@core/api/profiles.js';
import { LANGUAGES } from '@core/languages.js';
import {
  CursorQuerySchema, EmailChangeConfirmSchema, PasswordChangeSchema, ProfileUpdateSchema, RoleUpdateSchema,
} from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import { LIMITS, enforceLimits } from '../auth/service.js';
import type { ApiModule } from '../module.js';
import { changeMyPassword, changeRole, confirmEmailChange, getMyProfile, listProfiles, setMyLanguage, updateMyProfile } from './service.js';

const ListQuerySchema = CursorQuerySchema.pick({ cursor: true, limit: true, q: true });
const LanguageSchema = z.object({ language: z.enum(LANGUAGES, { error: 'validation.checkInput' }) });

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/profiles/me', {
    config: { access: 'user', beforeSecondFactor: true },
    schema: { summary: 'The caller\'s own account, its transfer counts and two-step sign-in state', response: replies({ 200: MyProfileResponseSchema }, ['not_found']) },
  }, async (request) => ({ data: await getMyProfile(ctx, requireUser(request)) }));

  app.patch('/profiles/me', {
    config: { access: 'user' },
    schema: { summary: 'Changes the caller\'s own details; a new e-mail address waits for the code sent to it', body: ProfileUpdateSchema, response: replies({ 200: ProfileSavedResponseSchema }, ['country_unknown', 'current_password_required', 'current_password_wrong', 'email_already_registered', 'not_found', 'phone_invalid', 'rate_limited', 'reauth_code_exhausted', 'reauth_code_sent', 'reauth_otp_invalid']) },
  }, async (request, reply) => {
    const me = requireUser(request);
    if (request.body.email !== undefined && request.body.email !== me.email.toLowerCase()) {
      await enforceLimits(ctx, reply, [[LIMITS.emailChangeAccount, me.profile_id]]);
    }
    return updateMyProfile(ctx, reply, me, request.body, request.lang);
  });

  app.put('/profiles/me/password', {
    config: { access: 'user' },
    schema: { summary: 'Changes the caller\'s password and ends the account\'s other sessions', body: PasswordChangeSchema, response: replies({ 200: SessionsEndedResponseSchema }, ['current_password_required', 'current_password_wrong', 'not_found', 'password_common', 'password_contains_email_name', 'rate_limited', 'reauth_code_exhausted', 'reauth_code_sent', 'reauth_otp_invalid']) },
  }, async (request, reply) => changeMyPassword(ctx, reply, requireUser(request), request.body, request.lang));

  app.post('/profiles/me/email/confirm', {
    config: { access: 'user' },
    schema: { summary: 'Confirms a new e-mail address with the code sent to it', body: EmailChangeConfirmSchema, response: replies({ 200: ProfileSavedResponseSchema }, ['code_exhausted', 'email_already_registered', 'not_found', 'otp_invalid', 'rate_limited']) },
  }, async (request, reply) => {
    const me = requireUser(request);
    await enforceLimits(ctx, reply, [[LIMITS.emailChangeAccount, me.profile_id]]);
    return confirmEmailChange(ctx, me, request.body, request.lang);
  });

  app.put('/profiles/me/language', {
    config: { access: 'user', beforeSecondFactor: true },
    schema: { summary: 'Sets the language of the caller\'s e-mails and screens', body: LanguageSchema, response: replies({ 200: ProfileResponseSchema }, ['not_found']) },
  }, async (request) => ({ data: await setMyLanguage(ctx, requireUser(request), request.body.language) }));

  app.get('/profiles', {
    config: { access: 'admin' },
    schema: { summary: 'Every account, searchable, a page at a time (admin)', querystring: ListQuerySchema, response: replies({ 200: ProfilePageResponseSchema }, ['cursor_invalid']) },
  }, async (request) => listProfiles(ctx, request.query));

  app.patch('/profiles/:id', {
    config: { access: 'admin' },
    schema: { summary: 'Changes an account\'s role and ends its sessions (admin)', params: IdParamsSchema, body: RoleUpdateSchema, response: replies({ 200: ProfileResponseSchema }, ['last_admin']) },
  }, async (request) => ({ data: await changeRole(ctx, actorOf(request), request.params.id, request.body) }));
};
export default routes;
