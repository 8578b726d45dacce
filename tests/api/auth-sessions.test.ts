import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '@server/db/schema.js';
import type { Role } from '@core/status.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const me = (token: string) => t.request({ method: 'GET', url: '/api/profiles/me', token });

/** A fresh session of a new account with that role. */
async function session(role: Role, remember: boolean) {
  const user = await createUser(t, { role });
  const { token, session: row } = await t.tokens.createSession(user.id, { remember });
  return { token, id: row.id };
}

/** Moves time: the session was last used `interval` ago (a PostgreSQL interval, e.g. '2 hours'). */
async function lastSeen(id: string, interval: string) {
  await t.database.db.update(sessions).set({ last_seen_at: sql`now() - ${interval}::interval` }).where(eq(sessions.id, id));
}

async function secondsSinceSeen(id: string): Promise<number> {
  const [row] = await t.database.db.select({ s: sql<number>`extract(epoch from now() - ${sessions.last_seen_at})::float8` })
    .from(sessions).where(eq(sessions.id, id));
  return Number(row!.s);
}

describe('inactivity timeout (ASVS 7.3.1), on top of the absolute lifetime', () => {
  const cases: Array<[string, Role, boolean, string, string]> = [
    ['an admin', 'admin', true, '29 minutes', '31 minutes'],
    ['a manager', 'manager', false, '29 minutes', '31 minutes'],
    ['a remembered sender', 'user', true, '6 days 23 hours', '7 days 1 minute'],
    ['a sender not remembered', 'user', false, '1 hour 59 minutes', '2 hours 1 minute'],
  ];
  for (const [who, role, remember, fine, idle] of cases) {
    it(`keeps ${who} signed in after ${fine} idle, and signs them out after ${idle}`, async () => {
      const s = await session(role, remember);
      await lastSeen(s.id, fine);
      expect((await me(s.token)).statusCode).toBe(200);
      // That request counted as activity: the clock starts again.
      expect(await secondsSinceSeen(s.id)).toBeLessThan(5);
      await lastSeen(s.id, idle);
      const res = await me(s.token);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('Please sign in to continue.');
      // An idle session stays dead: a later request does not revive it.
      expect((await me(s.token)).statusCode).toBe(401);
    });
  }

  it('writes last_seen_at at most once a minute per session', async () => {
    const s = await session('user', false);
    await lastSeen(s.id, '30 seconds');
    expect((await me(s.token)).statusCode).toBe(200);
    expect(await secondsSinceSeen(s.id)).toBeGreaterThanOrEqual(29);
    await lastSeen(s.id, '90 seconds');
    expect((await me(s.token)).statusCode).toBe(200);
    expect(await secondsSinceSeen(s.id)).toBeLessThan(5);
  });

  it('judges staff by their current role: a sender promoted to admin gets the staff limit at once', async () => {
    const s = await session('user', true);
    await lastSeen(s.id, '1 hour');
    expect((await me(s.token)).statusCode).toBe(200);
    await t.database.db.execute(sql`update profiles set role = 'admin' where id = (select profile_id from sessions where id = ${s.id})`);
    await lastSeen(s.id, '1 hour');
    expect((await me(s.token)).statusCode).toBe(401);
  });
});

describe('"sign out everywhere" (docs/rules/accounts.md#sessions: every other session)', () => {
  const logoutAll = (token: string, lang?: string) => t.request({ method: 'POST', url: '/api/auth/logout-all', token, ...(lang ? { headers: { 'accept-language': lang } } : {}) });

  it('ends every other session of the account and keeps the caller\'s, which goes on working', async () => {
    const user = await createUser(t);
    const others = await Promise.all([1, 2, 3].map(() => t.tokens.createSession(user.id, { remember: true })));
    const stranger = await createUser(t);
    const res = await logoutAll(user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'You are signed out on every other device.', revoked: 3 });
    // The caller's session still works, for reads and writes alike.
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await t.request({ method: 'PATCH', url: '/api/profiles/me', token: user.token, payload: { full_name: 'Still Here' } })).statusCode).toBe(200);
    for (const other of others) expect((await me(other.token)).statusCode).toBe(401);
    const rows = await t.database.db.select({ id: sessions.id, revoked: sql<boolean>`${sessions.revoked_at} is not null` }).from(sessions).where(eq(sessions.profile_id, user.id));
    expect(rows.filter((r) => !r.revoked)).toHaveLength(1);
    // Another account's sessions are not touched; asked again, nothing is left to end.
    expect((await me(stranger.token)).statusCode).toBe(200);
    expect((await logoutAll(user.token, 'fr')).json()).toEqual({ message: 'Vous êtes déconnecté sur tous vos autres appareils.', revoked: 0 });
    expect((await me(user.token)).statusCode).toBe(200);
  });

  it('leaves a role change ending every session, the one that signed out the others included', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const user = await createUser(t);
    const other = await t.tokens.createSession(user.id, { remember: false });
    expect((await logoutAll(user.token)).json().revoked).toBe(1);
    expect((await me(other.token)).statusCode).toBe(401);
    expect((await t.request({ method: 'PATCH', url: `/api/profiles/${user.id}`, token: admin.token, payload: { role: 'manager' } })).statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(401);
  });
});

describe('session lookups of requests arriving together (looked up in one statement)', () => {
  it('gives each request its own caller; revoked, idle and unknown sessions in the same burst are refused alone', async () => {
    const live = await Promise.all([session('user', false), session('user', true), session('admin', false), session('user', false)]);
    const revoked = await session('user', false);
    await t.tokens.revokeSession(revoked.id);
    const idle = await session('admin', true);
    await lastSeen(idle.id, '31 minutes');
    const unknown = await t.tokens.createSession((await createUser(t)).id, { remember: false });
    await t.database.db.delete(sessions).where(eq(sessions.id, unknown.session.id));

    const expected = await Promise.all(live.map(async ({ id }) => (await t.database.db.select({ p: sessions.profile_id }).from(sessions).where(eq(sessions.id, id)))[0]!.p));
    const tokens = [...live.map((s) => s.token), revoked.token, idle.token, unknown.token, live[0]!.token];
    const answers = await Promise.all(tokens.map(me));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 401, 401, 401, 200]);
    expect(answers.filter((r) => r.statusCode === 200).map((r) => r.json().data.id)).toEqual([...expected, expected[0]]);
  });
});
