import { MfaEnabledResponseSchema, MfaSetupResponseSchema, SignedInResponseSchema } from '@core/api/auth.js';
import { IdParamsSchema, MessageSchema } from '@core/api/common.js';
import { MfaDisableSchema, MfaEnableSchema, MfaSetupSchema, MfaVerifySchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { clientAddress } from './limits.js';
import { disable, enable, resetFor, setUp, verifySignIn } from './mfa.js';

// Two-step sign-in (docs/rules/accounts.md#two-step-sign-in). Setup, enable and disable are open
// to any signed-in account; a staff session without the second factor reaches setup and enable
// and nothing but its own account besides (lib/access.ts). Setup first asks for the owner's proof (current password or mailed
// code, as an e-mail or password change does); disable asks for a code of the app.

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/auth/mfa/verify', {
    config: { access: 'public' },
    schema: { summary: 'Finishes a sign-in with the second factor\'s code', body: MfaVerifySchema, response: replies({ 200: SignedInResponseSchema }, ['mfa_code_invalid', 'mfa_token_exhausted', 'mfa_token_invalid', 'rate_limited']) },
  }, async (request, reply) => verifySignIn(ctx, reply, request.body, { ip: clientAddress(request), userAgent: request.headers['user-agent'] }));

  app.post('/auth/mfa/setup', {
    config: { access: 'user', beforeSecondFactor: true },
    schema: { summary: 'Starts setting up two-step sign-in: a new secret and its otpauth:// link for an authenticator app', body: MfaSetupSchema, response: replies({ 200: MfaSetupResponseSchema }, ['current_password_required', 'current_password_wrong', 'mfa_already_on', 'not_found', 'rate_limited', 'reauth_code_exhausted', 'reauth_code_sent', 'reauth_otp_invalid']) },
  }, async (request, reply) => setUp(ctx, reply, requireUser(request), request.body));

  app.post('/auth/mfa/enable', {
    config: { access: 'user', beforeSecondFactor: true },
    schema: { summary: 'Turns two-step sign-in on with a first code, and gives the recovery codes', body: MfaEnableSchema, response: replies({ 200: MfaEnabledResponseSchema }, ['mfa_already_on', 'mfa_code_invalid', 'mfa_setup_first', 'not_found', 'rate_limited']) },
  }, async (request, reply) => enable(ctx, reply, requireUser(request), request.body.code, clientAddress(request), request.lang));

  app.post('/auth/mfa/disable', {
    config: { access: 'user' },
    schema: { summary: 'Turns the caller\'s two-step sign-in off', body: MfaDisableSchema, response: replies({ 200: MessageSchema }, ['mfa_code_invalid', 'mfa_not_on', 'mfa_staff_keeps_it', 'not_found', 'rate_limited']) },
  }, async (request, reply) => disable(ctx, reply, requireUser(request), request.body.code, clientAddress(request), request.lang));

  app.post('/admin/users/:id/mfa/reset', {
    config: { access: 'admin' },
    schema: { summary: 'Resets an account\'s two-step sign-in and ends its sessions (admin)', params: IdParamsSchema, response: replies({ 200: MessageSchema }, ['mfa_reset_self']) },
  }, async (request) => resetFor(ctx, actorOf(request), request.params.id, request.lang));
};
export default routes;
