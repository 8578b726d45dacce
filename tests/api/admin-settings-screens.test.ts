import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// What the admin's Users and Quotes tabs rely on: each account's two-step sign-in in the list
// (docs/rules/accounts.md#two-step-sign-in) and its reset, audited; how long quotes hold per
// corridor (docs/rules/fees-and-rates.md#a-quote-is-a-promise), set by an admin only, within a
// minute and a week, audited.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
  manager = await createUser(t, { role: 'manager', full_name: 'Mona Manager', totp_secret: 'JBSWY3DPEHPK3PXP', totp_enabled_at: new Date() });
});
afterAll(async () => { await t?.close(); });

type Listed = { id: string; totp_enabled: boolean };
const listed = async (q: string) => {
  const res = await t.request({ method: 'GET', url: `/api/profiles?q=${encodeURIComponent(q)}`, token: admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Listed[];
};

describe('the Users tab: two-step sign-in', () => {
  it('lists whether each account signs in with two steps; a reset turns it off, signs the account out and is audited', async () => {
    const sender = await createUser(t, { full_name: 'Sam Sender' });
    expect((await listed(manager.email)).map((p) => [p.id, p.totp_enabled])).toEqual([[manager.id, true]]);
    expect((await listed(sender.email)).map((p) => [p.id, p.totp_enabled])).toEqual([[sender.id, false]]);

    const res = await t.request({ method: 'POST', url: `/api/admin/users/${manager.id}/mfa/reset`, token: admin.token });
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed(manager.email))[0]!.totp_enabled).toBe(false);
    expect((await t.request({ method: 'GET', url: '/api/profiles/me', token: manager.token })).statusCode).toBe(401);
    const audit = (await t.database.pool.query(`select actor_profile_id, before, after from audit_log where action = 'profile.mfa_reset' and target_id = $1`, [manager.id])).rows;
    expect(audit).toEqual([{ actor_profile_id: admin.id, before: { totp_enabled: true }, after: { totp_enabled: false } }]);
  });

  it('is the admin\'s: a manager reads no list and resets nothing', async () => {
    const other = await createUser(t, { role: 'manager' });
    expect((await t.request({ method: 'GET', url: '/api/profiles', token: other.token })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: `/api/admin/users/${admin.id}/mfa/reset`, token: other.token })).statusCode).toBe(403);
  });
});

describe('the Quotes tab: how long a quote holds', () => {
  const validity = async () => Object.fromEntries(
    ((await t.request({ method: 'GET', url: '/api/quotes/validity', token: admin.token })).json().data as { direction: string; minutes: number }[])
      .map((v) => [v.direction, v.minutes]),
  );
  const put = (who: TestUser, minutes: unknown) =>
    t.request({ method: 'PUT', url: '/api/quotes/validity', token: who.token, payload: { direction: 'EUR_RWF', minutes } });

  it('takes a minute and a week (10080 minutes), refuses 0 and a minute more, audits each change', async () => {
    for (const minutes of [1, 10080]) expect((await put(admin, minutes)).statusCode).toBe(200);
    expect((await validity()).EUR_RWF).toBe(10080);
    for (const minutes of [0, 10081]) {
      const res = await put(admin, minutes);
      expect([res.statusCode, res.json().error]).toEqual([400, 'Enter a whole number of minutes from 1 to 10080 (a week).']);
    }
    expect((await put(admin, 30)).statusCode).toBe(200);
    const audit = (await t.database.pool.query(`select actor_profile_id, before, after from audit_log where action = 'quote_validity.update' and target_id = 'EUR_RWF' order by created_at`)).rows;
    expect(audit).toEqual([
      { actor_profile_id: admin.id, before: { minutes: 30 }, after: { minutes: 1 } },
      { actor_profile_id: admin.id, before: { minutes: 1 }, after: { minutes: 10080 } },
      { actor_profile_id: admin.id, before: { minutes: 10080 }, after: { minutes: 30 } },
    ]);
  });

  it('is refused to a manager (403), changing nothing', async () => {
    const other = await createUser(t, { role: 'manager' });
    expect((await put(other, 5)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/quotes/validity', token: other.token })).statusCode).toBe(403);
    expect((await validity()).EUR_RWF).toBe(30);
  });
});
