import type { Login, Register } from '../../core/schemas';
import { api } from './api';

// The account calls of spec §7 (and D8). Each answers the parsed body; failures throw ApiError
// with the server's message, its field errors and its body (e.g. `requiresVerification`).

export interface RegisterAnswer {
  requiresVerification?: boolean;
  message?: string;
  token?: string;
}
export interface TokenAnswer {
  token: string;
  message?: string;
  /** The account has no password yet (a second sign-up replaced it): a link to choose one was sent. */
  password_required?: boolean;
}
export interface MessageAnswer {
  message: string;
}

/** Spec §4: after a sign-in by code, the success message shows for one second before moving on. */
export const REDIRECT_DELAY_MS = 1000;

const post = <T>(path: string, body: unknown) => api<T>(path, { method: 'POST', body, token: null });

export const authApi = {
  register: (body: Register) => post<RegisterAnswer>('/api/auth/register', body),
  verifyOtp: (email: string, otp: string) => post<TokenAnswer>('/api/auth/verify-otp', { email, otp }),
  resendOtp: (email: string) => post<MessageAnswer>('/api/auth/resend-otp', { email }),
  login: (body: Login) => post<TokenAnswer>('/api/auth/login', body),
  requestReset: (email: string) => post<MessageAnswer>('/api/auth/reset-password', { email }),
  confirmReset: (token: string, password: string) => post<TokenAnswer>('/api/auth/reset-password/confirm', { token, password }),
};

/** True when the server says the account must verify its e-mail first (login of an unverified account). */
export function needsVerification(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { requiresVerification?: unknown }).requiresVerification === true;
}

/** A success text is shown green when it says so (spec §8: contains "successful" or "succès"). */
export function looksSuccessful(message: string): boolean {
  return /successful|succès/i.test(message);
}
