import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { profiles } from '../../db/schema.js';
import { hashPassword } from './password.js';

export type BootstrapResult = { created: false } | { created: true; email: string; password: string; generated: boolean };

/**
 * ADMIN_EMAIL/ADMIN_PASSWORD: that admin is created when missing (an existing account is left
 * alone). Unset on a database without any admin: one is generated and its credentials returned
 * once, to be printed, so a fresh install can be administered.
 */
export async function ensureBootstrapAdmin(db: Db, config: Config): Promise<BootstrapResult> {
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const email = config.ADMIN_EMAIL.toLowerCase();
    const [existing] = await db.select({ id: profiles.id }).from(profiles).where(eq(sql`lower(${profiles.email})`, email));
    if (existing) return { created: false };
    await insertAdmin(db, email, config.ADMIN_PASSWORD);
    return { created: true, email, password: config.ADMIN_PASSWORD, generated: false };
  }
  const [anyAdmin] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.role, 'admin')).limit(1);
  if (anyAdmin) return { created: false };
  const email = (config.ADMIN_EMAIL ?? 'admin@example.com').toLowerCase();
  const password = randomBytes(12).toString('base64url');
  const [existing] = await db.select({ id: profiles.id }).from(profiles).where(eq(sql`lower(${profiles.email})`, email));
  if (existing) {
    await db.update(profiles).set({ role: 'admin', password_hash: await hashPassword(password) }).where(eq(profiles.id, existing.id));
  } else {
    await insertAdmin(db, email, password);
  }
  return { created: true, email, password, generated: true };
}

async function insertAdmin(db: Db, email: string, password: string) {
  await db.insert(profiles).values({
    email, password_hash: await hashPassword(password), role: 'admin', full_name: 'Administrator', email_verified_at: new Date(),
  });
}
