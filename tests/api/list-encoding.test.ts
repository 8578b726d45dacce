import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { altCsv, encode, importListFiles, sdnCsv } from '../support/sanctions-files.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A sanctions list in Windows-1252 (docs/rules/screening.md#list-files, "Encoding"): the bytes
// 0x80–0x9F are letters, quotes and dashes there (0x8A is "Š"), not Latin-1's control codes,
// so "Vojislav ŠEŠELJ" is listed as himself and found as "Seselj" and as "ŠEŠELJ".

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager] = await Promise.all([createUser(t, { role: 'admin' }), createUser(t, { role: 'manager' })]);
});
afterAll(async () => { await t.close(); });

type Match = { score: number; list_id: string; name: string; aliases: string[]; explanation: { listed_name: string; matched: { query: string; listed: string; how: string }[] } };
async function search(name: string) {
  const res = await t.request({ method: 'POST', url: '/api/screening/search', token: manager.token, payload: { name } });
  expect(res.statusCode).toBe(200);
  return res.json().data as { screening_active: boolean; hold_threshold: number; matches: Match[] };
}

/** Bytes written out: numbers are the bytes themselves, strings ASCII. */
const bytes = (...parts: Array<string | number>) => Buffer.concat(parts.map((p) => (typeof p === 'number' ? Buffer.of(p) : Buffer.from(p, 'ascii'))));

// sdn.csv byte by byte, not through the tests' encoder: "ŠEŠELJ, Vojislav" with 0x8A for each Š,
// a remark with Windows-1252's curly quotes (0x93, 0x94) and en dash (0x96), then the 0x1A OFAC ends with.
const SESELJ_LINE = bytes(
  '9201,"', 0x8a, 'E', 0x8a, 'ELJ, Vojislav","individual","BALKANS",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,',
  '"DOB 11 Oct 1954; POB Sarajevo, Bosnia and Herzegovina; nationality Serbia; leader of the ', 0x93, 'Serbian Radical Party', 0x94, ' ', 0x96, ' listed 2001."\r\n',
);
// The other letters through encode(), which uses the inverse of the server's table (checked in
// src/server/lib/windows-1252.test.ts against characters written out).
const COMPANY = 'BŒUF & SŒUR “ŽUTA” – ŠTIT — Ÿ €';
const SDN = Buffer.concat([
  SESELJ_LINE,
  encode(sdnCsv([{ ent_num: 9202, name: COMPANY, programs: ['BALKANS'], remarks: 'Trades as ‘Žuta’ — Œuvres.' }]).replace('\x1a', ''), 'windows-1252'),
  bytes(0x1a),
]);
const ALT = Buffer.concat([
  // "Šešelj, Vojo": 0x8A is Š, 0x9A is š.
  bytes('9201,501,"aka","', 0x8a, 'e', 0x9a, 'elj, Vojo",-0- \r\n'),
  encode(altCsv([{ ent_num: 9202, alt_num: 502, name: 'bœuf & sœur ‘žuta’ – štit' }]).replace('\x1a', ''), 'windows-1252'),
  bytes(0x1a),
]);

describe('a list file in Windows-1252', () => {
  it('is written as Windows-1252: the test\'s own bytes and the encoder agree, and it is not UTF-8', () => {
    expect([...encode('ŠEŠELJ', 'windows-1252')]).toEqual([0x8a, 0x45, 0x8a, 0x45, 0x4c, 0x4a]);
    expect([...encode('šŽžŒœŸ€‘’“”–—', 'windows-1252')]).toEqual([0x9a, 0x8e, 0x9e, 0x8c, 0x9c, 0x9f, 0x80, 0x91, 0x92, 0x93, 0x94, 0x96, 0x97]);
    expect(SDN.includes(Buffer.from('Š', 'utf8'))).toBe(false);
  });

  it('imports with every letter right, and screening finds "Vojislav ŠEŠELJ" as "Vojislav Seselj", "ŠEŠELJ, Vojislav", "Seselj" and "ŠEŠELJ"', async () => {
    const { posted, outcome } = await importListFiles(t, admin.token, 'ofac_sdn', { 'sdn.csv': SDN, 'alt.csv': ALT });
    expect(posted.statusCode).toBe(202);
    expect(outcome).toMatchObject({ state: 'done', entries_read: 2, names_cut: 0, error: null });

    // In full, he scores 1; the explanation shows the surname read from the file as "seselj".
    for (const query of ['Vojislav Seselj', 'Vojislav ŠEŠELJ', 'ŠEŠELJ, Vojislav', 'seselj vojislav']) {
      const { screening_active, hold_threshold, matches } = await search(query);
      expect(screening_active).toBe(true);
      expect(matches[0], query).toMatchObject({ list_id: '9201', name: 'Vojislav ŠEŠELJ', aliases: ['Vojo Šešelj'], score: 1 });
      expect(matches[0]!.score).toBeGreaterThanOrEqual(hold_threshold);
      expect(matches[0]!.explanation.matched, query).toContainEqual(expect.objectContaining({ query: 'seselj', listed: 'seselj', how: 'exact' }));
    }
    // His surname typed alone, as staff search by hand, with and without its carons: he comes first.
    for (const query of ['Seselj', 'ŠEŠELJ']) {
      const [first] = (await search(query)).matches;
      expect(first, query).toMatchObject({ list_id: '9201', name: 'Vojislav ŠEŠELJ' });
      expect(first!.explanation.matched, query).toContainEqual(expect.objectContaining({ query: 'seselj', listed: 'seselj', how: 'exact' }));
    }

    // His alias's carons too (0x8A and 0x9A): "Vojo Šešelj" is found as written and without them.
    for (const query of ['Vojo Šešelj', 'Vojo Seselj']) {
      expect((await search(query)).matches[0], query).toMatchObject({ list_id: '9201', explanation: { listed_name: 'Vojo Šešelj' } });
    }

    // Œ, œ, Ž, ž, Ÿ, €, curly quotes and dashes, each as the standard has it.
    const company = (await search('Boeuf Soeur Zuta Stit')).matches.find((m) => m.list_id === '9202');
    expect(company).toMatchObject({ name: 'BŒUF & SŒUR “ŽUTA” – ŠTIT — Ÿ €', aliases: ['bœuf & sœur ‘žuta’ – štit'] });
  });
});
