import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, profiles } from '@server/db/schema.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin', full_name: 'Chief Admin' });
  manager = await createUser(t, { role: 'manager' });
  user = await createUser(t);
});
afterAll(async () => { await t?.close(); });

const list = (token: string | undefined, query = '') => t.request({ method: 'GET', url: `/api/profiles${query}`, token });
const setRole = (token: string | undefined, id: string, role: string) =>
  t.request({ method: 'PATCH', url: `/api/profiles/${id}`, token, payload: { role } });

describe('GET /api/profiles (admin)', () => {
  it('is the admin\'s alone: 401 signed out, 403 for user and manager', async () => {
    expect((await list(undefined)).statusCode).toBe(401);
    expect((await list(user.token)).statusCode).toBe(403);
    expect((await list(manager.token)).statusCode).toBe(403);
    expect((await list(admin.token)).statusCode).toBe(200);
  });

  it('pages newest first with a cursor, every profile exactly once', async () => {
    for (let i = 0; i < 7; i++) await createUser(t, { full_name: `Pager ${i}` });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(admin.token, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { data: Array<{ id: string; created_at: string }>; next_cursor: string | null };
      expect(body.data.length).toBeLessThanOrEqual(3);
      seen.push(...body.data.map((p) => p.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    const [{ count }] = (await t.database.pool.query<{ count: number }>('select count(*)::int as count from profiles')).rows as [{ count: number }];
    expect(seen.length).toBe(count);
    const all = (await list(admin.token, '?limit=100')).json().data as Array<{ created_at: string }>;
    expect(all.map((p) => p.created_at)).toEqual([...all.map((p) => p.created_at)].sort().reverse());
    expect(new Set(seen).size).toBe(count);
  });

  it('searches by e-mail or name, case-insensitively, with wildcards taken literally', async () => {
    const target = await createUser(t, { full_name: 'Zéphyrin Obiang', email: 'zeph.obiang@example.test' });
    const byName = (await list(admin.token, `?q=${encodeURIComponent('zéphyrin')}`)).json().data;
    expect(byName.map((p: { id: string }) => p.id)).toEqual([target.id]);
    const byEmail = (await list(admin.token, '?q=ZEPH.OBIANG@')).json().data;
    expect(byEmail.map((p: { id: string }) => p.id)).toEqual([target.id]);
    expect((await list(admin.token, '?q=%25')).json().data).toEqual([]);
    const row = byName[0];
    expect(row).toMatchObject({ email: 'zeph.obiang@example.test', role: 'user' });
    expect(row.password_hash).toBeUndefined();
  });

  it('validates limit, cursor and search length', async () => {
    expect((await list(admin.token, '?limit=0')).json().error).toBe('The page size must be between 1 and 100.');
    expect((await list(admin.token, '?limit=101')).statusCode).toBe(400);
    expect((await list(admin.token, '?cursor=garbage')).json().error).toBe('The page cursor is invalid.');
    expect((await list(admin.token, `?q=${'x'.repeat(101)}`)).json().error).toBe('The search can be at most 100 characters.');
  });
});

describe('PATCH /api/profiles/:id { role } (admin only)', () => {
  it('changes a role, takes effect at once (the account is signed out everywhere), and writes the audit log', async () => {
    const target = await createUser(t);
    const res = await setRole(admin.token, target.id, 'manager');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: target.id, role: 'manager' });
    // No session outlives the role it was opened under.
    expect((await t.request({ method: 'GET', url: '/api/profiles/me', token: target.token })).statusCode).toBe(401);
    const [entry] = await t.database.db.select().from(auditLog).where(and(eq(auditLog.target_type, 'profile'), eq(auditLog.target_id, target.id)));
    expect(entry).toMatchObject({ actor_profile_id: admin.id, action: 'profile.role_update', before: { role: 'user' }, after: { role: 'manager' } });
  });

  it('refuses a manager and a user (403), and a signed-out caller (401)', async () => {
    const target = await createUser(t);
    expect((await setRole(undefined, target.id, 'admin')).statusCode).toBe(401);
    const asManager = await setRole(manager.token, target.id, 'manager');
    expect(asManager.statusCode).toBe(403);
    expect(asManager.json().error).toBe('You are not authorized to perform this action.');
    expect((await setRole(manager.token, manager.id, 'admin')).statusCode).toBe(403);
    expect((await setRole(user.token, target.id, 'admin')).statusCode).toBe(403);
  });

  it('validates the role and the id', async () => {
    expect((await setRole(admin.token, user.id, 'owner')).json().error).toBe('Choose a valid role.');
    expect((await setRole(admin.token, '00000000-0000-4000-8000-000000000000', 'user')).statusCode).toBe(404);
    // A malformed id names no resource, like an unknown one.
    expect((await setRole(admin.token, 'not-a-uuid', 'user')).statusCode).toBe(404);
  });

  it('never demotes the last admin, even when two admins demote each other at once', async () => {
    // Leave exactly two admins.
    await t.database.db.update(profiles).set({ role: 'user' }).where(and(eq(profiles.role, 'admin'), ne(profiles.id, admin.id)));
    const second = await createUser(t, { role: 'admin' });
    const results = await Promise.all([setRole(admin.token, second.id, 'user'), setRole(second.token, admin.id, 'user')]);
    // One wins; the other is refused, as the last admin (409) or, when it arrives after its
    // caller was demoted (and so signed out), as signed out (401) or no longer an admin (403). Never both.
    const codes = results.map((r) => r.statusCode).sort();
    expect([[200, 401], [200, 403], [200, 409]]).toContainEqual(codes);
    const admins = await t.database.db.select().from(profiles).where(eq(profiles.role, 'admin'));
    expect(admins).toHaveLength(1);
    // The one left cannot demote themself either.
    const last = admins[0]!.id === admin.id ? admin : second;
    const self = await setRole(last.token, last.id, 'manager');
    expect(self.statusCode).toBe(409);
    expect(self.json().error).toBe('The last admin cannot be demoted. Make another user admin first.');
    // Restore for other tests.
    expect((await setRole(last.token, admin.id, 'admin')).statusCode).toBe(200);
  });
});
