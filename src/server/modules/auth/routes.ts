import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ExchangeResponseSchema, LoginResponseSchema, RedirectSchema, RegisteredResponseSchema, ResetConfirmedResponseSchema,
  SessionWithMessageResponseSchema, SessionsEndedResponseSchema,
} from '@core/api/auth.js';
import { MessageSchema } from '@core/api/common.js';
import {
  LoginSchema, RegisterSchema, ResendOtpSchema, ResetPasswordConfirmSchema, ResetPasswordRequestSchema, TicketExchangeSchema,
  VerifyOtpSchema,
} from '@core/schemas.js';
import { t } from '@server/i18n.js';
import { forRequest } from '@server/context.js';
import { replies } from '@server/lib/contract.js';
import { AppError } from '@core/errors.js';
import { requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { LIMITS, clientAddress, enforceLimits } from './limits.js';
import { assertLoginAllowed, recordLoginFailure } from './login-throttle.js';
import {
  GoogleClient, OAuthError, PROVIDERS, STATE_TTL_MS, finishSignIn, needsMailConfirmation, profileForIdentity, startSignIn,
} from './oauth.js';
import { browserHash, clearBrowserBinding, newBrowserBinding } from './oauth-browser.js';
import { PROVIDER_NAMES, confirmSignIn, requestConfirmation } from './oauth-confirm.js';
import {
  type ClientInfo, type ProfileRow, confirmPasswordReset, exchangeTicket, issueSignInTicket, login, register, requestPasswordReset, resendCode,
  verifyEmail,
} from './service.js';

/** What a provider sends back: the code and state, or the error; anything else it adds is passed on, bounded. */
const param = () => z.string().max(4096).optional();
const CallbackQuery = z.object({ code: param(), state: param(), error: param() }).catchall(z.string().max(4096));

const client = (request: FastifyRequest): ClientInfo => ({ ip: clientAddress(request), userAgent: request.headers['user-agent'] });

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/auth/register', {
    config: { access: 'public' },
    schema: { summary: 'Creates an account and e-mails a 6-digit code to confirm its address', body: RegisterSchema, response: replies({ 200: RegisteredResponseSchema }, ['country_unknown', 'email_already_registered', 'password_common', 'password_contains_email_name', 'phone_invalid', 'rate_limited']) },
  }, async (request, reply) => {
    const ip = clientAddress(request);
    await enforceLimits(ctx, reply, [[LIMITS.registerAccount, request.body.email], [LIMITS.registerAddress, ip]]);
    return register(forRequest(ctx, request), request.body, request.lang);
  });

  app.post('/auth/verify-otp', {
    config: { access: 'public' },
    schema: { summary: 'Confirms a new account\'s address with the e-mailed code and signs it in', body: VerifyOtpSchema, response: replies({ 200: SessionWithMessageResponseSchema }, ['code_exhausted', 'otp_invalid', 'rate_limited']) },
  }, async (request, reply) => {
    await enforceLimits(ctx, reply, [[LIMITS.verifyAccount, request.body.email], [LIMITS.verifyAddress, clientAddress(request)]]);
    return verifyEmail(ctx, request.body, client(request), request.lang);
  });

  app.post('/auth/resend-otp', {
    config: { access: 'public' },
    schema: { summary: 'E-mails a new confirmation code to an account not yet confirmed', body: ResendOtpSchema, response: replies({ 200: MessageSchema }, ['rate_limited']) },
  }, async (request, reply) => {
    await enforceLimits(ctx, reply, [[LIMITS.resendAccount, request.body.email], [LIMITS.resendAddress, clientAddress(request)]]);
    return resendCode(forRequest(ctx, request), request.body.email, request.lang);
  });

  app.post('/auth/login', {
    config: { access: 'public' },
    schema: { summary: 'Signs in with e-mail and password; a staff account with two-step sign-in is then asked for its code', body: LoginSchema, response: replies({ 200: LoginResponseSchema }, ['invalid_credentials', 'rate_limited', 'unverified']) },
  }, async (request, reply) => {
    const ip = clientAddress(request);
    await assertLoginAllowed(ctx, reply, request.body.email, ip);
    try {
      return await login(ctx, request.body, client(request));
    } catch (err) {
      if (err instanceof AppError && err.status === 401) await recordLoginFailure(forRequest(ctx, request), request.body.email, ip);
      throw err;
    }
  });

  app.post('/auth/logout', {
    config: { access: 'user', beforeSecondFactor: true },
    schema: { summary: 'Signs this session out', response: replies({ 200: MessageSchema }) },
  }, async (request) => {
    const user = requireUser(request);
    await ctx.tokens.revokeSession(user.session_id);
    return { message: t(request.lang, 'auth.logout.done') };
  });

  // "Sign out everywhere" (docs/rules/accounts.md#sessions): every other session of the account
  // ends, the caller's stays (as after a password change); `revoked` counts the others.
  app.post('/auth/logout-all', {
    config: { access: 'user', beforeSecondFactor: true },
    schema: { summary: 'Signs out every other session of the caller\'s account; this one stays signed in', response: replies({ 200: SessionsEndedResponseSchema }) },
  }, async (request) => {
    const user = requireUser(request);
    const revoked = await ctx.tokens.revokeAllSessions(user.profile_id, { except: user.session_id });
    return { message: t(request.lang, 'auth.logout.everywhere'), revoked };
  });

  app.post('/auth/reset-password', {
    config: { access: 'public' },
    schema: { summary: 'E-mails a password reset link, if the address has an account', body: ResetPasswordRequestSchema, response: replies({ 200: MessageSchema }, ['rate_limited']) },
  }, async (request, reply) => {
    await enforceLimits(ctx, reply, [[LIMITS.resetAccount, request.body.email], [LIMITS.resetAddress, clientAddress(request)]]);
    return requestPasswordReset(forRequest(ctx, request), request.body.email, request.lang);
  });

  app.post('/auth/reset-password/confirm', {
    config: { access: 'public' },
    schema: { summary: 'Sets a new password with the reset link\'s token', body: ResetPasswordConfirmSchema, response: replies({ 200: ResetConfirmedResponseSchema }, ['password_common', 'password_contains_email_name', 'rate_limited', 'reset_link_invalid']) },
  }, async (request, reply) => {
    await enforceLimits(ctx, reply, [[LIMITS.secretAddress, clientAddress(request)]]);
    return confirmPasswordReset(ctx, request.body, client(request), request.lang);
  });

  app.post('/auth/exchange', {
    config: { access: 'public' },
    schema: { summary: 'Trades the single-use ticket of a Google or Facebook sign-in for a session', body: TicketExchangeSchema, response: replies({ 200: ExchangeResponseSchema }, ['rate_limited', 'ticket_required']) },
  }, async (request, reply) => {
    await enforceLimits(ctx, reply, [[LIMITS.secretAddress, clientAddress(request)]]);
    return exchangeTicket(ctx, request.body.ticket, client(request));
  });

  // OAuth: full-page navigations. Every outcome is a redirect: to the provider, back to the app
  // with a single-use ticket, or to /login with the reason.
  const google = new GoogleClient(ctx.config);
  const toLogin = (provider: string, code: string) => `/login?${new URLSearchParams({ error: code, provider })}`;
  const signedIn = async (reply: FastifyReply, profile: ProfileRow) =>
    reply.redirect(`/?${new URLSearchParams({ token: await issueSignInTicket(ctx, profile) })}`);
  const failed = (reply: FastifyReply, provider: string, err: unknown) => {
    if (err instanceof OAuthError) return reply.redirect(toLogin(provider, err.code));
    if (err instanceof AppError) return reply.redirect(toLogin(provider, err.code === 'rate_limited' ? 'oauth_rate_limited' : 'oauth_failed'));
    throw err;
  };
  for (const provider of PROVIDERS) {
    app.get(`/auth/${provider}`, {
      config: { access: 'public' },
      schema: { summary: `Starts signing in with ${PROVIDER_NAMES[provider]}: redirects to the provider`, response: replies({ 302: RedirectSchema }) },
    }, async (request, reply) => {
      try {
        // Each start writes a row: limited per address, the refusal said on the login page.
        await enforceLimits(ctx, reply, [[LIMITS.oauthStartAddress, clientAddress(request)]]);
        const binding = newBrowserBinding(ctx.config, provider, STATE_TTL_MS);
        const url = await startSignIn(forRequest(ctx, request), google, provider, binding.hash);
        return reply.header('set-cookie', binding.cookie).redirect(url);
      } catch (err) {
        return failed(reply, provider, err);
      }
    });

    app.get(`/auth/${provider}/callback`, {
      config: { access: 'public' },
      schema: { summary: `${PROVIDER_NAMES[provider]} returns here: redirects to the app signed in, or to the sign-in page with the reason`, querystring: CallbackQuery, response: replies({ 302: RedirectSchema }) },
    }, async (request, reply) => {
      clearBrowserBinding(reply, ctx.config, provider);
      try {
        const identity = await finishSignIn(forRequest(ctx, request), google, provider, request.query, browserHash(request, provider));
        if (identity.email && await needsMailConfirmation(ctx, provider, identity)) {
          await requestConfirmation(forRequest(ctx, request), reply, provider, { ...identity, email: identity.email }, request.lang);
          return reply.redirect(toLogin(provider, 'oauth_confirm_email'));
        }
        return await signedIn(reply, await profileForIdentity(ctx, provider, identity, request.lang));
      } catch (err) {
        return failed(reply, provider, err);
      }
    });

    // The link mailed by requestConfirmation.
    app.get(`/auth/${provider}/confirm`, {
      config: { access: 'public' },
      schema: { summary: `The e-mailed link that confirms a ${PROVIDER_NAMES[provider]} sign-in's address: redirects to the app signed in`, querystring: z.object({ token: z.string().min(1).max(200) }), response: replies({ 302: RedirectSchema }) },
    }, async (request, reply) => {
      try {
        await enforceLimits(ctx, reply, [[LIMITS.secretAddress, clientAddress(request)]]);
        return await signedIn(reply, await confirmSignIn(ctx, request, reply, provider, request.query.token));
      } catch (err) {
        return failed(reply, provider, err);
      }
    });
  }
};
export default routes;
