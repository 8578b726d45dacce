import { z } from 'zod';
import { MessageSchema, isoDateTime } from './common.js';

// Answers of sign-up, sign-in, password reset and sign-out. A session token is sent back as
// `Authorization: Bearer <token>`.

/** A sign-up: the code is on its way to the address, which must be verified before signing in. */
export const RegisteredResponseSchema = MessageSchema.extend({ requiresVerification: z.literal(true) });
export type RegisteredResponse = z.infer<typeof RegisteredResponseSchema>;

/** A new session. */
const SessionResponseSchema = z.object({ token: z.string() });

/** A new session after a password sign-in, and when it ends at the latest. */
export const SignedInResponseSchema = SessionResponseSchema.extend({ expires_at: isoDateTime() });
export type SignedInResponse = z.infer<typeof SignedInResponseSchema>;

/**
 * A new session with what to tell the user; `password_required` when the account has no password
 * yet (a second sign-up replaced it) and a link to choose one was mailed.
 */
export const SessionWithMessageResponseSchema = SessionResponseSchema.extend({
  message: z.string(),
  password_required: z.boolean().optional(),
});
export type SessionWithMessageResponse = z.infer<typeof SessionWithMessageResponseSchema>;

/** An action that signed sessions out, and how many. */
export const SessionsEndedResponseSchema = MessageSchema.extend({ revoked: z.number().int() });
export type SessionsEndedResponse = z.infer<typeof SessionsEndedResponseSchema>;

/** Provider sign-ins are page navigations: every outcome is a redirect, errors included. */
export const RedirectSchema = z.null().describe('Redirect (Location header): to the provider, back to the app with a single-use ticket, or to /login?error=<code>');

// ---- two-step sign-in (docs/rules/accounts.md#two-step-sign-in) ----

/**
 * The password (or reset link, or provider) was right, but the account has two-step sign-in: no
 * session yet. `mfa_token` (single use, 5 minutes, 5 wrong codes) goes to POST /api/auth/mfa/verify
 * with a code.
 */
const MfaChallengeSchema = z.object({ mfa_required: z.literal(true), mfa_token: z.string() });
export type MfaChallenge = z.infer<typeof MfaChallengeSchema>;

/** POST /api/auth/login: a session, or the code step. */
export const LoginResponseSchema = z.union([SignedInResponseSchema, MfaChallengeSchema]);
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

/** POST /api/auth/exchange: a session, or the code step. */
export const ExchangeResponseSchema = z.union([SessionResponseSchema, MfaChallengeSchema]);
export type ExchangeResponse = z.infer<typeof ExchangeResponseSchema>;

/** POST /api/auth/reset-password/confirm: the password is set; a session, or the code step. */
export const ResetConfirmedResponseSchema = z.union([SessionWithMessageResponseSchema, MfaChallengeSchema.extend({ message: z.string() })]);
export type ResetConfirmedResponse = z.infer<typeof ResetConfirmedResponseSchema>;

/** POST /api/auth/mfa/setup: the new secret, shown once (as text and as a QR code of `otpauth_url`). */
export const MfaSetupResponseSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type MfaSetupResponse = z.infer<typeof MfaSetupResponseSchema>;

/** POST /api/auth/mfa/enable: two-step sign-in is on; the 10 recovery codes, shown this once. */
export const MfaEnabledResponseSchema = MessageSchema.extend({ recovery_codes: z.array(z.string()).length(10) });
export type MfaEnabledResponse = z.infer<typeof MfaEnabledResponseSchema>;
