import type { FastifyRequest } from 'fastify';
import type { Actor } from '../modules/audit/service.js';
import type { AuthUser } from '../modules/auth/tokens.js';
import { AppError } from '@core/errors.js';

/**
 * The signed-in caller, typed, inside a handler. Who may call a route is its declared `access`
 * (lib/access.ts), checked before the handler runs; the 401 here only guards a route declared public.
 */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.auth) throw new AppError('unauthenticated');
  return request.auth;
}

/** The signed-in staff member as the audit log records them: with the client's address. */
export function actorOf(request: FastifyRequest): Actor {
  const user = requireUser(request);
  return { profile_id: user.profile_id, role: user.role, ip: request.ip || null };
}
