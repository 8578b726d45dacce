import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '@server/db/schema.js';
import { ensureBootstrapAdmin } from '@server/modules/auth/bootstrap-admin.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueEmail } from './auth-fixtures.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const signIn = (email: string, password: string) => t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('the first admin at start', () => {
  it('creates ADMIN_EMAIL with ADMIN_PASSWORD once, who can sign in as admin, and leaves it alone after', async () => {
    const email = uniqueEmail('first-admin');
    const config = { ...t.config, ADMIN_EMAIL: email, ADMIN_PASSWORD: 'Bootstrap-Admin-2026' };
    expect(await ensureBootstrapAdmin(t.database.db, config)).toEqual({ created: true, email, password: 'Bootstrap-Admin-2026', generated: false });
    const res = await signIn(email, 'Bootstrap-Admin-2026');
    expect(res.statusCode).toBe(200);
    const me = await t.request({ method: 'GET', url: '/api/profiles/me', token: res.json().token });
    expect(me.json().data).toMatchObject({ email, role: 'admin', email_verified: true });
    expect(await ensureBootstrapAdmin(t.database.db, { ...config, ADMIN_PASSWORD: 'Another-Password-2026' })).toEqual({ created: false });
    expect((await signIn(email, 'Bootstrap-Admin-2026')).statusCode).toBe(200);
  });

  it('without ADMIN_EMAIL, generates one only when the database has no admin', async () => {
    const config = { ...t.config, ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined };
    expect(await ensureBootstrapAdmin(t.database.db, config)).toEqual({ created: false });
    await t.database.db.update(profiles).set({ role: 'user' }).where(eq(profiles.role, 'admin'));
    const made = await ensureBootstrapAdmin(t.database.db, config);
    expect(made).toMatchObject({ created: true, email: 'admin@example.com', generated: true });
    if (!made.created) throw new Error('no admin made');
    expect((await signIn(made.email, made.password)).statusCode).toBe(200);
  });
});
