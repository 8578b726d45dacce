import type {
  ExchangeResponse, LoginResponse, MfaChallenge, MfaEnabledResponse, MfaSetupResponse, RegisteredResponse, ResetConfirmedResponse, SessionWithMessageResponse,
  SignedInResponse,
} from '@core/api/auth';
import type { MessageBody } from '@core/api/common';
import type { Login, MfaSetup, Register } from '@core/schemas';
import { api } from './api';

// The account calls. Each answers the parsed body; failures throw ApiError with the server's
// message, its field errors and its body (e.g. `requiresVerification`).

/** After a sign-in by code, the success message shows for one second before moving on. */
export const REDIRECT_DELAY_MS = 1000;

const post = <T>(path: string, body: unknown) => api<T>(path, { method: 'POST', body, token: null });

export const authApi = {
  register: (body: Register) => post<RegisteredResponse>('/api/auth/register', body),
  verifyOtp: (email: string, otp: string) => post<SessionWithMessageResponse>('/api/auth/verify-otp', { email, otp }),
  resendOtp: (email: string) => post<MessageBody>('/api/auth/resend-otp', { email }),
  login: (body: Login) => post<LoginResponse>('/api/auth/login', body),
  /** The code step of a sign-in (two-step sign-in): the token the password step gave, and a code. */
  verifyMfa: (mfaToken: string, code: string) => post<SignedInResponse>('/api/auth/mfa/verify', { mfa_token: mfaToken, code }),
  requestReset: (email: string) => post<MessageBody>('/api/auth/reset-password', { email }),
  confirmReset: (token: string, password: string) => post<ResetConfirmedResponse>('/api/auth/reset-password/confirm', { token, password }),
  /** The single-use ticket of an OAuth landing, for a session (or the code step of two-step sign-in). */
  exchangeTicket: (ticket: string) => post<ExchangeResponse>('/api/auth/exchange', { ticket }),
};

/**
 * True when a sign-in answer asks for the code step (two-step sign-in). Here, not beside the
 * schemas: the OAuth landing's ticket exchange uses it without loading zod.
 */
export const isMfaChallenge = (body: object): body is MfaChallenge => 'mfa_required' in body && body.mfa_required === true;

/** Two-step sign-in of the signed-in account (docs/rules/accounts.md#two-step-sign-in). */
export const mfaApi = {
  /** A new secret, once the owner is proven (current password, or the code mailed to the current address). */
  setUp: (proof: MfaSetup) => api<MfaSetupResponse>('/api/auth/mfa/setup', { method: 'POST', body: proof }),
  enable: (code: string) => api<MfaEnabledResponse>('/api/auth/mfa/enable', { method: 'POST', body: { code } }),
  disable: (code: string) => api<MessageBody>('/api/auth/mfa/disable', { method: 'POST', body: { code } }),
};

/** True when the server says the account must verify its e-mail first (login of an unverified account). */
export function needsVerification(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { requiresVerification?: unknown }).requiresVerification === true;
}

/** A success text is shown green when it says so (it contains "successful" or "succès"). */
export function looksSuccessful(message: string): boolean {
  return /successful|succès/i.test(message);
}
