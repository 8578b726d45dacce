import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@server/config.js';
import { readCookie, serializeCookie } from '@server/lib/cookies.js';
import { randomToken, sha256 } from './tokens.js';

// An OAuth flow belongs to the browser that started it: a random secret in an HttpOnly cookie,
// its hash kept with the flow. Without it, a victim opening an attacker's callback URL would be
// signed into the attacker's account (login CSRF). A flow is a provider's sign-in, or the mailed
// confirmation that may follow it; each has its own cookie.

const COOKIE_PATH = '/api/auth';
const cookieName = (flow: string) => `oauth_${flow}`;
const secure = (config: Config) => config.publicUrl.startsWith('https:');

/** A new flow's binding: the Set-Cookie for the browser and the hash to keep with the flow. */
export function newBrowserBinding(config: Config, flow: string, ttlMs: number): { cookie: string; hash: string } {
  const secret = randomToken(32);
  const cookie = serializeCookie(cookieName(flow), secret, { path: COOKIE_PATH, maxAgeSeconds: Math.floor(ttlMs / 1000), secure: secure(config) });
  return { cookie, hash: sha256(secret) };
}

/** The hash of this browser's secret, if it has one. */
export const browserHash = (request: FastifyRequest, flow: string): string | null => {
  const secret = readCookie(request.headers.cookie, cookieName(flow));
  return secret ? sha256(secret) : null;
};

/** Whether the browser's hash is the one kept with the flow (compared in constant time). */
export function sameBrowser(given: string | null, expected: string): boolean {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** The secret is used once: the callback clears it whatever the outcome. */
export function clearBrowserBinding(reply: FastifyReply, config: Config, flow: string): void {
  reply.header('set-cookie', serializeCookie(cookieName(flow), '', { path: COOKIE_PATH, maxAgeSeconds: 0, secure: secure(config) }));
}
