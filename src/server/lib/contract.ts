import type { RouteOptions } from 'fastify';
import type { z } from 'zod';
import { errorBodyOf } from '@core/api/common.js';
import { ERRORS, wireCode, type ErrorCode } from '@core/errors.js';

/** What every route may answer: a request Fastify cannot read (bad JSON, too large), and a failure of ours. */
export const EVERY_ROUTE: readonly ErrorCode[] = ['bad_request', 'internal_error'];

/** The codes each route's `replies` names, read back by `declareErrorCodes` once the route's access is known. */
const OWN_CODES = new WeakMap<object, readonly ErrorCode[]>();

/**
 * A route's response schemas: its successes as given, and its error bodies, whose `code` is one of
 * the refusals it names here or one its declaration implies (declareErrorCodes). Answers are
 * checked against them as they are sent, so a route answering a code it did not declare fails
 * with a 500 in the tests long before a client sees it; the OpenAPI document lists each
 * operation's codes from them.
 */
export function replies<T extends Record<number, z.ZodType>>(ok: T, codes: readonly ErrorCode[] = []) {
  const response = { ...ok, ...errorBodies(codes) };
  OWN_CODES.set(response, codes);
  return response;
}

/** The 4xx and 5xx bodies naming the wire codes of `codes`, each under its status. */
function errorBodies(codes: readonly ErrorCode[]) {
  const wires = (server: boolean) => {
    const listed = [...new Set([...EVERY_ROUTE, ...codes].filter((c) => (ERRORS[c].status >= 500) === server).map(wireCode))];
    return listed.sort() as [string, ...string[]];
  };
  return { '4xx': errorBodyOf(wires(false)), '5xx': errorBodyOf(wires(true)) };
}

/** The refusals a route's declaration answers before its handler runs: its access, its input's schemas, its rate limit. */
export function impliedCodes(route: RouteOptions): ErrorCode[] {
  const { access, signInCode, beforeSecondFactor, rateLimit } = route.config ?? {};
  const codes: ErrorCode[] = [];
  if (access && access !== 'public') {
    codes.push(signInCode ?? 'unauthenticated');
    if (access !== 'user') codes.push('forbidden');
    // A staff session without its second factor is refused on every route but a few (lib/access.ts).
    if (!beforeSecondFactor) codes.push('mfa_required', 'mfa_enrollment_required');
  }
  if (route.schema?.body || route.schema?.querystring || route.schema?.headers) codes.push('validation_failed');
  // A path parameter its schema refuses names no resource (plugins/error-handler.ts).
  if (route.schema?.params) codes.push('not_found');
  if (rateLimit) codes.push('rate_limited');
  return codes;
}

/**
 * The onRoute hook: an API route's error bodies name its own codes and those its declaration
 * implies; a route whose responses were not made by `replies` stops the server at start.
 */
export function declareErrorCodes(route: RouteOptions): void {
  if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs') || route.schema?.hide) return;
  const response = route.schema?.response as object | undefined;
  const own = response && OWN_CODES.get(response);
  if (!own) throw new Error(`${String(route.method)} ${route.url} declares its responses without replies() (lib/contract.ts)`);
  const codes = [...new Set([...own, ...impliedCodes(route)])];
  // Kept as declared too: the HEAD route Fastify adds for a GET comes through here with it.
  route.schema!.response = replies(response as Record<number, z.ZodType>, codes);
}
