import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { profiles, recoveryCodes, sessions } from '@server/db/schema.js';

// The SQL of two-step sign-in: the sealed secret and last step on the profile, recovery codes,
// and the verified mark of sessions.

/** A new secret waiting for its first code; refused (null) once two-step sign-in is on. */
export async function setPendingSecret(db: Db, profileId: string, sealed: string): Promise<boolean> {
  const rows = await db.update(profiles).set({ totp_secret: sealed, totp_last_step: null })
    .where(and(eq(profiles.id, profileId), isNull(profiles.totp_enabled_at))).returning({ id: profiles.id });
  return rows.length === 1;
}

/**
 * Turns two-step sign-in on with the secret the code was checked against (a setup started
 * meanwhile in another tab replaces it, and this fails); the code's step is used.
 */
export async function enableTotp(tx: Tx, profileId: string, sealed: string, step: number): Promise<boolean> {
  const rows = await tx.update(profiles).set({ totp_enabled_at: sql`now()`, totp_last_step: step })
    .where(and(eq(profiles.id, profileId), isNull(profiles.totp_enabled_at), eq(profiles.totp_secret, sealed)))
    .returning({ id: profiles.id });
  return rows.length === 1;
}

/**
 * Uses a code's time step: one UPDATE that succeeds only for a step later than the last one used,
 * so the same code (or an older one) never works twice, even sent twice at once.
 */
export async function useStep(db: Db, profileId: string, step: number): Promise<boolean> {
  const rows = await db.update(profiles).set({ totp_last_step: step })
    .where(and(
      eq(profiles.id, profileId), sql`${profiles.totp_enabled_at} is not null`,
      or(isNull(profiles.totp_last_step), lt(profiles.totp_last_step, step)),
    ))
    .returning({ id: profiles.id });
  return rows.length === 1;
}

/** Spends a recovery code once (one UPDATE: two uses at once cannot both succeed). */
export async function useRecoveryCode(db: Db, profileId: string, hash: string): Promise<boolean> {
  const rows = await db.update(recoveryCodes).set({ used_at: sql`now()` })
    .where(and(eq(recoveryCodes.profile_id, profileId), eq(recoveryCodes.code_hash, hash), isNull(recoveryCodes.used_at)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

/** The account's recovery codes: the old ones gone, these in their place. */
export async function replaceRecoveryCodes(tx: Tx, profileId: string, hashes: string[]): Promise<void> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.profile_id, profileId));
  await tx.insert(recoveryCodes).values(hashes.map((code_hash) => ({ profile_id: profileId, code_hash })));
}

/** Two-step sign-in off: secret, step and recovery codes gone, and no session of the account verified any more. */
export async function clearTotp(tx: Tx, profileId: string): Promise<{ was_enabled: boolean } | null> {
  const [before] = await tx.select({ enabled: profiles.totp_enabled_at }).from(profiles).where(eq(profiles.id, profileId)).for('update');
  if (!before) return null;
  await tx.update(profiles).set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null }).where(eq(profiles.id, profileId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.profile_id, profileId));
  await tx.update(sessions).set({ mfa_verified: false }).where(eq(sessions.profile_id, profileId));
  return { was_enabled: before.enabled !== null };
}

/** The session that gave a second factor (or enrolled) may reach staff endpoints. */
export async function markSessionVerified(tx: Tx, sessionId: string): Promise<void> {
  await tx.update(sessions).set({ mfa_verified: true }).where(eq(sessions.id, sessionId));
}
