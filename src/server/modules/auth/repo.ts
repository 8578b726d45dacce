import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase } from '@server/db/prepared.js';
import { batched } from '@server/lib/batches.js';
import { identities, oauthStates, oneTimeCodes, profiles, sessions } from '@server/db/schema.js';

// The SQL of signing up and in: accounts looked up by address, their credentials, sessions,
// single-use secrets (stored only as hashes), provider sign-ins in flight and linked identities.

export type ProfileRow = typeof profiles.$inferSelect;
export type SecretRow = typeof oneTimeCodes.$inferSelect;
export type SecretPurpose = SecretRow['purpose'];
export type OAuthStateRow = typeof oauthStates.$inferSelect;
type Provider = OAuthStateRow['provider'];

// ---- accounts ----

const byEmail = (email: string) => eq(sql`lower(${profiles.email})`, email.toLowerCase());

export async function findProfileByEmail(db: Db | Tx, email: string): Promise<ProfileRow | null> {
  const [row] = await db.select().from(profiles).where(byEmail(email));
  return row ?? null;
}

const profileById = preparedPerDatabase((db) => db.select().from(profiles).where(eq(profiles.id, sql.placeholder('id'))).prepare('profile_by_id'));

export async function findProfileById(db: Db, id: string): Promise<ProfileRow | null> {
  const [row] = await profileById(db).execute({ id });
  return row ?? null;
}

export async function anyAdmin(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.role, 'admin')).limit(1);
  return row !== undefined;
}

export type NewProfile = typeof profiles.$inferInsert;

/** A new account; null when its address is taken meanwhile. */
export async function insertProfile(db: Db | Tx, values: NewProfile): Promise<ProfileRow | null> {
  const [row] = await db.insert(profiles).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/** Rewrites an account's details only while its address is still unverified; null once verified. */
export async function retakeUnverified(db: Db, id: string, details: Partial<NewProfile>): Promise<ProfileRow | null> {
  const [row] = await db.update(profiles).set(details)
    .where(and(eq(profiles.id, id), isNull(profiles.email_verified_at))).returning();
  return row ?? null;
}

export async function markEmailVerified(db: Db | Tx, id: string, changes: Partial<NewProfile> = {}): Promise<ProfileRow | null> {
  const [row] = await db.update(profiles).set({ ...changes, email_verified_at: sql`coalesce(${profiles.email_verified_at}, now())` })
    .where(eq(profiles.id, id)).returning();
  return row ?? null;
}

/** Sets the password of the account still holding `email` (a link mailed to an address it left is void). */
export async function setPasswordAtAddress(db: Db, id: string, email: string, passwordHash: string): Promise<ProfileRow | null> {
  const [row] = await db.update(profiles)
    .set({ password_hash: passwordHash, email_verified_at: sql`coalesce(${profiles.email_verified_at}, now())` })
    .where(and(eq(profiles.id, id), byEmail(email))).returning();
  return row ?? null;
}

export async function updateProfile(db: Db, id: string, changes: Partial<NewProfile>): Promise<void> {
  await db.update(profiles).set(changes).where(eq(profiles.id, id));
}

// ---- single-use secrets ----

/** A time on the database's clock, the one every expiry is compared with. */
const inMs = (ms: number) => sql<Date>`now() + ${ms} * interval '1 millisecond'`;
const live = () => and(isNull(oneTimeCodes.consumed_at), gt(oneTimeCodes.expires_at, sql`now()`));

export interface NewSecret {
  purpose: SecretPurpose;
  email: string;
  profileId: string | null;
  hash: string;
  ttlMs: number;
  payload?: unknown;
}

export async function insertSecret(db: Db | Tx, secret: NewSecret): Promise<void> {
  await db.insert(oneTimeCodes).values({
    purpose: secret.purpose, email: secret.email, profile_id: secret.profileId, code_hash: secret.hash,
    payload: secret.payload ?? null, expires_at: inMs(secret.ttlMs),
  });
}

/** Kills every live secret of a purpose for a profile. */
export async function revokeLiveSecrets(db: Db | Tx, purpose: SecretPurpose, profileId: string): Promise<void> {
  await db.update(oneTimeCodes).set({ consumed_at: sql`now()` })
    .where(and(eq(oneTimeCodes.purpose, purpose), eq(oneTimeCodes.profile_id, profileId), live()));
}

/** Kills the live provider-link secrets of one provider account. */
export async function revokeLiveLinks(db: Db | Tx, provider: Provider, subject: string): Promise<void> {
  await db.update(oneTimeCodes).set({ consumed_at: sql`now()` }).where(and(
    eq(oneTimeCodes.purpose, 'oauth_link'), live(),
    sql`${oneTimeCodes.payload}->>'provider' = ${provider} and ${oneTimeCodes.payload}->>'subject' = ${subject}`,
  ));
}

/** The newest live code of a purpose for an address (and profile, when given). */
export async function newestLiveCode(db: Db, purpose: SecretPurpose, email: string, profileId?: string): Promise<SecretRow | null> {
  const [row] = await db.select().from(oneTimeCodes)
    .where(and(
      eq(oneTimeCodes.purpose, purpose), eq(sql`lower(${oneTimeCodes.email})`, email.toLowerCase()), live(),
      profileId ? eq(oneTimeCodes.profile_id, profileId) : undefined,
    ))
    .orderBy(desc(oneTimeCodes.created_at)).limit(1);
  return row ?? null;
}

/** Counts one try (one UPDATE: concurrent guesses cannot exceed `max`); the tries so far, or null when none is left. */
export async function countTry(db: Db, id: string, max: number): Promise<number | null> {
  const [row] = await db.update(oneTimeCodes).set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(and(eq(oneTimeCodes.id, id), lt(oneTimeCodes.attempts, max), live()))
    .returning({ attempts: oneTimeCodes.attempts });
  return row?.attempts ?? null;
}

/** Consumes a live secret once (a single UPDATE: two concurrent uses cannot both succeed). */
export async function consumeSecret(db: Db, id: string): Promise<SecretRow | null> {
  const [row] = await db.update(oneTimeCodes).set({ consumed_at: sql`now()` }).where(and(eq(oneTimeCodes.id, id), live())).returning();
  return row ?? null;
}

export async function consumeByHash(db: Db, purpose: SecretPurpose, hash: string): Promise<SecretRow | null> {
  const [row] = await db.update(oneTimeCodes).set({ consumed_at: sql`now()` })
    .where(and(eq(oneTimeCodes.code_hash, hash), eq(oneTimeCodes.purpose, purpose), live())).returning();
  return row ?? null;
}

export async function findLiveByHash(db: Db, purpose: SecretPurpose, hash: string): Promise<SecretRow | null> {
  const [row] = await db.select().from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.code_hash, hash), eq(oneTimeCodes.purpose, purpose), live()));
  return row ?? null;
}

// ---- provider sign-ins ----

/** Stores a sign-in in flight; those abandoned half-way are swept as new ones start. */
export async function storeOAuthState(db: Db, state: typeof oauthStates.$inferInsert): Promise<void> {
  await db.delete(oauthStates).where(sql`${oauthStates.expires_at} < now()`);
  await db.insert(oauthStates).values(state);
}

/** Takes a live state once: it is deleted as it is read. */
export async function takeOAuthState(db: Db, provider: Provider, state: string): Promise<OAuthStateRow | null> {
  const [row] = await db.delete(oauthStates)
    .where(and(eq(oauthStates.state, state), eq(oauthStates.provider, provider), gt(oauthStates.expires_at, sql`now()`)))
    .returning();
  return row ?? null;
}

export async function linkedProfile(db: Db, provider: Provider, subject: string): Promise<ProfileRow | null> {
  const [linked] = await db.select({ profile: profiles }).from(identities)
    .innerJoin(profiles, eq(profiles.id, identities.profile_id))
    .where(and(eq(identities.provider, provider), eq(identities.subject, subject)));
  return linked?.profile ?? null;
}

export async function linkIdentity(tx: Tx, profileId: string, provider: Provider, subject: string, email: string): Promise<void> {
  await tx.insert(identities).values({ profile_id: profileId, provider, subject, email }).onConflictDoNothing();
}

// ---- sessions ----

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Db, values: typeof sessions.$inferInsert): Promise<SessionRow | null> {
  const [row] = await db.insert(sessions).values(values).returning();
  return row ?? null;
}

/** A time so many milliseconds ago on the database's clock. */
const ago = (ms: number) => sql`now() - ${ms}::float8 * interval '1 millisecond'`;

export interface IdleLimits {
  staff: number;
  remember: number;
  default: number;
}

/** Times so many milliseconds (a named value) before now, on the database's clock. */
const since = (name: string) => sql`now() - ${sql.placeholder(name)}::float8 * interval '1 millisecond'`;

type LiveSession = Awaited<ReturnType<ReturnType<typeof liveSessionsQuery>['execute']>>[number];

/** What a request knows of its signed-in profile (auth/tokens.ts AuthUser): read with every session lookup, so no more. */
const sessionProfile = {
  id: profiles.id, user_id: profiles.user_id, role: profiles.role, email: profiles.email, full_name: profiles.full_name,
  language: profiles.language, totp_enabled_at: profiles.totp_enabled_at, date_of_birth: profiles.date_of_birth, phone: profiles.phone,
  address: profiles.address, city: profiles.city, state: profiles.state, country: profiles.country, kyc_level: profiles.kyc_level,
  screened_for: profiles.screened_for,
};

const liveSessionsQuery = (db: Db) => db
  .select({ session_id: sessions.id, mfa_verified: sessions.mfa_verified, profile: sessionProfile, stale: sql<boolean>`${sessions.last_seen_at} < ${since('touch')}` })
  .from(sessions)
  .innerJoin(profiles, eq(profiles.id, sessions.profile_id))
  .where(and(
    sql`${sessions.id} = any(${sql.placeholder('ids')}::uuid[])`, isNull(sessions.revoked_at), gt(sessions.expires_at, sql`now()`),
    sql`${sessions.last_seen_at} > case when ${profiles.role} in ('admin', 'manager') then ${since('staff')}
      when ${sessions.remember} then ${since('remember')} else ${since('default')} end`,
  ))
  .prepare('live_sessions');

/**
 * The session lookups of requests arriving together, one statement for all (lib/batches.ts): every
 * signed-in request starts with one, and a busy server's round trips for them were a tenth of its
 * work (docs/decisions/022-initiation-throughput.md). One batcher per database and limits.
 */
const liveSessionBatches = preparedPerDatabase((db) => {
  const statement = liveSessionsQuery(db);
  const byLimits = new Map<string, (id: string) => Promise<LiveSession | null>>();
  return (idle: IdleLimits, touchMs: number) => {
    const key = `${idle.staff}/${idle.remember}/${idle.default}/${touchMs}`;
    let lookup = byLimits.get(key);
    if (!lookup) {
      lookup = batched(async (ids: string[]) => {
        const rows = await statement.execute({ ids: [...new Set(ids)], touch: touchMs, staff: idle.staff, remember: idle.remember, default: idle.default });
        const byId = new Map(rows.map((row) => [row.session_id, row]));
        return ids.map((id) => byId.get(id) ?? null);
      }, { maxSize: 100, maxRunning: 2 });
      byLimits.set(key, lookup);
    }
    return lookup;
  };
});

/**
 * The live session `id` with its profile: not revoked, not expired, and used within its idle
 * limit (staff's whatever "remember me" says). `stale` when last seen over `touchMs` ago.
 * Every time is on the database's clock, to the millisecond.
 */
export function liveSession(db: Db, id: string, idle: IdleLimits, touchMs: number): Promise<LiveSession | null> {
  return liveSessionBatches(db)(idle, touchMs)(id);
}

/** Marks a session seen; conditional, so concurrent requests of one session write once. */
export async function touchSession(db: Db, id: string, touchMs: number): Promise<void> {
  await db.update(sessions).set({ last_seen_at: sql`now()` })
    .where(and(eq(sessions.id, id), sql`${sessions.last_seen_at} < ${ago(touchMs)}`));
}

export async function revokeSession(db: Db, id: string): Promise<void> {
  await db.update(sessions).set({ revoked_at: new Date() }).where(and(eq(sessions.id, id), isNull(sessions.revoked_at)));
}

/** Revokes every live session of a profile but `except`; how many were. */
export async function revokeSessionsOf(db: Db, profileId: string, except?: string): Promise<number> {
  const revoked = await db.update(sessions).set({ revoked_at: new Date() })
    .where(and(eq(sessions.profile_id, profileId), isNull(sessions.revoked_at), except ? ne(sessions.id, except) : undefined))
    .returning({ id: sessions.id });
  return revoked.length;
}
