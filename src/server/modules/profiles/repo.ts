import { and, eq, ilike, or, sql } from 'drizzle-orm';
import type { Role } from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { profiles, transferRequests } from '@server/db/schema.js';
import { type Cursor, encodeCursor } from '@server/lib/cursor.js';

export type ProfileRow = typeof profiles.$inferSelect;
export type ProfileChanges = Partial<Pick<typeof profiles.$inferInsert,
  'full_name' | 'phone' | 'language' | 'password_hash' | 'date_of_birth' | 'address' | 'state' | 'city' | 'country'>>;

export async function updateProfile(db: Db, id: string, changes: ProfileChanges): Promise<ProfileRow | null> {
  const [row] = await db.update(profiles).set(changes).where(eq(profiles.id, id)).returning();
  return row ?? null;
}

const isUniqueViolation = (err: unknown) =>
  (err as { code?: string }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505';

/** Sets a proven e-mail; 'taken' when another account has it (the unique index decides, races included). */
export async function setVerifiedEmail(db: Db, id: string, email: string): Promise<ProfileRow | 'taken' | null> {
  try {
    const [row] = await db.update(profiles).set({ email, email_verified_at: sql`now()` }).where(eq(profiles.id, id)).returning();
    return row ?? null;
  } catch (err) {
    if (isUniqueViolation(err)) return 'taken';
    throw err;
  }
}

/** What the profile screen shows of its owner: the answer's columns, and whether a password and two-step sign-in are set. */
const myProfileFields = {
  id: profiles.id, user_id: profiles.user_id, email: profiles.email, full_name: profiles.full_name, phone: profiles.phone,
  address: profiles.address, state: profiles.state, city: profiles.city, country: profiles.country, date_of_birth: profiles.date_of_birth,
  role: profiles.role,
  language: profiles.language, email_verified_at: profiles.email_verified_at, created_at: profiles.created_at,
  has_password: sql<boolean>`${profiles.password_hash} is not null`,
  totp_enabled: sql<boolean>`${profiles.totp_enabled_at} is not null`,
};
type Flags = { has_password: boolean; totp_enabled: boolean };
type ProfileStats = { total: number; completed: number; pending: number };
export type MyProfileRow = Pick<ProfileRow, Exclude<keyof typeof myProfileFields, keyof Flags>> & Flags & { stats: ProfileStats };

// The screen's statistics, counted from the sender's transfer requests in the same statement.
const stats = sql`(select count(*)::int as total,
    (count(*) filter (where ${transferRequests.status} = 'completed'))::int as completed,
    (count(*) filter (where ${transferRequests.status} in ('pending', 'processing')))::int as pending
  from ${transferRequests} where ${transferRequests.profile_id} = ${profiles.id})`;
const myProfileWithStats = { ...myProfileFields, stats: sql<ProfileStats>`json_build_object('total', stats.total, 'completed', stats.completed, 'pending', stats.pending)` };

// Read on every visit to the profile screen: one statement, prepared once, rows read without
// drizzle's mapping (db/prepared.ts).
const myProfileRows = rowsOf<MyProfileRow>(myProfileWithStats);
const myProfileStatement = preparedPerDatabase((db) => myProfileRows(db,
  sql`select ${sql.join(Object.values(myProfileWithStats), sql`, `)} from ${profiles} cross join lateral ${stats} stats
    where ${profiles.id} = ${sql.placeholder('id')}`, 'my_profile'));

/** The profile screen's own row with its statistics; null for an unknown id. */
export async function myProfile(db: Db, id: string): Promise<MyProfileRow | null> {
  const [row] = await myProfileStatement(db).execute({ id });
  return row ?? null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Newest first, keyset-paginated on (created_at, id); q matches the e-mail or the name. */
export async function listProfiles(db: Db, opts: { q?: string | undefined; cursor: Cursor | null; limit: number }) {
  const pattern = opts.q ? `%${escapeLike(opts.q)}%` : null;
  // The cursor keeps PostgreSQL's microseconds: a JavaScript Date would round them away and skip rows.
  const rows = await db.select({
    profile: profiles,
    at: sql<string>`${profiles.created_at}::text`,
  }).from(profiles)
    .where(and(
      pattern ? or(ilike(profiles.email, pattern), ilike(profiles.full_name, pattern)) : undefined,
      opts.cursor ? sql`(${profiles.created_at}, ${profiles.id}) < (${opts.cursor.at}::timestamptz, ${opts.cursor.id}::uuid)` : undefined,
    ))
    // As the index is declared (DESC NULLS LAST); a bare DESC would sort every profile.
    .orderBy(sql`${profiles.created_at} desc nulls last`, sql`${profiles.id} desc nulls last`)
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  return {
    data: page.map((r) => r.profile),
    next_cursor: rows.length > opts.limit && last ? encodeCursor({ at: last.at, id: last.profile.id }) : null,
  };
}

/** Locks every admin row and the target's, so two role changes at once are decided one after the other. */
export async function lockAdminsAndProfile(tx: Tx, id: string) {
  const admins = await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.role, 'admin')).for('update');
  const [target] = await tx.select().from(profiles).where(eq(profiles.id, id)).for('update');
  return { adminCount: admins.length, target: target ?? null };
}

export async function writeRole(tx: Tx, target: ProfileRow, role: Role): Promise<ProfileRow> {
  const [updated] = await tx.update(profiles).set({ role }).where(eq(profiles.id, target.id)).returning();
  return updated!;
}
