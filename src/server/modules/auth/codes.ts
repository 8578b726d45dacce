import { randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '@server/db/client.js';
import * as repo from './repo.js';
import { randomToken, sha256 } from './tokens.js';

// Single-use secrets, stored only as hashes (docs/rules/accounts.md):
// - 6-digit codes sent by e-mail (verify_email, change_email, reauth): 10 minutes, 5 tries, a new code
//   replaces the previous one;
// - long random tokens (reset_password links, oauth_ticket, the mfa_login step of a sign-in): looked
//   up by hash, consumed once.

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
export const RESET_TTL_MS = 60 * 60_000;
export const TICKET_TTL_MS = 2 * 60_000;

type CodePurpose = 'verify_email' | 'change_email' | 'reauth';
type TokenPurpose = 'reset_password' | 'oauth_ticket' | 'mfa_login';

/** A code is bound to its purpose and address: the same digits mean nothing elsewhere. */
const hashCode = (purpose: CodePurpose, email: string, code: string) => sha256(`${purpose}:${email.toLowerCase()}:${code}`);

/** Stores a secret; every one still live for the same purpose and profile dies, so only the newest works. */
async function replaceSecret(db: Db, secret: repo.NewSecret & { profileId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await repo.revokeLiveSecrets(tx, secret.purpose, secret.profileId);
    await repo.insertSecret(tx, secret);
  });
}

/** A fresh 6-digit code for an address, replacing the profile's previous one of that purpose. */
export async function issueCode(db: Db, opts: { purpose: CodePurpose; email: string; profileId: string; payload?: unknown }): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const email = opts.email.toLowerCase();
  await replaceSecret(db, { ...opts, email, hash: hashCode(opts.purpose, email, code), ttlMs: CODE_TTL_MS });
  return code;
}

export type CodeCheck =
  | { ok: true; row: repo.SecretRow }
  | { ok: false; reason: 'invalid' | 'exhausted' };

/**
 * Checks a code against the newest live one for the address. Each try is counted before the
 * comparison: after five wrong tries the code is dead, and even the right digits fail.
 */
export async function checkCode(db: Db, opts: { purpose: CodePurpose; email: string; code: string; profileId?: string }): Promise<CodeCheck> {
  const email = opts.email.toLowerCase();
  const row = await repo.newestLiveCode(db, opts.purpose, email, opts.profileId);
  if (!row) return { ok: false, reason: 'invalid' };
  const attempts = await repo.countTry(db, row.id, MAX_CODE_ATTEMPTS);
  if (attempts === null) return { ok: false, reason: row.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'invalid' };
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = Buffer.from(hashCode(opts.purpose, email, opts.code), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'invalid' };
  }
  const consumed = await repo.consumeSecret(db, row.id);
  return consumed ? { ok: true, row: consumed } : { ok: false, reason: 'invalid' };
}

/** A long random secret (reset link, OAuth ticket); earlier ones of the same purpose and profile die. */
export async function issueToken(db: Db, opts: { purpose: TokenPurpose; email: string; profileId: string; ttlMs: number; payload?: unknown }): Promise<string> {
  const token = randomToken(32);
  await replaceSecret(db, { ...opts, email: opts.email.toLowerCase(), hash: sha256(token) });
  return token;
}

/** Consumes a token once; null if unknown, used or expired. */
export const consumeToken = (db: Db, purpose: TokenPurpose, token: string) => repo.consumeByHash(db, purpose, sha256(token));

/** A live token without consuming it (to check a request before spending the token on it). */
export const findLiveToken = (db: Db, purpose: TokenPurpose, token: string) => repo.findLiveByHash(db, purpose, sha256(token));

/** Kills every live secret of a purpose for a profile (e.g. other reset links once one was used). */
export async function revokeTokens(db: Db, purpose: TokenPurpose | CodePurpose, profileId: string): Promise<void> {
  await repo.revokeLiveSecrets(db, purpose, profileId);
}

/** Counts one try at a live secret found by `findLiveToken`; null once it is dead or had its last try. */
export const countTokenTry = (db: Db, id: string) => repo.countTry(db, id, MAX_CODE_ATTEMPTS);

/** Consumes a live secret found by `findLiveToken`, by its row; null if it died meanwhile. */
export const consumeTokenRow = (db: Db, id: string) => repo.consumeSecret(db, id);
