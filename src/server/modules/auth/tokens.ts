import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { IdParamsSchema } from '@core/api/common.js';
import type { Db } from '@server/db/client.js';
import type { Role } from '@core/status.js';
import type { profiles } from '@server/db/schema.js';
import * as repo from './repo.js';

/** The signed-in caller as every route sees it. */
export interface AuthUser {
  user_id: string;
  profile_id: string;
  role: Role;
  email: string;
  full_name: string | null;
  language: 'en' | 'fr';
  session_id: string;
  /** Opened with a second factor (or enrolled in it): staff endpoints need it (docs/rules/accounts.md#two-step-sign-in). */
  mfa_verified: boolean;
  /** Whether the account has two-step sign-in on. */
  totp_enabled: boolean;
  /**
   * The profile's level fields as this request's session lookup read them: what a sender's level
   * is read from and what a new transfer keeps of its originator (kyc/service.ts).
   */
  sender: SessionSender;
}

/** The profile's fields a session carries for kyc: named here, so auth depends on no module that takes its user. */
type SessionSender = Pick<typeof profiles.$inferSelect, 'user_id' | 'email' | 'full_name' | 'date_of_birth' | 'phone' | 'address' | 'city'
  | 'state' | 'country' | 'kyc_level' | 'screened_for'>;

const SESSION_TTL_MS = { remember: 30 * 24 * 3600_000, default: 12 * 3600_000 } as const;

/**
 * Inactivity limits (ASVS 7.3.1), on top of the absolute lifetimes above: a session unused this
 * long is refused. Staff hold the keys to everyone's money: 30 minutes whatever "remember me"
 * says. A remembered sender comes back within a week; otherwise a sender's session is meant for
 * one sitting, so 2 hours covers a transfer interrupted by finding the money.
 */
const SESSION_IDLE_MS = { staff: 30 * 60_000, remember: 7 * 24 * 3600_000, default: 2 * 3600_000 } as const;

/** last_seen_at is written at most this often per session, so most requests only read. */
const SESSION_TOUCH_MS = 60_000;

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** How many verified tokens each process remembers (a few MB at most). */
const VERIFIED_TOKENS = 10_000;

export class TokenService {
  private readonly key: Uint8Array<ArrayBuffer>;
  /** The HMAC key imported once (jose would import the raw bytes again on every verification). */
  private readonly verifyKey: Promise<CryptoKey>;
  /**
   * Tokens whose signature has been checked, with the session they name and their expiry: a
   * signature never changes, so the next request with the same token skips the HMAC. The session
   * row is still read on every request, so revocation and idle limits take effect at once.
   */
  private readonly verified = new Map<string, { sid: string; exp: number }>();

  constructor(private readonly db: Db, secret: string) {
    this.key = new TextEncoder().encode(secret);
    this.verifyKey = crypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  }

  /** Opens a session row and signs a token naming it; revoking the row kills the token. */
  async createSession(profileId: string, opts: { remember?: boolean; userAgent?: string; ip?: string; mfaVerified?: boolean } = {}) {
    const remember = opts.remember ?? false;
    const expiresAt = new Date(Date.now() + (remember ? SESSION_TTL_MS.remember : SESSION_TTL_MS.default));
    const session = await repo.insertSession(this.db, {
      profile_id: profileId, remember, user_agent: opts.userAgent?.slice(0, 300), ip: opts.ip, expires_at: expiresAt,
      mfa_verified: opts.mfaVerified ?? false,
    });
    const profile = await repo.findProfileById(this.db, profileId);
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
    const sid = await this.sessionIdOf(token);
    if (!sid) return null;
    const row = await repo.liveSession(this.db, sid, SESSION_IDLE_MS, SESSION_TOUCH_MS);
    if (!row) return null;
    if (row.stale) await repo.touchSession(this.db, row.session_id, SESSION_TOUCH_MS);
    const p = row.profile;
    return {
      user_id: p.user_id, profile_id: p.id, role: p.role, email: p.email, full_name: p.full_name,
      language: p.language, session_id: row.session_id,
      mfa_verified: row.mfa_verified, totp_enabled: p.totp_enabled_at !== null,
      sender: {
        user_id: p.user_id, email: p.email, full_name: p.full_name, date_of_birth: p.date_of_birth, phone: p.phone, address: p.address,
        city: p.city, state: p.state, country: p.country, kyc_level: p.kyc_level, screened_for: p.screened_for,
      },
    };
  }

  /** The session id a token names, once its signature and expiry are checked; null otherwise. */
  private async sessionIdOf(token: string): Promise<string | null> {
    const known = this.verified.get(token);
    if (known) {
      if (known.exp * 1000 > Date.now()) return known.sid;
      this.verified.delete(token);
      return null;
    }
    let sid: unknown;
    let exp: unknown;
    try {
      ({ payload: { sid, exp } } = await jwtVerify(token, await this.verifyKey, { algorithms: ['HS256'] }));
    } catch {
      return null;
    }
    if (typeof sid !== 'string' || typeof exp !== 'number' || !IdParamsSchema.shape.id.safeParse(sid).success) return null;
    // Oldest first out: a Map iterates in insertion order.
    if (this.verified.size >= VERIFIED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { sid, exp });
    return sid;
  }

  async revokeSession(sessionId: string): Promise<void> {
    await repo.revokeSession(this.db, sessionId);
  }

  /** Signs the profile out everywhere (optionally keeping one session); returns how many were revoked. */
  async revokeAllSessions(profileId: string, opts: { except?: string } = {}): Promise<number> {
    return repo.revokeSessionsOf(this.db, profileId, opts.except);
  }
}
