import { z } from 'zod';
import { MessageSchema, isoDateTime } from './common.js';

// Answers of sign-up, sign-in, password reset and sign-out. A session token is sent back as
// `Authorization: Bearer <token>`.

/** A sign-up: the code is on its way to the address, which must be verified before signing in. */
export const RegisteredResponseSchema = MessageSchema.extend({ requiresVerification: z.literal(true) });
export type RegisteredResponse = z.infer<typeof RegisteredResponseSchema>;

/** A new session. */
export const SessionResponseSchema = z.object({ token: z.string() });
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

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
