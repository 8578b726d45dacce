import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { addCsv, altCsv, euCsv, importListFiles, sdnCsv, ukCsv, unXml, type SdnRow } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The sanctions lists in the product (docs/rules/screening.md#lists-in-the-product): imports of
// each list's official files as versions, the lists' state for staff, the admin's settings,
// and the search staff use to check a name by hand.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, sender] = await Promise.all([createUser(t, { role: 'admin' }), createUser(t, { role: 'manager' }), createUser(t)]);
});
afterAll(async () => { await t.close(); });

/** The upload's own answer (202, or a refusal), then the import once the worker has done it. */
const upload = (token: string, source: string, files: Record<string, string | Buffer>) => importListFiles(t, token, source, files);

const overview = async (token = manager.token) => {
  const res = await t.request({ method: 'GET', url: '/api/screening/lists', token });
  expect(res.statusCode).toBe(200);
  return res.json().data as {
    screening_active: boolean; message: string;
    lists: { source: string; current: { id: string; sha256: string; entries: number; names: number } | null; age_hours: number | null; required: boolean; max_age_hours: number; stale: boolean }[];
  };
};
const listOf = async (source: string) => (await overview()).lists.find((l) => l.source === source)!;

type Match = { score: number; source: string; list_id: string; name: string; aliases: string[]; birth_dates: string[]; countries: string[]; programmes: string[]; explanation: { listed_name: string; matched: { query: string; listed: string; how: string }[] } };
async function search(body: object, token = manager.token) {
  const res = await t.request({ method: 'POST', url: '/api/screening/search', token, payload: body });
  expect(res.statusCode).toBe(200);
  return res.json().data as { screening_active: boolean; hold_threshold: number; matches: Match[] };
}

const count = async (sql: string, params: unknown[] = []) => Number((await t.database.pool.query(sql, params)).rows[0].n);
const versions = (source: string) => count('select count(*) as n from screening_list_versions where source = $1', [source]);
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

// Two people and a company; the first has two aliases and an address.
const SDN: SdnRow[] = [
  { ent_num: 9101, name: 'KOVALENKO, Yevgeny Petrovich', type: 'individual', programs: ['RUSSIA-EO14024'], remarks: 'DOB 14 Feb 1971; nationality Russia.' },
  { ent_num: 9102, name: 'OKONKWO-BALEWA, Chidubem', type: 'individual', programs: ['SDGT'], remarks: 'DOB 1980; nationality Nigeria.' },
  { ent_num: 9103, name: 'NORTHWIND MARITIME HOLDINGS LLC', programs: ['IRAN'] },
];
const ALT = altCsv([
  { ent_num: 9101, alt_num: 501, name: 'KOVALENKO, Evgeniy' },
  { ent_num: 9101, alt_num: 502, name: 'KOVALENKO, Evgenii Petrovich' },
]);
const ADD = addCsv([{ ent_num: 9101, add_num: 601, city: 'Moscow', country: 'Russia' }]);
const OFAC = { 'sdn.csv': sdnCsv(SDN), 'alt.csv': ALT, 'add.csv': ADD };

describe('before any list is imported', () => {
  it('says plainly that nobody is screened, and a search answers nothing', async () => {
    const state = await overview();
    expect(state.screening_active).toBe(false);
    expect(state.message).toBe('No sanctions list has been imported: nobody is being screened. Import at least one list.');
    expect(state.lists.map((l) => [l.source, l.current, l.required, l.max_age_hours, l.stale])).toEqual([
      ['eu', null, false, 36, false], ['ofac_sdn', null, false, 36, false], ['uk', null, false, 36, false], ['un', null, false, 36, false],
    ]);
    expect(await search({ name: 'Yevgeny Kovalenko' })).toEqual({ screening_active: false, hold_threshold: 0.85, matches: [] });
  });
});

describe('importing each list\'s official files', () => {
  it('OFAC (sdn.csv, alt.csv, add.csv): the new version with its counts, made required; the same files again make no new version', async () => {
    // Sent in another order than the parser reads them: alt.csv is needed before sdn.csv.
    const { posted, outcome } = await upload(admin.token, 'ofac_sdn', { 'add.csv': ADD, 'SDN.CSV': OFAC['sdn.csv'], 'alt.csv': ALT });
    // Answered at once: the import is queued as durable work.
    expect(posted.statusCode).toBe(202);
    expect(posted.json().data).toMatchObject({ source: 'ofac_sdn', state: 'queued', files: ['add.csv', 'sdn.csv', 'alt.csv'], entries_read: 0, version_id: null, error: null, imported_by: admin.id });
    expect(outcome).toMatchObject({ id: posted.json().data.id, state: 'done', entries_read: 3, names_cut: 0, unchanged: false, error: null });
    const expectedSha = sha(`sdn.csv:${sha(OFAC['sdn.csv'])}\nalt.csv:${sha(ALT)}\nadd.csv:${sha(ADD)}\n`);
    // 3 entries; names: 3 primary + 2 aliases.
    const list = await listOf('ofac_sdn');
    expect(list).toMatchObject({ current: { id: outcome!.version_id, sha256: expectedSha, entries: 3, names: 5 }, required: true, max_age_hours: 36, stale: false });
    expect(list.age_hours).toBeLessThan(0.1);
    // The stored pieces of the files are gone once read.
    expect(await count('select count(*) as n from screening_list_import_chunks')).toBe(0);

    const again = await upload(admin.token, 'ofac_sdn', OFAC);
    expect(again.posted.statusCode).toBe(202);
    expect(again.outcome).toMatchObject({ state: 'done', version_id: outcome!.version_id, unchanged: true });
    expect(await versions('ofac_sdn')).toBe(1);
  });

  it('the EU consolidated CSV, the UN consolidated XML, the UK sanctions list CSV', async () => {
    const eu = euCsv([
      { id: 301, person: true, programme: 'UKR', names: [{ whole: 'Arkady Semyonovich Volkov', first: 'Arkady', last: 'Volkov' }, { whole: 'Аркадий Волков' }], birth_dates: [{ date: '1965-07-02' }], citizenships: [{ iso2: 'RU', description: 'Russia' }] },
      { id: 302, person: false, programme: 'SYR', names: [{ whole: 'Damascus Cement Trading Company' }] },
    ]);
    const un = unXml(
      [{ dataid: 6908001, first: 'HAMID', second: 'ABDULLAH', third: 'AL-ZUBAIDI', list_type: 'Al-Qaida', reference: 'QDi.401', aliases: [{ quality: 'Good', name: 'Abu Hamza al-Zubaidi' }], birth: [{ type: 'EXACT', date: '1975-03-01' }], nationalities: ['Iraq'] }],
      [{ dataid: 6908002, name: 'SUNRISE RELIEF FOUNDATION', list_type: 'Al-Qaida', reference: 'QDe.201', aliases: ['SUNRISE CHARITY'] }],
    );
    const uk = ukCsv([
      { id: 'RUS1234', type: 'Individual', regime: 'Russia', names: [{ forenames: ['Oleg', 'Ivanovich'], last: 'SMIRNOV' }, { forenames: ['Oleh'], last: 'SMYRNOV' }], dob: '03/11/1969', nationality: 'Russia' },
    ]);
    for (const [source, filename, content, entries, names] of [
      ['eu', '20261126-FULL-1_1(xsd).csv', eu, 2, 3], ['un', 'consolidated.xml', un, 2, 4], ['uk', 'UK-Sanctions-List.csv', uk, 1, 2],
    ] as const) {
      const { posted, outcome } = await upload(admin.token, source, { [filename]: content });
      expect(posted.statusCode, source).toBe(202);
      expect(outcome, source).toMatchObject({ state: 'done', entries_read: entries, unchanged: false });
      expect(await listOf(source), source).toMatchObject({ current: { id: outcome!.version_id, source, sha256: sha(content), entries, names, imported_by: admin.id }, required: true, stale: false });
    }
    const state = await overview();
    expect(state.screening_active).toBe(true);
    expect(state.message).toBe('Screening against EU consolidated list, OFAC SDN, UK sanctions list, UN consolidated list.');
  });

  it('a malformed file is refused with its file and line, and nothing is stored', async () => {
    const entriesBefore = await count('select count(*) as n from screening_list_entries');
    const before = await listOf('ofac_sdn');
    // The third line has too few fields (the first two are good and would be written in the same transaction).
    const bad = sdnCsv([...SDN.slice(0, 2), { ent_num: 9999, name: 'NEW PERSON' }]).replace(/9999,"NEW PERSON".*\r\n/, '9999,"NEW PERSON",-0- \r\n');
    const { posted, outcome } = await upload(admin.token, 'ofac_sdn', { 'sdn.csv': bad, 'alt.csv': ALT });
    expect(posted.statusCode).toBe(202);
    expect(outcome).toMatchObject({ state: 'failed', version_id: null, error: { code: 'list_format_invalid', file: 'sdn.csv', line: 3 } });
    expect(outcome!.error!.message).toMatch(/^sdn\.csv, line 3: this is not the list’s official file format \(expected 12 fields, found 3\)/);
    expect(await count('select count(*) as n from screening_list_import_chunks')).toBe(0);
    expect(await versions('ofac_sdn')).toBe(1);
    expect(await count('select count(*) as n from screening_list_entries')).toBe(entriesBefore);
    expect(await listOf('ofac_sdn')).toEqual(before);

    // Not XML at all, under the UN's name: refused the same way, named as sent.
    const un = await upload(admin.token, 'un', { 'consolidated.xml': 'Name,Date\nfoo,bar\n' });
    expect(un.outcome).toMatchObject({ state: 'failed', error: { code: 'list_format_invalid', file: 'consolidated.xml' } });
    expect(await versions('un')).toBe(1);
  });

  it('files that are not the list\'s: no sdn.csv, an unknown OFAC name, two files for one list, four files, no file, no source', async () => {
    for (const [source, files] of [
      ['ofac_sdn', { 'alt.csv': ALT }], ['ofac_sdn', { 'sdn.csv': OFAC['sdn.csv'], 'names.csv': ALT }], ['eu', { 'a.csv': 'x', 'b.csv': 'y' }],
    ] as const) {
      const { posted } = await upload(admin.token, source, files);
      expect(posted.statusCode, source).toBe(400);
      expect(posted.json().code, source).toBe('list_files_invalid');
    }
    const { posted: fourFiles } = await upload(admin.token, 'ofac_sdn', { ...OFAC, 'sdn2.csv': OFAC['sdn.csv'] });
    expect(fourFiles.statusCode).toBe(400);
    expect(fourFiles.json().code).toBe('list_files_invalid');
    const notMultipart = await t.request({ method: 'POST', url: '/api/screening/lists', token: admin.token, payload: { source: 'eu' } });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json()).toMatchObject({ code: 'list_files_invalid', error: 'Send the list’s official file: sdn.csv, with alt.csv and add.csv if you have them (OFAC); one file for eu, un and uk.' });
    const { posted: noSource } = await upload(admin.token, 'interpol', { 'sdn.csv': OFAC['sdn.csv'] });
    expect(noSource.statusCode).toBe(400);
    expect(noSource.json()).toMatchObject({ code: 'validation_failed', fields: { source: 'Choose a list: ofac_sdn, eu, un or uk.' } });
    expect(await versions('ofac_sdn')).toBe(1);
  });
});

describe('who may do what', () => {
  it('a sender gets nothing; a manager reads and searches but cannot import or change a list', async () => {
    for (const res of [
      (await upload(sender.token, 'ofac_sdn', OFAC)).posted,
      await t.request({ method: 'GET', url: '/api/screening/lists', token: sender.token }),
      await t.request({ method: 'PUT', url: '/api/screening/lists/eu', token: sender.token, payload: { required: false } }),
      await t.request({ method: 'POST', url: '/api/screening/search', token: sender.token, payload: { name: 'Yevgeny Kovalenko' } }),
      (await upload(manager.token, 'ofac_sdn', OFAC)).posted,
      await t.request({ method: 'PUT', url: '/api/screening/lists/eu', token: manager.token, payload: { required: false } }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
    expect((await t.request({ method: 'GET', url: '/api/screening/lists', token: manager.token })).statusCode).toBe(200);
    expect((await search({ name: 'Yevgeny Kovalenko' }, manager.token)).screening_active).toBe(true);
  });
});

describe('searching a name by hand', () => {
  it('finds a listed person under another spelling, with the entry and its explanation; an ordinary name finds nothing to hold', async () => {
    const found = await search({ name: 'Evgeny Kovalenko', birth_date: '1971-02-14', country: 'RU' });
    expect(found.screening_active).toBe(true);
    const best = found.matches[0]!;
    expect(best).toMatchObject({
      source: 'ofac_sdn', list_id: '9101', name: 'Yevgeny Petrovich KOVALENKO', aliases: ['Evgeniy KOVALENKO', 'Evgenii Petrovich KOVALENKO'],
      birth_dates: ['1971-02-14'], countries: ['RU'], programmes: ['RUSSIA-EO14024'],
    });
    expect(best.score).toBeGreaterThanOrEqual(found.hold_threshold);
    expect(best.explanation.matched.map((m) => m.query).sort()).toEqual(['evgeny', 'kovalenko']);

    // Found in the other lists too: the EU's Cyrillic alias, the UK's alias.
    expect((await search({ name: 'Arkadiy Volkov' })).matches[0]).toMatchObject({ source: 'eu', list_id: '301' });
    expect((await search({ name: 'Oleh Smyrnov' })).matches[0]).toMatchObject({ source: 'uk', list_id: 'RUS1234' });

    const ordinary = await search({ name: 'Marie-Claire Mboumba Nzamba', birth_date: '1988-05-20', country: 'GA' });
    expect(ordinary.matches.filter((m) => m.score >= ordinary.hold_threshold)).toEqual([]);
  });

  it('refuses a search without a name', async () => {
    const res = await t.request({ method: 'POST', url: '/api/screening/search', token: manager.token, payload: { name: '  ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', error: 'Enter a name to search.' });
  });
});

describe('a new version of a list', () => {
  it('replaces the index: a name added is found, a name removed is not', async () => {
    const next = [SDN[1]!, SDN[2]!, { ent_num: 9104, name: 'ZAKHARCHENKO, Valentyna', type: 'individual' as const, programs: ['UKRAINE-EO13660'], remarks: 'DOB 1962.' }];
    const { outcome } = await upload(admin.token, 'ofac_sdn', { 'sdn.csv': sdnCsv(next) });
    expect(outcome).toMatchObject({ state: 'done', entries_read: 3, unchanged: false });
    expect((await listOf('ofac_sdn')).current).toMatchObject({ id: outcome!.version_id, entries: 3, names: 3 });
    expect(await versions('ofac_sdn')).toBe(2);

    const added = await search({ name: 'Valentyna Zakharchenko' });
    expect(added.matches[0]).toMatchObject({ source: 'ofac_sdn', list_id: '9104', version_id: outcome!.version_id });
    const removed = await search({ name: 'Yevgeny Kovalenko' });
    expect(removed.matches.filter((m) => m.source === 'ofac_sdn' && m.list_id === '9101')).toEqual([]);
  });

  it('an entry unchanged between versions keeps its fingerprint', async () => {
    const { rows } = await t.database.pool.query(
      `select e.fingerprint, v.id as version from screening_list_entries e join screening_list_versions v on v.id = e.version_id
        where v.source = 'ofac_sdn' and e.list_id = '9102' order by v.imported_at`);
    expect(rows).toHaveLength(2);
    expect(rows[0].fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[1].fingerprint).toBe(rows[0].fingerprint);
  });

  it('another server process picks the new version up on its next search', async () => {
    const twin = await createTestApp({ sharing: t });
    // A session signed by the twin's own secret, as a second server with its own would issue.
    const { token } = await twin.tokens.createSession(manager.id, { mfaVerified: true });
    try {
      const before = await twin.request({ method: 'POST', url: '/api/screening/search', token, payload: { name: 'Valentyna Zakharchenko' } });
      expect(before.json().data.matches[0]).toMatchObject({ list_id: '9104' });
      const { outcome } = await upload(admin.token, 'ofac_sdn', { 'sdn.csv': sdnCsv([SDN[0]!]) });
      expect(outcome).toMatchObject({ state: 'done', unchanged: false });
      // The twin checks the current versions at most every few seconds (docs/rules/screening.md#lists-in-the-product).
      await expect.poll(async () => {
        const r = await twin.request({ method: 'POST', url: '/api/screening/search', token, payload: { name: 'Yevgeny Kovalenko' } });
        return r.json().data.matches[0]?.list_id;
      }, { timeout: 8_000, interval: 250 }).toBe('9101');
    } finally {
      await twin.close();
    }
  });
});

describe('the admin\'s settings and staleness', () => {
  it('a required list older than its maximum age is stale and said so; the admin may make it not required; both audited', async () => {
    await t.database.pool.query(`update screening_list_versions set imported_at = now() - interval '40 hours' where source = 'uk'`);
    const stale = await overview();
    expect(stale.lists.find((l) => l.source === 'uk')).toMatchObject({ required: true, max_age_hours: 36, stale: true });
    expect(stale.lists.find((l) => l.source === 'uk')!.age_hours).toBeCloseTo(40, 0);
    expect(stale.message).toBe('Out of date: UK sanctions list. Import a fresh version.');

    const longer = await t.request({ method: 'PUT', url: '/api/screening/lists/uk', token: admin.token, payload: { max_age_hours: 48 } });
    expect(longer.statusCode).toBe(200);
    expect(longer.json().data).toMatchObject({ source: 'uk', required: true, max_age_hours: 48, stale: false });

    await t.request({ method: 'PUT', url: '/api/screening/lists/uk', token: admin.token, payload: { max_age_hours: 24 } });
    const optional = await t.request({ method: 'PUT', url: '/api/screening/lists/uk', token: admin.token, payload: { required: false } });
    expect(optional.json().data).toMatchObject({ required: false, max_age_hours: 24, stale: false });

    for (const payload of [{}, { max_age_hours: 0 }, { max_age_hours: 1.5 }, { required: 'no' }]) {
      const res = await t.request({ method: 'PUT', url: '/api/screening/lists/uk', token: admin.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    // A list the product does not know names nothing: 404, as a malformed id does.
    const unknown = await t.request({ method: 'PUT', url: '/api/screening/lists/interpol', token: admin.token, payload: { required: true } });
    expect(unknown.statusCode).toBe(404);

    const { rows } = await t.database.pool.query(
      `select actor_profile_id, before, after from audit_log where action = 'screening_list.update' and target_id = 'uk' order by id`);
    expect(rows.map((r) => [r.actor_profile_id, r.before, r.after])).toEqual([
      [admin.id, { required: true, max_age_hours: 36 }, { required: true, max_age_hours: 48 }],
      [admin.id, { required: true, max_age_hours: 48 }, { required: true, max_age_hours: 24 }],
      [admin.id, { required: true, max_age_hours: 24 }, { required: false, max_age_hours: 24 }],
    ]);
  });

  it('every import is audited: who, the version before and after, and the same file sent again', async () => {
    const { rows } = await t.database.pool.query(
      `select actor_profile_id, before, after from audit_log where action = 'screening_list.import' and target_type = 'screening_list' and target_id = 'ofac_sdn' order by id`);
    expect(rows.map((r) => [r.actor_profile_id, r.after.entries ?? null, r.after.unchanged ?? false, r.after.files ?? null])).toEqual([
      [admin.id, 3, false, ['add.csv', 'sdn.csv', 'alt.csv']],
      [admin.id, null, true, null],
      [admin.id, 3, false, ['sdn.csv']],
      [admin.id, 1, false, ['sdn.csv']],
    ]);
    expect(rows[0].before).toBeNull();
    expect(rows[2].before).toMatchObject({ version_id: rows[0].after.version_id, entries: 3 });
    // Nothing refused left a row.
    expect(await count(`select count(*) as n from audit_log where action = 'screening_list.import'`)).toBe(4 + 3);
  });
});
