import { and, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { profiles, transferRequests } from '../../db/schema.js';
import { type Cursor, encodeCursor } from '../../lib/cursor.js';

export type ProfileRow = typeof profiles.$inferSelect;

/** A profile as the API shows it (spec §3): never the password hash. */
export function serializeProfile(p: ProfileRow) {
  return {
    id: p.id, user_id: p.user_id, email: p.email, full_name: p.full_name, phone: p.phone, address: p.address,
    state: p.state, city: p.city, country: p.country, role: p.role, language: p.language,
    email_verified: p.email_verified_at !== null, created_at: p.created_at.toISOString(),
  };
}
export type Profile = ReturnType<typeof serializeProfile>;

export async function findProfileByEmail(db: Db, email: string): Promise<ProfileRow | null> {
  const [row] = await db.select().from(profiles).where(eq(sql`lower(${profiles.email})`, email.toLowerCase()));
  return row ?? null;
}

export async function findProfileById(db: Db, id: string): Promise<ProfileRow | null> {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, id));
  return row ?? null;
}

/** The profile screen's statistics (spec §2), counted from the sender's transfer requests. */
export async function profileStats(db: Db, profileId: string) {
  const [row] = await db.select({
    total: sql<number>`count(*)::int`,
    completed: sql<number>`(count(*) filter (where ${transferRequests.status} = 'completed'))::int`,
    pending: sql<number>`(count(*) filter (where ${transferRequests.status} in ('pending', 'processing')))::int`,
  }).from(transferRequests).where(eq(transferRequests.profile_id, profileId));
  return { total: row?.total ?? 0, completed: row?.completed ?? 0, pending: row?.pending ?? 0 };
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
