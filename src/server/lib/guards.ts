import type { FastifyRequest } from 'fastify';
import type { Role } from '../../core/status.js';
import type { AuthUser } from '../modules/auth/tokens.js';
import { forbidden, unauthorized } from './http-error.js';

/** The signed-in caller, or 401. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** The signed-in caller holding one of the roles, else 401 (signed out) or 403. */
export function requireRole(request: FastifyRequest, roles: readonly Role[]): AuthUser {
  const user = requireUser(request);
  if (!roles.includes(user.role)) throw forbidden();
  return user;
}

export const STAFF: readonly Role[] = ['admin', 'manager'];
export const ADMIN: readonly Role[] = ['admin'];
