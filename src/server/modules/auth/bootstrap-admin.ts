import { randomBytes } from 'node:crypto';
import type { Config } from '@server/config.js';
import type { Db } from '@server/db/client.js';
import { recordAudit } from '../audit/service.js';
import { hashPassword } from './password.js';
import { type ProfileRow, anyAdmin, findProfileByEmail, insertProfile, updateProfile } from './repo.js';

export type BootstrapResult = { created: false } | { created: true; email: string; password: string; generated: boolean };

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD: that admin is created when missing (an existing account is left
 * alone). Unset on a database without any admin: one is generated and its credentials returned
 * once, to be printed, so a fresh install can be administered.
 */
export async function ensureBootstrapAdmin(db: Db, config: Config): Promise<BootstrapResult> {
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const email = config.ADMIN_EMAIL.toLowerCase();
    if (await findProfileByEmail(db, email)) return { created: false };
    await insertAdmin(db, email, config.ADMIN_PASSWORD);
    return { created: true, email, password: config.ADMIN_PASSWORD, generated: false };
  }
  if (await anyAdmin(db)) return { created: false };
  const email = (config.ADMIN_EMAIL ?? 'admin@example.com').toLowerCase();
  const password = randomBytes(12).toString('base64url');
  const existing = await findProfileByEmail(db, email);
  if (existing) {
    await updateProfile(db, existing.id, { role: 'admin', password_hash: await hashPassword(password) });
  } else {
    await insertAdmin(db, email, password);
  }
  return { created: true, email, password, generated: true };
}

async function insertAdmin(db: Db, email: string, password: string) {
  await insertProfile(db, {
    email, password_hash: await hashPassword(password), role: 'admin', full_name: 'Administrator', email_verified_at: new Date(),
  });
}

/**
 * An admin made from the command line (`npm run admin -- create-admin`): the account, its address
 * taken as confirmed, and the audit row of its role, without an actor (no one is signed in). Null
 * when the address is taken. Like every admin, it enrols in two-step sign-in at its first sign-in.
 */
export async function createAdmin(db: Db, email: string, password: string, fullName: string): Promise<ProfileRow | null> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const profile = await insertProfile(tx, { email, password_hash: passwordHash, role: 'admin', full_name: fullName, email_verified_at: new Date() });
    if (profile) await recordAudit(tx, null, { action: 'profile.role_update', target: 'profile', id: profile.id, before: null, after: { role: 'admin' } });
    return profile;
  });
}
