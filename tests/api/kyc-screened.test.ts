import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseExpiredAccounts } from '@server/modules/privacy/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { addCsv, altCsv, importListFiles, sdnCsv } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// Level 1 is a complete profile *and screened* (docs/rules/know-your-sender.md#levels): a sender
// whose own screening has not run on their current name and date of birth is screened when their
// level is read; while it cannot run they stay at level 0, told to wait for it, and cannot send.
// A hit keeps its hold on all their transfers (docs/rules/screening.md#holds-and-alerts).

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager] = await Promise.all([createUser(t, { role: 'admin' }), createUser(t, { role: 'manager' })]);
});
afterAll(async () => { await t?.close(); });

type Method = 'GET' | 'POST' | 'PATCH';
const call = (token: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.request({ method, url, token, headers: { 'accept-language': lang, 'x-forwarded-for': uniqueAddress() }, ...(payload ? { payload } : {}) });
const kyc = async (user: TestUser) => {
  const res = await call(user.token, 'GET', '/api/kyc');
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { level: number; next: { level: number; provide: string[] } | null };
};
const screenedFor = async (user: TestUser) =>
  (await t.database.pool.query<{ screened_for: string | null }>('select screened_for from profiles where id = $1', [user.id])).rows[0]!.screened_for;
const initiate = (user: TestUser, lang = 'en') => call(user.token, 'POST', '/api/payments/initiate', {
  source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '100', currency: 'EUR',
  destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
}, lang);

/** Recording the screening of one profile fails, as a database error in the screening would. */
async function screeningBreaks(profileId: string) {
  await t.database.pool.query(`create or replace function test_screening_breaks() returns trigger language plpgsql as $$
    begin raise exception 'screening unavailable'; end $$`);
  await t.database.pool.query(`create trigger test_screening_breaks before update of screened_for on profiles
    for each row when (new.id = '${profileId}'::uuid) execute function test_screening_breaks()`);
}
const screeningMends = () => t.database.pool.query('drop trigger test_screening_breaks on profiles');

describe('level 1 waits for the sender\'s own screening', () => {
  it('a complete profile never screened is screened when its level is read, then is level 1', async () => {
    const sender = await createUser(t, { kyc_level: 0 });
    expect(await screenedFor(sender)).toBeNull();
    expect((await kyc(sender)).level).toBe(1);
    const digest = await screenedFor(sender);
    expect(digest).toMatch(/^[\w-]{43}$/);
    // Not screened again while the name and date of birth stay; a new name is screened again.
    expect((await call(sender.token, 'PATCH', '/api/profiles/me', { phone: '+241 66 00 11 22' })).statusCode).toBe(200);
    expect((await kyc(sender)).level).toBe(1);
    expect(await screenedFor(sender)).toBe(digest);
    expect((await call(sender.token, 'PATCH', '/api/profiles/me', { full_name: 'Awa Mbina Ndong' })).statusCode).toBe(200);
    expect((await kyc(sender)).level).toBe(1);
    expect(await screenedFor(sender)).not.toBe(digest);
    // The digest is bookkeeping, not data the sender gave: it is not in their export.
    expect((await call(sender.token, 'GET', '/api/profiles/me/export')).body).not.toContain('screened_for');
  });

  it('while it cannot run the sender is level 0, waiting for it (not asked to complete anything), and cannot send; once it runs, level 1', async () => {
    const sender = await createUser(t, { kyc_level: 2 });
    await screeningBreaks(sender.id);
    try {
      expect(await kyc(sender)).toMatchObject({ level: 0, next: { level: 1, provide: ['screening'] } });
      const refused = await initiate(sender);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'kyc_required', level: 0, provide: ['screening'] });
      expect(refused.json().error).toBe('Complete your profile before sending money: the check of your name against sanctions lists, which runs by itself (try again in a few minutes).');
      const fr = await initiate(sender, 'fr');
      expect(fr.json().error).toContain('la vérification de votre nom sur les listes de sanctions');
      // A quote is still priced, as for any level-0 account.
      expect((await call(sender.token, 'POST', '/api/quotes', { direction: 'EUR_XAF', amount: '100' })).statusCode).toBe(200);
      expect(await screenedFor(sender)).toBeNull();
    } finally {
      await screeningMends();
    }
    // The next read screens them: the level staff approved is theirs again.
    expect(await kyc(sender)).toMatchObject({ level: 2 });
    expect((await initiate(sender)).statusCode).toBe(201);
  });

  it('a listed sender never screened is caught when their level is read: their own hit holds their transfers, one alert', async () => {
    const files = {
      'sdn.csv': sdnCsv([{ ent_num: 7101, name: 'KAZANTSEV, Borislav Yevgenyevich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 14 Mar 1961; nationality Russia.' }]),
      'alt.csv': altCsv([]), 'add.csv': addCsv([]),
    };
    const { outcome } = await importListFiles(t, admin.token, 'ofac_sdn', files);
    expect(outcome).toMatchObject({ state: 'done' });

    const listed = await createUser(t, { full_name: 'Borislav Yevgenyevich Kazantsev', date_of_birth: '1961-03-14', country: 'RU', kyc_level: 0 });
    // Screened, so level 1; what stops the transfers is the hold, as for a hit on a profile change.
    expect((await kyc(listed)).level).toBe(1);
    const sent = await initiate(listed);
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().data.on_hold).toBe(true);
    expect((await kyc(listed)).level).toBe(1);
    const alerts = (await call(manager.token, 'GET', '/api/screening/alerts?status=open')).json().data as { subject: string; sender: { profile_id: string } }[];
    expect(alerts.filter((a) => a.subject === 'sender' && a.sender.profile_id === listed.id)).toHaveLength(1);
  });

  it('a listed sender screened by several reads at once gets one alert, not one per read', async () => {
    // The list imported above; a second person of the same name and birth date.
    const twin = await createUser(t, { full_name: 'Borislav Yevgenyevich Kazantsev', date_of_birth: '1961-03-14', country: 'RU', kyc_level: 0 });
    await Promise.all([kyc(twin), kyc(twin), kyc(twin), kyc(twin)]);
    const alerts = (await call(manager.token, 'GET', '/api/screening/alerts?status=open')).json().data as { subject: string; sender: { profile_id: string } }[];
    expect(alerts.filter((a) => a.subject === 'sender' && a.sender.profile_id === twin.id)).toHaveLength(1);
  });
});

describe('the digest of what the screening ran on', () => {
  it('is erased with the rest of the identity once a closed account\'s 5 years are over', async () => {
    const sender = await createUser(t);
    expect((await kyc(sender)).level).toBe(3);
    expect(await screenedFor(sender)).not.toBeNull();
    const closed = await call(sender.token, 'POST', '/api/profiles/me/close', { current_password: sender.password });
    expect(closed.statusCode, closed.body).toBe(200);
    const closedAt = new Date(closed.json().closed_at as string);
    const sixYearsOn = new Date(closedAt.getTime() + 6 * 366 * 24 * 3600 * 1000);
    expect(await eraseExpiredAccounts({ db: t.database.db, log: pino({ level: 'silent' }) }, sixYearsOn)).toBeGreaterThanOrEqual(1);
    expect(await screenedFor(sender)).toBeNull();
  });
});
