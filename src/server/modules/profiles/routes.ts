import { z } from 'zod';
import {
  CursorQuerySchema, EmailChangeConfirmSchema, PasswordChangeSchema, ProfileUpdateSchema, RoleUpdateSchema,
} from '../../../core/schemas.js';
import { LANGUAGES } from '../../i18n.js';
import { ADMIN, requireRole, requireUser } from '../../lib/guards.js';
import { badRequest } from '../../lib/http-error.js';
import { LIMITS, enforceLimits } from '../auth/limits.js';
import type { ApiModule } from '../module.js';
import { decodeCursor } from '../../lib/cursor.js';
import { listProfiles, serializeProfile } from './repo.js';
import { changeMyPassword, changeRole, confirmEmailChange, getMyProfile, setMyLanguage, updateMyProfile } from './service.js';

const ListQuerySchema = CursorQuerySchema.pick({ cursor: true, limit: true, q: true });
const IdParams = z.object({ id: z.uuid({ error: 'errors.notFound' }) });

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/profiles/me', async (request) => ({ data: await getMyProfile(ctx, requireUser(request)) }));

  app.patch('/profiles/me', {
    // Signed out is 401 before the body is looked at.
    preValidation: async (request) => { requireUser(request); },
    schema: { body: ProfileUpdateSchema },
  }, async (request, reply) => {
    const me = requireUser(request);
    if (request.body.email !== undefined && request.body.email !== me.email.toLowerCase()) {
      await enforceLimits(ctx, reply, [[LIMITS.emailChangeAccount, me.profile_id]]);
    }
    return updateMyProfile(ctx, reply, me, request.body, request.lang);
  });

  app.put('/profiles/me/password', {
    preValidation: async (request) => { requireUser(request); },
    schema: { body: PasswordChangeSchema },
  }, async (request, reply) => changeMyPassword(ctx, reply, requireUser(request), request.body, request.lang));

  app.post('/profiles/me/email/confirm', {
    preValidation: async (request) => { requireUser(request); },
    schema: { body: EmailChangeConfirmSchema },
  }, async (request, reply) => {
    const me = requireUser(request);
    await enforceLimits(ctx, reply, [[LIMITS.emailChangeAccount, me.profile_id]]);
    return confirmEmailChange(ctx, me, request.body, request.lang);
  });

  app.put('/profiles/me/language', {
    preValidation: async (request) => { requireUser(request); },
    schema: { body: z.object({ language: z.enum(LANGUAGES, { error: 'validation.checkInput' }) }) },
  }, async (request) => setMyLanguage(ctx, requireUser(request), request.body.language));

  app.get('/profiles', {
    preValidation: async (request) => { requireRole(request, ADMIN); },
    schema: { querystring: ListQuerySchema },
  }, async (request) => {
    requireRole(request, ADMIN);
    const { q, limit, cursor: raw } = request.query;
    const cursor = raw ? decodeCursor(raw) : null;
    if (raw && !cursor) throw badRequest('validation.cursorInvalid');
    const page = await listProfiles(ctx.db, { q: q || undefined, cursor, limit });
    return { data: page.data.map(serializeProfile), next_cursor: page.next_cursor };
  });

  app.patch('/profiles/:id', {
    preValidation: async (request) => { requireRole(request, ADMIN); },
    schema: { params: IdParams, body: RoleUpdateSchema },
  }, async (request) => ({ data: await changeRole(ctx, requireRole(request, ADMIN), request.params.id, request.body) }));
};
export default routes;
