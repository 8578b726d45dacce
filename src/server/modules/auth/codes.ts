import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { oneTimeCodes } from '../../db/schema.js';
import { randomToken, sha256 } from './tokens.js';

// Single-use secrets (D8), stored only as hashes in one_time_codes:
// - 6-digit codes sent by e-mail (verify_email, change_email, reauth): 10 minutes, 5 tries, a new code
//   replaces the previous one;
// - long random tokens (reset_password links, oauth_ticket): looked up by hash, consumed once.

export const CODE_TTL_MS = 10 * 60_000;
export const MAX_CODE_ATTEMPTS = 5;
export const RESET_TTL_MS = 60 * 60_000;
export const TICKET_TTL_MS = 2 * 60_000;

type CodePurpose = 'verify_email' | 'change_email' | 'reauth';
type TokenPurpose = 'reset_password' | 'oauth_ticket';

/** A code is bound to its purpose and address: the same digits mean nothing elsewhere. */
const hashCode = (purpose: CodePurpose, email: string, code: string) => sha256(`${purpose}:${email.toLowerCase()}:${code}`);

/** A time on the database's clock, the one every expiry is compared with. */
const inMs = (ms: number) => sql<Date>`now() + ${ms} * interval '1 millisecond'`;

const live = () => and(isNull(oneTimeCodes.consumed_at), gt(oneTimeCodes.expires_at, sql`now()`));

/**
 * A fresh 6-digit code for an address; every code still live for the same purpose and profile
 * (or address) dies, so only the newest one works.
 */
export async function issueCode(db: Db, opts: { purpose: CodePurpose; email: string; profileId: string; payload?: unknown }): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const email = opts.email.toLowerCase();
  await db.transaction(async (tx) => {
    await tx.update(oneTimeCodes).set({ consumed_at: sql`now()` })
      .where(and(eq(oneTimeCodes.purpose, opts.purpose), eq(oneTimeCodes.profile_id, opts.profileId), live()));
    await tx.insert(oneTimeCodes).values({
      purpose: opts.purpose, email, profile_id: opts.profileId, code_hash: hashCode(opts.purpose, email, code),
      payload: opts.payload ?? null, expires_at: inMs(CODE_TTL_MS),
    });
  });
  return code;
}

export type CodeCheck =
  | { ok: true; row: typeof oneTimeCodes.$inferSelect }
  | { ok: false; reason: 'invalid' | 'exhausted' };

/**
 * Checks a code against the newest live one for the address. Each try is counted before the
 * comparison (one UPDATE, so concurrent guesses cannot exceed the limit): after five wrong tries
 * the code is dead, and even the right digits fail.
 */
export async function checkCode(db: Db, opts: { purpose: CodePurpose; email: string; code: string; profileId?: string }): Promise<CodeCheck> {
  const email = opts.email.toLowerCase();
  const [row] = await db.select().from(oneTimeCodes)
    .where(and(
      eq(oneTimeCodes.purpose, opts.purpose), eq(sql`lower(${oneTimeCodes.email})`, email), live(),
      opts.profileId ? eq(oneTimeCodes.profile_id, opts.profileId) : undefined,
    ))
    .orderBy(desc(oneTimeCodes.created_at)).limit(1);
  if (!row) return { ok: false, reason: 'invalid' };
  const [reserved] = await db.update(oneTimeCodes).set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(and(eq(oneTimeCodes.id, row.id), lt(oneTimeCodes.attempts, MAX_CODE_ATTEMPTS), live()))
    .returning({ attempts: oneTimeCodes.attempts });
  if (!reserved) return { ok: false, reason: row.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'invalid' };
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = Buffer.from(hashCode(opts.purpose, email, opts.code), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: reserved.attempts >= MAX_CODE_ATTEMPTS ? 'exhausted' : 'invalid' };
  }
  const [consumed] = await db.update(oneTimeCodes).set({ consumed_at: sql`now()` })
    .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.consumed_at))).returning();
  return consumed ? { ok: true, row: consumed } : { ok: false, reason: 'invalid' };
}

/** A long random secret (reset link, OAuth ticket); earlier ones of the same purpose and profile die. */
export async function issueToken(db: Db, opts: { purpose: TokenPurpose; email: string; profileId: string; ttlMs: number; payload?: unknown }): Promise<string> {
  const token = randomToken(32);
  await db.transaction(async (tx) => {
    await tx.update(oneTimeCodes).set({ consumed_at: sql`now()` })
      .where(and(eq(oneTimeCodes.purpose, opts.purpose), eq(oneTimeCodes.profile_id, opts.profileId), live()));
    await tx.insert(oneTimeCodes).values({
      purpose: opts.purpose, email: opts.email.toLowerCase(), profile_id: opts.profileId, code_hash: sha256(token),
      payload: opts.payload ?? null, expires_at: inMs(opts.ttlMs),
    });
  });
  return token;
}

/** Consumes a token once (a single UPDATE: two concurrent uses cannot both succeed); null if unknown, used or expired. */
export async function consumeToken(db: Db, purpose: TokenPurpose, token: string) {
  const [row] = await db.update(oneTimeCodes).set({ consumed_at: sql`now()` })
    .where(and(eq(oneTimeCodes.code_hash, sha256(token)), eq(oneTimeCodes.purpose, purpose), live()))
    .returning();
  return row ?? null;
}

/** A live token without consuming it (to check a request before spending the token on it). */
export async function findLiveToken(db: Db, purpose: TokenPurpose, token: string) {
  const [row] = await db.select().from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.code_hash, sha256(token)), eq(oneTimeCodes.purpose, purpose), live()));
  return row ?? null;
}

/** Kills every live secret of a purpose for a profile (e.g. other reset links once one was used). */
export async function revokeTokens(db: Db, purpose: TokenPurpose | CodePurpose, profileId: string): Promise<void> {
  await db.update(oneTimeCodes).set({ consumed_at: sql`now()` })
    .where(and(eq(oneTimeCodes.purpose, purpose), eq(oneTimeCodes.profile_id, profileId), live()));
}
