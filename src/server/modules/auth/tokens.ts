import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../../db/client.js';
import type { Role } from '../../../core/status.js';
import { profiles, sessions } from '../../db/schema.js';

/** The signed-in caller as every route sees it (spec §3 "Session user"). */
export interface AuthUser {
  user_id: string;
  profile_id: string;
  role: Role;
  email: string;
  full_name: string | null;
  language: 'en' | 'fr';
  session_id: string;
}

export const SESSION_TTL_MS = { remember: 30 * 24 * 3600_000, default: 12 * 3600_000 } as const;

/**
 * Inactivity limits (ASVS 7.3.1), on top of the absolute lifetimes above: a session unused this
 * long is refused. Staff hold the keys to everyone's money: 30 minutes whatever "remember me"
 * says. A remembered sender comes back within a week; otherwise a sender's session is meant for
 * one sitting, so 2 hours covers a transfer interrupted by finding the money.
 */
export const SESSION_IDLE_MS = { staff: 30 * 60_000, remember: 7 * 24 * 3600_000, default: 2 * 3600_000 } as const;

/** last_seen_at is written at most this often per session, so most requests only read. */
export const SESSION_TOUCH_MS = 60_000;

/** A time so many milliseconds ago on the database's clock. */
const ago = (ms: number) => sql`now() - ${ms}::float8 * interval '1 millisecond'`;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export class TokenService {
  private readonly key: Uint8Array;

  constructor(private readonly db: Db, secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Opens a session row and signs a token naming it; revoking the row kills the token. */
  async createSession(profileId: string, opts: { remember?: boolean; userAgent?: string; ip?: string } = {}) {
    const remember = opts.remember ?? false;
    const expiresAt = new Date(Date.now() + (remember ? SESSION_TTL_MS.remember : SESSION_TTL_MS.default));
    const [session] = await this.db.insert(sessions).values({
      profile_id: profileId, remember, user_agent: opts.userAgent?.slice(0, 300), ip: opts.ip, expires_at: expiresAt,
    }).returning();
    const [profile] = await this.db.select().from(profiles).where(eq(profiles.id, profileId));
    if (!session || !profile) throw new Error('session could not be created');
    const token = await new SignJWT({ profile_id: profile.id, role: profile.role, sid: session.id })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(profile.user_id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, session };
  }

  /**
   * The caller behind a bearer token, or null for a missing, malformed, expired, tampered,
   * revoked or idle one; a live session is marked seen. Role and name come from the database, not
   * the token, so a role change or a revocation takes effect at once.
   */
  async authenticate(token: string): Promise<AuthUser | null> {
    let sid: unknown;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      sid = payload.sid;
    } catch {
      return null;
    }
    if (typeof sid !== 'string' || !/^[0-9a-f-]{36}$/.test(sid)) return null;
    const [row] = await this.db
      .select({ session_id: sessions.id, profile: profiles, stale: sql<boolean>`${sessions.last_seen_at} < ${ago(SESSION_TOUCH_MS)}` })
      .from(sessions)
      .innerJoin(profiles, eq(profiles.id, sessions.profile_id))
      .where(and(
        eq(sessions.id, sid), isNull(sessions.revoked_at), gt(sessions.expires_at, new Date()),
        sql`${sessions.last_seen_at} > case when ${profiles.role} in ('admin', 'manager') then ${ago(SESSION_IDLE_MS.staff)}
          when ${sessions.remember} then ${ago(SESSION_IDLE_MS.remember)} else ${ago(SESSION_IDLE_MS.default)} end`,
      ));
    if (!row) return null;
    if (row.stale) {
      // Conditional, so concurrent requests of one session write once.
      await this.db.update(sessions).set({ last_seen_at: sql`now()` })
        .where(and(eq(sessions.id, row.session_id), sql`${sessions.last_seen_at} < ${ago(SESSION_TOUCH_MS)}`));
    }
    const p = row.profile;
    return {
      user_id: p.user_id, profile_id: p.id, role: p.role, email: p.email, full_name: p.full_name,
      language: p.language, session_id: row.session_id,
    };
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.db.update(sessions).set({ revoked_at: new Date() }).where(and(eq(sessions.id, sessionId), isNull(sessions.revoked_at)));
  }

  /** Signs the profile out everywhere (optionally keeping one session); returns how many were revoked. */
  async revokeAllSessions(profileId: string, opts: { except?: string } = {}): Promise<number> {
    const revoked = await this.db.update(sessions).set({ revoked_at: new Date() })
      .where(and(eq(sessions.profile_id, profileId), isNull(sessions.revoked_at), opts.except ? ne(sessions.id, opts.except) : undefined))
      .returning({ id: sessions.id });
    return revoked.length;
  }
}
