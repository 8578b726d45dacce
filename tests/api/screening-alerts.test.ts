import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { addCsv, altCsv, importListFiles, sdnCsv, type SdnRow } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Who is screened and what a hit does (docs/rules/screening.md#holds-and-alerts): a transfer's
// recipient at initiation (201, held, the sender told only that it is being checked), alerts with
// their explanation, decisions (a false positive releases and is not raised again for that person
// and unchanged entry; a confirmed match is an admin's and a second staff member's, and freezes),
// the hold threshold, stale lists holding new transfers, a sender's own hit, and the re-screening
// after a list version changes.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, sender] = await Promise.all([
    createUser(t, { role: 'admin', full_name: 'Ada Admin' }),
    createUser(t, { role: 'manager', full_name: 'Mona Manager' }), createUser(t, { full_name: 'Awa Sender' }),
  ]);
});
afterAll(async () => { await t.close(); });

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (token: string, method: Method, url: string, payload?: object) => t.request({ method, url, token, ...(payload ? { payload } : {}) });


const LISTED: SdnRow[] = [
  { ent_num: 7001, name: 'KAZANTSEV, Borislav Yevgenyevich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 14 Mar 1961; nationality Russia.' },
  { ent_num: 7002, name: 'OKONKWO-BASSEY, Tobenna', type: 'individual', programs: ['SDGT'], remarks: 'DOB 1975.' },
];
async function importOfac(rows: SdnRow[]) {
  const { outcome } = await importListFiles(t, admin.token, 'ofac_sdn', { 'sdn.csv': sdnCsv(rows), 'alt.csv': altCsv([{ ent_num: 7001, alt_num: 1, name: 'KAZANTSEV, Boris' }]), 'add.csv': addCsv([{ ent_num: 7001, add_num: 1, city: 'Moscow', country: 'Russia' }]) });
  expect(outcome).toMatchObject({ state: 'done' });
  return { id: outcome!.version_id! };
}

let nextPhone = 200_000;
async function send(name: string, phone = `+24177${nextPhone++}`, who = sender) {
  const res = await call(who.token, 'POST', '/api/payments/initiate', {
    source_provider: 'paypal_eur', destination_provider: 'airtel_gabon', amount: '100', currency: 'EUR',
    destination_details: { recipient_name: name, recipient_phone: phone },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; on_hold?: boolean };
}
type Alert = { id: string; status: string; subject: string; transfer: { id: string } | null; sender: { profile_id: string }; score: number; list_id: string; explanation: { listed_name: string; matched: unknown[] }; confirmation_proposed: boolean };
const alerts = async (status?: string) => {
  const res = await call(manager.token, 'GET', `/api/screening/alerts${status ? `?status=${status}` : ''}`);
  expect(res.statusCode).toBe(200);
  return res.json().data as Alert[];
};
const alertOf = async (transferId: string) => (await alerts()).find((a) => a.transfer?.id === transferId);
const decide = (token: string, id: string, decision: string, note = 'Checked by hand') => call(token, 'POST', `/api/screening/alerts/${id}/decision`, { decision, note });
const process = (id: string) => call(manager.token, 'PATCH', `/api/transfer-requests/${id}`, { status: 'processing' });
const senderView = async (id: string, who = sender) => (await call(who.token, 'GET', `/api/transfer-requests/${id}`)).json().data;

describe('before any list is imported', () => {
  it('says plainly that nobody is screened, and nothing is held', async () => {
    const lists = (await call(admin.token, 'GET', '/api/screening/lists')).json().data;
    expect(lists.screening_active).toBe(false);
    expect(lists.message).toMatch(/nobody is being screened/i);
    const transfer = await send('Borislav Kazantsev');
    expect(transfer.on_hold).toBeUndefined();
  });
});

describe('a transfer to a listed name', () => {
  beforeAll(async () => { await importOfac(LISTED); });

  it('answers 201, holds it, tells the sender only that it is being checked, and raises an explained alert', async () => {
    const transfer = await send('Borislav Kazantsev');
    expect(transfer.on_hold).toBe(true);
    const seen = await senderView(transfer.id);
    expect(seen.on_hold).toBe(true);
    // The recipient's name is the sender's own words; the list's spelling, list, programme and score are not.
    expect(JSON.stringify(seen)).not.toMatch(/KAZANTSEV|ofac|RUSSIA-EO14024|score|screening/);
    const alert = (await alertOf(transfer.id))!;
    expect(alert).toMatchObject({ status: 'open', subject: 'recipient', list_id: '7001', sender: { profile_id: sender.id } });
    expect(alert.score).toBeGreaterThanOrEqual(0.85);
    expect(alert.explanation.listed_name).toMatch(/KAZANTSEV/);
    expect(alert.explanation.matched.length).toBeGreaterThanOrEqual(2);
    const staff = (await call(manager.token, 'GET', `/api/transfer-requests/${transfer.id}`)).json().data;
    expect(staff.holds).toEqual([expect.objectContaining({ reason: 'screening', source_id: alert.id })]);
    expect((await process(transfer.id)).json().code).toBe('compliance_hold');
  });

  it('an ordinary name is not held', async () => {
    const transfer = await send('Jean-Pierre Mba Obame');
    expect(transfer.on_hold).toBeUndefined();
    expect(await alertOf(transfer.id)).toBeUndefined();
  });

  it('a false positive releases the hold, is audited, and is not raised again for that person while the entry is unchanged', async () => {
    const phone = '+24177055501';
    const transfer = await send('Tobenna Okonkwo Bassey', phone);
    const alert = (await alertOf(transfer.id))!;
    expect((await decide(manager.token, alert.id, 'false_positive', 'Born 1999 in Port-Gentil, not the listed man')).json().data).toMatchObject({ status: 'false_positive' });
    expect((await decide(manager.token, alert.id, 'false_positive')).json().code).toBe('alert_decided');
    expect((await senderView(transfer.id)).on_hold).toBe(false);
    expect((await process(transfer.id)).statusCode).toBe(200);
    const audit = (await call(admin.token, 'GET', `/api/audit?target_type=screening_alert&target_id=${alert.id}`)).json().data;
    expect(audit[0]).toMatchObject({ action: 'screening_alert.decide', after: { status: 'false_positive', holds_released: 1 } });

    // The same person (name and account) again: not raised.
    const again = await send('Tobenna Okonkwo Bassey', phone);
    expect(again.on_hold).toBeUndefined();
    expect(await alertOf(again.id)).toBeUndefined();
    // Another account under that name is another person: raised.
    const other = await send('Tobenna Okonkwo Bassey', '+24177055502');
    expect(other.on_hold).toBe(true);

    // The entry changes in a new version (new remarks): the same person is screened afresh.
    await importOfac([LISTED[0]!, { ...LISTED[1]!, remarks: 'DOB 1975; alt. DOB 1976.' }]);
    const changed = await send('Tobenna Okonkwo Bassey', phone);
    expect(changed.on_hold).toBe(true);
  });

  it('a confirmed match needs an admin and a second staff member, and keeps the transfer frozen', async () => {
    const transfer = await send('Borislav Y. Kazantsev');
    const alert = (await alertOf(transfer.id))!;
    expect((await decide(manager.token, alert.id, 'confirmed')).statusCode).toBe(403);
    const proposed = await decide(admin.token, alert.id, 'confirmed', 'Same man: the account was opened with his alias');
    expect(proposed.json().data).toMatchObject({ status: 'open', confirmation_proposed: true, decided_by: { profile_id: admin.id } });
    expect((await decide(admin.token, alert.id, 'confirmed')).json().code).toBe('second_staff_required');
    expect((await decide(manager.token, alert.id, 'false_positive')).json().code).toBe('alert_confirmation_pending');
    const agreed = await decide(manager.token, alert.id, 'confirmed', 'Agreed');
    expect(agreed.json().data).toMatchObject({ status: 'confirmed', decided_by: { profile_id: admin.id }, second_by: { profile_id: manager.id } });
    expect((await process(transfer.id)).json().code).toBe('compliance_hold');
    expect((await alerts('confirmed')).map((a) => a.id)).toContain(alert.id);
    expect((await alerts('open')).map((a) => a.id)).not.toContain(alert.id);
  });

  it('a bad decision body is refused with 400', async () => {
    const transfer = await send('Borislav Kazantsev');
    const alert = (await alertOf(transfer.id))!;
    expect((await call(manager.token, 'POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'maybe', note: 'x' })).statusCode).toBe(400);
    expect((await call(manager.token, 'POST', `/api/screening/alerts/${alert.id}/decision`, { decision: 'false_positive', note: ' ' })).statusCode).toBe(400);
  });
});

describe('the hold threshold (admin)', () => {
  it('is 0.85 by default, is edited (audited) and applies to the next transfer', async () => {
    expect((await call(admin.token, 'GET', '/api/screening/settings')).json().data).toEqual({ hold_threshold: 0.85, default_hold_threshold: 0.85 });
    expect((await call(manager.token, 'GET', '/api/screening/settings')).statusCode).toBe(403);
    expect((await call(admin.token, 'PUT', '/api/screening/settings', { hold_threshold: 0.3 })).statusCode).toBe(400);
    // A name close to the listed one: its score, read with the staff search, decides.
    const search = (await call(manager.token, 'POST', '/api/screening/search', { name: 'Borislav Kazantsov', country: 'GA' })).json().data;
    const score = search.matches[0].score as number;
    expect(score).toBeGreaterThanOrEqual(0.85);
    const above = Math.min(1, Math.ceil((score + 0.001) * 1000) / 1000);
    expect((await call(admin.token, 'PUT', '/api/screening/settings', { hold_threshold: above })).json().data.hold_threshold).toBe(above);
    expect((await send('Borislav Kazantsov')).on_hold).toBeUndefined();
    expect((await call(admin.token, 'PUT', '/api/screening/settings', { hold_threshold: 0.85 })).statusCode).toBe(200);
    expect((await send('Borislav Kazantsov')).on_hold).toBe(true);
    const audit = (await call(admin.token, 'GET', '/api/audit?target_type=screening_settings')).json().data;
    expect(audit[0]).toMatchObject({ action: 'screening_settings.update', before: { hold_threshold: above }, after: { hold_threshold: 0.85 } });
  });
});

describe('stale lists (fail closed)', () => {
  it('a required list older than 36 hours holds every new transfer, says so, and a fresh import releases once screened', async () => {
    await t.database.pool.query(`update screening_list_versions set imported_at = now() - interval '37 hours'
      where id = (select current_version_id from screening_sources where source = 'ofac_sdn')`);
    // Any settings write makes this process read the lists again at once (others: within 5 seconds).
    expect((await call(admin.token, 'PUT', '/api/screening/lists/ofac_sdn', { max_age_hours: 36 })).statusCode).toBe(200);
    const lists = (await call(admin.token, 'GET', '/api/screening/lists')).json().data;
    expect(lists.lists.find((l: { source: string }) => l.source === 'ofac_sdn').stale).toBe(true);
    expect(lists.message).toMatch(/OFAC/);
    const transfer = await send('Aïcha Moussavou');
    expect(transfer.on_hold).toBe(true);
    const staff = (await call(manager.token, 'GET', `/api/transfer-requests/${transfer.id}`)).json().data;
    expect(staff.holds).toEqual([expect.objectContaining({ reason: 'stale_lists', detail: { lists: ['ofac_sdn'] } })]);

    await importOfac([...LISTED, { ent_num: 7003, name: 'FRESH, Entry', type: 'individual' }]);
    await t.jobsDone();
    expect((await senderView(transfer.id)).on_hold).toBe(false);
    expect((await send('Aïcha Moussavou')).on_hold).toBeUndefined();
  });
});

describe('a sender\'s own hit', () => {
  it('reaching level 1 or changing their name screens them; a hit holds all their transfers and new ones', async () => {
    const person = await createUser(t, { full_name: 'Honest Sender', date_of_birth: '1961-03-14', country: 'RU' });
    const before = await send('Jean Ndong', undefined, person);
    const renamed = await call(person.token, 'PATCH', '/api/profiles/me', { full_name: 'Borislav Yevgenyevich Kazantsev' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(JSON.stringify(renamed.json())).not.toMatch(/KAZANTSEV|ofac|hold|screening|alert/);
    const alert = (await alerts('open')).find((a) => a.subject === 'sender' && a.sender.profile_id === person.id)!;
    expect(alert.score).toBeGreaterThanOrEqual(0.95);
    expect((await senderView(before.id, person)).on_hold).toBe(true);
    const after = await send('Marie Nguema', undefined, person);
    expect(after.on_hold).toBe(true);
    expect((await decide(manager.token, alert.id, 'false_positive', 'Namesake, other birth place')).statusCode).toBe(200);
    expect((await senderView(after.id, person)).on_hold).toBe(false);
  });
});

describe('what an alert says of each qualifier and of the listed entry', () => {
  type Qualifier = { qualifier: string; outcome: string; effect: string; query: string | null; listed: string | null; before: number; after: number };
  type Said = Alert & { listed: { kind: string; names: string[]; birth_dates: string[]; countries: string[]; programmes: string[] } | null; explanation: { qualifiers: Qualifier[] } };

  it('an exact name and date of birth read "matches" with effect none or raised, never "lowered"; the entry\'s facts are beside them', async () => {
    const person = await createUser(t, { full_name: 'Plain Name', date_of_birth: '1961-03-14', country: 'RU' });
    expect((await call(person.token, 'PATCH', '/api/profiles/me', { full_name: 'Borislav Yevgenyevich Kazantsev' })).statusCode).toBe(200);
    const alert = (await alerts('open')).find((a) => a.subject === 'sender' && a.sender.profile_id === person.id) as Said;
    expect(alert.score).toBe(1);
    const byName = Object.fromEntries(alert.explanation.qualifiers.map((q) => [q.qualifier, q]));
    expect(byName.birth_date).toMatchObject({ outcome: 'matches', query: '1961-03-14', listed: '1961-03-14' });
    expect(['none', 'raised']).toContain(byName.birth_date!.effect);
    expect(byName.country).toMatchObject({ outcome: 'matches', query: 'RU', listed: 'RU' });
    expect(alert.explanation.qualifiers.map((q) => q.effect)).not.toContain('lowered');
    expect(alert.listed).toEqual({
      kind: 'person', names: ['Borislav Yevgenyevich KAZANTSEV', 'Boris KAZANTSEV'], birth_dates: ['1961-03-14'], countries: ['RU'], programmes: ['RUSSIA-EO14024'],
    });
    // The entry's facts are answered beside the explanation, not inside it.
    expect(alert.explanation).not.toHaveProperty('entry');
    expect((await decide(manager.token, alert.id, 'false_positive', 'Other person, checked')).statusCode).toBe(200);
  });

  it('a recipient (no date of birth) reads the date of birth as unknown, changing nothing; an alert stored in the older words reads in today\'s', async () => {
    const transfer = await send('Borislav Kazantsev');
    const alert = (await alertOf(transfer.id)) as Said;
    expect(alert.explanation.qualifiers.find((q) => q.qualifier === 'birth_date')).toMatchObject({ outcome: 'unknown', effect: 'none', query: null, listed: '1961-03-14' });
    // Raised before qualifiers said their outcome: an exact date at 1 was called "lowered".
    await t.database.pool.query(`update screening_alerts set explanation = jsonb_set(explanation - 'entry', '{qualifiers}',
      '[{"qualifier":"birth_date","effect":"lowered","query":"1961-03-14","listed":"1961-03-14","before":1,"after":1}]') where id = $1`, [alert.id]);
    const older = (await alertOf(transfer.id)) as Said;
    expect(older.explanation.qualifiers).toEqual([{ qualifier: 'birth_date', outcome: 'matches', effect: 'none', query: '1961-03-14', listed: '1961-03-14', before: 1, after: 1 }]);
    // Its facts from the entry's row while that version's entries are kept.
    expect(older.listed).toMatchObject({ birth_dates: ['1961-03-14'], programmes: ['RUSSIA-EO14024'] });
  });
});

describe('re-screening after a list version changes', () => {
  it('screens every sender and saved recipient again, shows its progress, and raises the new hit', async () => {
    const person = await createUser(t, { full_name: 'Quentin Zephyrin Oyane', date_of_birth: '1980-01-01', country: 'GA' });
    const saved = await call(sender.token, 'POST', '/api/recipients', { channel: 'airtel_gabon', recipient_name: 'Ferdinand Ulrich Ebang', recipient_phone: '+24177066601' });
    expect(saved.statusCode, saved.body).toBe(201);
    const open = await send('Ferdinand Ulrich Ebang', '+24177066601');
    expect(open.on_hold).toBeUndefined();

    await importOfac([...LISTED, { ent_num: 7004, name: 'OYANE, Quentin Zephyrin', type: 'individual', remarks: 'DOB 1980.' },
      { ent_num: 7005, name: 'EBANG, Ferdinand Ulrich', type: 'individual' }]);
    await t.jobsDone();
    const progress = (await call(manager.token, 'GET', '/api/screening/rescreen')).json().data;
    expect(progress.total).toBeGreaterThan(0);
    expect(progress).toMatchObject({ done: progress.total, finished_at: expect.any(String) });
    expect(progress.alerts).toBeGreaterThanOrEqual(2);
    const raised = await alerts('open');
    expect(raised.find((a) => a.subject === 'sender' && a.sender.profile_id === person.id)).toMatchObject({ list_id: '7004' });
    expect(raised.find((a) => a.subject === 'recipient' && a.list_id === '7005')).toBeDefined();
    // The sender's open transfer to that saved recipient is held.
    expect((await senderView(open.id)).on_hold).toBe(true);
  });
});
