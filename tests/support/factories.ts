import { randomBytes } from 'node:crypto';
import { profiles } from '@server/db/schema.js';
import { hashPassword } from '@server/modules/auth/password.js';
import type { Role } from '@core/status.js';
import type { TestApp } from './test-app.js';

export interface TestUser {
  id: string;
  user_id: string;
  email: string;
  password: string;
  role: Role;
  token: string;
}

// argon2id is slow on purpose (about 80 ms a hash here): each password is hashed once per test
// file and its real hash shared by the accounts that use it, which sign in with it as any would.
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let stored = hashes.get(password);
  if (!stored) hashes.set(password, (stored = hashPassword(password)));
  return stored;
}

/**
 * A verified account with a password, signed in; override any profile field. Its session counts
 * as having passed two-step sign-in (as a staff member's would after giving a code), so staff can
 * reach the back office; `mfa: false` gives the session of a staff member not yet enrolled, which
 * the back office refuses (docs/rules/accounts.md#two-step-sign-in). The account itself has no
 * TOTP, so signing in by password stays one step.
 */
export async function createUser(
  t: TestApp,
  overrides: Partial<typeof profiles.$inferInsert> & { role?: Role; password?: string; mfa?: boolean } = {},
): Promise<TestUser> {
  const { password = 'correct-horse-9', mfa = true, ...fields } = overrides;
  const email = fields.email ?? `user-${randomBytes(4).toString('hex')}@example.test`;
  const [profile] = await t.database.db.insert(profiles).values({
    // A complete profile at the highest identity level: senders send up to the corridor's limits
    // unless a test sets the level it is about (docs/rules/know-your-sender.md#levels).
    full_name: 'Test Sender', phone: '+15551234567', address: '12 rue des Palmiers', city: 'Libreville', country: 'GA',
    date_of_birth: '1990-04-12', kyc_level: 3,
    email_verified_at: new Date(), role: 'user', ...fields, email, password_hash: await hashOnce(password),
  }).returning();
  if (!profile) throw new Error('profile not created');
  const { token } = await t.tokens.createSession(profile.id, { mfaVerified: mfa });
  return { id: profile.id, user_id: profile.user_id, email, password, role: profile.role, token };
}
