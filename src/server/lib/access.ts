import type { FastifyRequest } from 'fastify';
import { isStaff } from '@core/status.js';
import { AppError, type ErrorCode } from '@core/errors.js';

/**
 * Who may call a route, declared once on the route (`config: { access }`) and enforced by one
 * hook before the body is read: signed out is 401 and the wrong role 403, whatever the body holds.
 */
export type Access = 'public' | 'user' | 'staff' | 'admin';
const ACCESS_LEVELS: readonly Access[] = ['public', 'user', 'staff', 'admin'];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The 401's code when a route words "sign in" its own way. */
    signInCode?: ErrorCode;
    /**
     * Open to a staff session without its second factor: the caller's own account and the steps
     * to get that factor (docs/rules/accounts.md#two-step-sign-in). Every other route refuses it.
     */
    beforeSecondFactor?: true;
  }
}

const ROLES_OF: Record<Exclude<Access, 'public' | 'user'>, readonly string[]> = {
  staff: ['admin', 'manager'],
  admin: ['admin'],
};

/**
 * The onRequest check: the route's declared access against the caller's session; the refusal, or
 * null to go on. A staff session opened without the second factor is refused everywhere but its
 * own account's first steps, whatever the route's access: a route open to "any signed-in user"
 * may answer staff more than it answers a sender (the whole queue, another sender's transfer), and
 * refusing by default means no such route can forget to ask for the factor.
 */
export function accessRefusal(request: FastifyRequest): Error | null {
  const { access, signInCode, beforeSecondFactor } = request.routeOptions.config;
  if (!access || access === 'public') return null;
  const auth = request.auth;
  if (!auth) return new AppError(signInCode ?? 'unauthenticated');
  if (access !== 'user' && !ROLES_OF[access].includes(auth.role)) return new AppError('forbidden');
  if (isStaff(auth.role) && !auth.mfa_verified && !beforeSecondFactor) return mfaRefusal(auth.totp_enabled);
  return null;
}

/**
 * A staff session not opened with a second factor (docs/rules/accounts.md#two-step-sign-in): 403
 * `mfa_enrollment_required` until the account enrols, `mfa_required` when it has and this session
 * did not give a code (one opened before enrolling elsewhere).
 */
function mfaRefusal(enrolled: boolean): AppError {
  return new AppError(enrolled ? 'mfa_required' : 'mfa_enrollment_required');
}

/**
 * The onRoute hook: an API route that forgets its access, its response schema or its summary stops
 * the server at start, so no endpoint is ever open by omission, missing from the written contract
 * or left unexplained in it.
 */
export function assertDeclared(route: {
  url: string; method: string | string[]; config?: { access?: Access }; schema?: { response?: unknown; summary?: string };
}): void {
  if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
  const name = `${String(route.method)} ${route.url}`;
  if (!route.config?.access || !ACCESS_LEVELS.includes(route.config.access)) throw new Error(`${name} declares no access`);
  if (!route.schema?.response) throw new Error(`${name} declares no response schema`);
  if (!route.schema.summary?.trim()) throw new Error(`${name} declares no summary`);
}
