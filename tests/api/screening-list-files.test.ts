import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ListedEntry } from '@core/screening/types.js';
import { ListFormatError, type ListFiles, readList } from '@server/modules/screening/lists/index.js';
import {
  addCsv, altCsv, encode, euCsv, generatedOfac, inChunks, sdnCsv, sdnLine, ukCsv, unXml, type EuEntity, type SdnRow, type UkDesignation, type UnEntity, type UnIndividual,
} from '../support/sanctions-files.js';

// The list parsers against files in each official format (docs/rules/screening.md#list-files).

async function read(input: ListFiles) {
  const { entries, counts } = readList(input);
  const all: ListedEntry[] = [];
  for await (const e of entries) all.push(e);
  return { entries: all, counts };
}

async function refusal(input: ListFiles): Promise<ListFormatError> {
  const err = await read(input).then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ListFormatError);
  return err as ListFormatError;
}

const stream = (bytes: Uint8Array) => Readable.from([Buffer.from(bytes)]);

describe('OFAC SDN (sdn.csv, alt.csv, add.csv)', () => {
  const sdn: SdnRow[] = [
    {
      ent_num: 6365, name: 'MÜLLER-ØSTBY, José Ángel', type: 'individual', programs: ['SDGT', 'IRGC'], title: 'Commander "Abu Yusuf"',
      // A multi-line remark with quotes in it, as some entries have.
      remarks: `DOB 12 Mar 1960; alt. DOB circa 1962; POB Baghdad, Iraq; nationality Iraq; alt. nationality Syria;\r\nAdditional Sanctions Information - Subject to Secondary Sanctions; a.k.a. 'ABU YUSUF'; Linked To: AL-"QAIDA".`,
    },
    { ent_num: 36, name: 'AEROCARIBBEAN AIRLINES', programs: ['CUBA'] },
    { ent_num: 15036, name: 'ADRIAN DARYA 1', type: 'vessel', programs: ['SDGT'], call_sign: '3EVB4', vess_type: 'Crude Oil Tanker', tonnage: '1,000', vess_flag: 'Iran', remarks: 'Vessel Registration Identification IMO 9116412.' },
    { ent_num: 7000, name: 'NO-FIELDS ONLY', type: 'aircraft' },
    { ent_num: 7001, name: 'SADDAM HUSSEIN AL-TIKRITI', type: 'individual', programs: ['IRAQ2'], remarks: 'DOB 1958 to 1960; nationality Iraq.' },
  ];
  const alt = altCsv([
    { ent_num: 36, alt_num: 12, name: 'AERO-CARIBBEAN' },
    { ent_num: 6365, alt_num: 13, name: 'MULLER, Jose' },
    { ent_num: 6365, alt_num: 14, type: 'fka', name: 'AL-IRAQI, Abu Yusuf', remarks: 'Low quality' },
  ]);
  const add = addCsv([
    { ent_num: 36, add_num: 25, address: 'Ave. Reina Mercedes', city: 'Havana', country: 'Cuba' },
    { ent_num: 6365, add_num: 26, city: 'Damascus', country: 'Syria' },
  ]);
  const expected: ListedEntry[] = [
    {
      source: 'ofac_sdn', list_id: '6365', kind: 'person', names: ['José Ángel MÜLLER-ØSTBY', 'Jose MULLER', 'Abu Yusuf AL-IRAQI', 'ABU YUSUF'], birth_dates: ['1960-03-12', '1962'],
      countries: ['IQ', 'SY'], programmes: ['SDGT', 'IRGC'],
    },
    { source: 'ofac_sdn', list_id: '36', kind: 'organisation', names: ['AEROCARIBBEAN AIRLINES', 'AERO-CARIBBEAN'], birth_dates: [], countries: ['CU'], programmes: ['CUBA'] },
    { source: 'ofac_sdn', list_id: '15036', kind: 'vessel', names: ['ADRIAN DARYA 1'], birth_dates: [], countries: ['IR'], programmes: ['SDGT'] },
    { source: 'ofac_sdn', list_id: '7000', kind: 'unknown', names: ['NO-FIELDS ONLY'], birth_dates: [], countries: [], programmes: [] },
    { source: 'ofac_sdn', list_id: '7001', kind: 'person', names: ['SADDAM HUSSEIN AL-TIKRITI'], birth_dates: ['1958', '1959', '1960'], countries: ['IQ'], programmes: ['IRAQ2'] },
  ];

  it('reads the three files: names in natural order, aliases, -0- as empty, dates of birth, countries and programmes', async () => {
    const text = sdnCsv(sdn);
    // The file as OFAC writes it: -0- markers unquoted, CRLF, the 0x1A at its end.
    // (the first entry's remark holds a line break, so the fourth entry is on the file's fifth line)
    expect(text.split('\r\n')[4]).toBe('7000,"NO-FIELDS ONLY","aircraft",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ');
    const { entries, counts } = await read({ source: 'ofac_sdn', files: { sdn: stream(encode(text, 'windows-1252')), alt: stream(encode(alt, 'windows-1252')), add: stream(encode(add, 'windows-1252')) } });
    expect(entries).toEqual(expected);
    expect(counts).toEqual({ entries: 5, names: 9, names_cut: 0 });
  });

  it('reads the same list in UTF-8 with a byte-order mark, LF line ends, cut into 7-byte chunks', async () => {
    const files = { sdn: inChunks(encode(sdnCsv(sdn, '\n'), 'utf-8-bom'), 7), alt: inChunks(encode(alt, 'utf-8'), 7), add: inChunks(encode(add, 'utf-8-bom'), 5) };
    const { entries } = await read({ source: 'ofac_sdn', files });
    expect(entries).toEqual(expected);
  });

  it('reads Windows-1252 cut into 5-byte chunks, the first accent far into the file', async () => {
    const files = { sdn: inChunks(encode(sdnCsv([...sdn.slice(1), sdn[0]!]), 'windows-1252'), 5), alt: inChunks(encode(alt, 'windows-1252'), 5) };
    const { entries } = await read({ source: 'ofac_sdn', files });
    expect(entries[4]!.names[0]).toBe('José Ángel MÜLLER-ØSTBY');
  });

  it('refuses a file that is not CSV at all before it fills memory', async () => {
    const err = await refusal({ source: 'ofac_sdn', files: { sdn: inChunks(Buffer.alloc(200_000, ','), 4096) } });
    expect(err).toMatchObject({ line: 1, reason: 'a line has too many fields' });
  });

  it('reads sdn.csv alone (alt.csv and add.csv are optional)', async () => {
    const { entries, counts } = await read({ source: 'ofac_sdn', files: { sdn: stream(encode(sdnCsv(sdn), 'utf-8')) } });
    // The weaker aliases in the remarks stay.
    expect(entries[0]!.names).toEqual(['José Ángel MÜLLER-ØSTBY', 'ABU YUSUF']);
    expect(entries[0]!.countries).toEqual(['IQ', 'SY']);
    expect(counts).toEqual({ entries: 5, names: 6, names_cut: 0 });
  });

  it('refuses a line with a field missing, with its line', async () => {
    const text = [sdnLine(sdn[1]!), sdnLine(sdn[2]!), '37,"BROKEN LINE",-0- ,"CUBA"', sdnLine(sdn[3]!)].join('\r\n');
    const err = await refusal({ source: 'ofac_sdn', files: { sdn: stream(encode(text, 'utf-8')) } });
    expect(err).toMatchObject({ code: 'list_format_invalid', file: 'sdn.csv', line: 3 });
    expect(err.message).toBe('sdn.csv, line 3: expected 12 fields, found 4');
  });

  it('refuses a quote never closed, naming the line it opened on', async () => {
    const text = [sdnLine(sdn[1]!), sdnLine(sdn[2]!).replace('"ADRIAN DARYA 1"', '"ADRIAN DARYA 1'), sdnLine(sdn[3]!)].join('\r\n');
    const err = await refusal({ source: 'ofac_sdn', files: { sdn: stream(encode(text, 'utf-8')) } });
    // The quote closes at the next one, on the same line, and text follows it.
    expect(err).toMatchObject({ file: 'sdn.csv', line: 2, reason: 'text after a closing quote' });
    const last = [sdnLine(sdn[1]!), sdnLine(sdn[2]!), '37,"NEVER CLOSED,-0- '].join('\r\n');
    expect(await refusal({ source: 'ofac_sdn', files: { sdn: stream(encode(last, 'utf-8')) } })).toMatchObject({ line: 3, reason: 'a quoted field is never closed' });
  });

  it('refuses another list\'s file given as sdn.csv (a header row is not an entry)', async () => {
    const err = await refusal({ source: 'ofac_sdn', files: { sdn: stream(encode(euCsv([]), 'utf-8')) } });
    expect(err).toMatchObject({ file: 'sdn.csv', line: 1 });
    const alias = await refusal({ source: 'ofac_sdn', files: { sdn: stream(encode(sdnCsv(sdn), 'utf-8')), alt: stream(encode(sdnCsv(sdn), 'utf-8')) } });
    expect(alias).toMatchObject({ file: 'alt.csv', line: 1, reason: 'expected 5 fields, found 12' });
  });

  it('reads a generated 20,000-entry list with two aliases each', async () => {
    const files = generatedOfac(20_000);
    const { entries, counts } = await read({
      source: 'ofac_sdn',
      files: { sdn: inChunks(encode(files.sdn, 'utf-8'), 64 * 1024), alt: inChunks(encode(files.alt, 'utf-8'), 64 * 1024), add: inChunks(encode(files.add, 'utf-8'), 64 * 1024) },
    });
    expect(counts).toEqual({ entries: 20_000, names: 60_000, names_cut: 0 });
    expect(entries[3]).toEqual({
      source: 'ofac_sdn', list_id: '10003', kind: 'person', names: ['Given3 Middle3 SURNAME3', 'Given3 SURNAMEX3', 'Guiven3 SOURNAME3'],
      birth_dates: ['1943-03-04', '1944'], countries: ['IR', 'AE'], programmes: ['SDGT', 'IRGC'],
    });
    expect(entries[5]).toMatchObject({ kind: 'vessel', names: ['VESSEL 5', 'ALIAS 5 A', 'ALIAS 5 B'], countries: ['IR', 'AE'] });
  });
});

describe('EU consolidated list (CSV)', () => {
  const entities: EuEntity[] = [
    {
      id: 13, person: true, programme: 'RUS', remark: 'Line one;\nline "two"',
      names: [{ whole: 'Sergei Viktorovich LAVROV', first: 'Sergei', last: 'LAVROV', gender: 'M' }, { whole: 'Сергей Викторович Лавров' }, { whole: 'Lavrov; Sergey' }],
      birth_dates: [{ date: '1950-03-21', city: 'Moscow' }, { year: '1951' }],
      citizenships: [{ iso2: 'RU', description: 'Russian Federation' }, { iso2: '00', description: 'Unknown' }],
    },
    { id: 5001, person: false, programme: 'SYR', names: [{ whole: 'Syrian Petroleum Company' }, { whole: 'SPC' }], addresses: [{ city: 'Damascus', iso2: 'SY', description: 'Syrian Arab Republic' }] },
  ];

  it('groups the rows of each entity: names, kind, dates of birth, citizenship and address countries, programme', async () => {
    const { entries, counts } = await read({ source: 'eu', file: stream(encode(euCsv(entities, '\r\n'), 'utf-8-bom')) });
    expect(entries).toEqual([
      {
        source: 'eu', list_id: '13', kind: 'person', names: ['Sergei Viktorovich LAVROV', 'Сергей Викторович Лавров', 'Lavrov; Sergey'], birth_dates: ['1950-03-21', '1951'],
        countries: ['RU'], programmes: ['RUS'],
      },
      { source: 'eu', list_id: '5001', kind: 'organisation', names: ['Syrian Petroleum Company', 'SPC'], birth_dates: [], countries: ['SY'], programmes: ['SYR'] },
    ]);
    expect(counts).toEqual({ entries: 2, names: 5, names_cut: 0 });
  });

  it('reads the same file cut into 3-byte chunks', async () => {
    const { entries } = await read({ source: 'eu', file: inChunks(encode(euCsv(entities), 'utf-8'), 3) });
    expect(entries.map((e) => e.names.length)).toEqual([3, 2]);
  });

  it('refuses a file without its columns', async () => {
    expect(await refusal({ source: 'eu', file: stream(encode(sdnCsv([{ ent_num: 1, name: 'X' }]), 'utf-8')) })).toMatchObject({ line: 1, reason: 'no column Entity_LogicalId in the header row' });
    expect(await refusal({ source: 'eu', file: stream(encode(euCsv(entities).replace('2026-11-26;13;', '2026-11-26;X13;'), 'utf-8')) })).toMatchObject({ line: 2, reason: 'Entity_LogicalId is not a number' });
  });

  it('gathers an entity whose rows are apart', async () => {
    const lines = euCsv([{ id: 1, person: true, programme: 'RUS', names: [{ whole: 'A B' }, { whole: 'C D' }] }, { id: 2, person: false, programme: 'SYR', names: [{ whole: 'E F' }] }]).split('\n');
    const apart = [lines[0], lines[1], lines[3], lines[2], ''].join('\n');
    const { entries } = await read({ source: 'eu', file: stream(encode(apart, 'utf-8')) });
    expect(entries.map((e) => [e.list_id, e.names])).toEqual([['1', ['A B', 'C D']], ['2', ['E F']]]);
  });
});

describe('UN consolidated list (XML)', () => {
  const individuals: UnIndividual[] = [
    {
      dataid: 6908555, first: 'ABDUL', second: 'LATIF', third: 'SAIFULLAH', list_type: 'Al-Qaida', reference: 'QDi.001', original_script: 'عبد اللطيف سيف الله',
      aliases: [{ quality: 'Good', name: 'Abu Latif' }, { quality: 'Good', name: 'SAIFULLAH, Abdul Latif' }, { quality: 'Low', name: 'Saif & Co' }], birth: [{ type: 'EXACT', date: '1960-03-12' }, { type: 'APPROXIMATELY', year: '1961' }, { type: 'BETWEEN', from: '1962', to: '1963' }],
      nationalities: ['Afghanistan', 'Iran (Islamic Republic of)'], address_countries: ['Pakistan'], comments: 'Multi-line\ncomment <with> markup characters.',
    },
  ];
  const entities: UnEntity[] = [{ dataid: 110, name: 'AL-RASHID TRUST', list_type: 'Al-Qaida', reference: 'QDe.005', aliases: ['Al Rasheed Trust', 'Aid Organization of The Ulema'], address_countries: ['Pakistan'] }];

  it('reads individuals and entities: name parts in order, aliases, original script, dates of birth, nationalities', async () => {
    const { entries, counts } = await read({ source: 'un', file: inChunks(encode(unXml(individuals, entities, '\r\n'), 'utf-8'), 11) });
    expect(entries).toEqual([
      {
        source: 'un', list_id: 'QDi.001', kind: 'person', names: ['ABDUL LATIF SAIFULLAH', 'عبد اللطيف سيف الله', 'Abu Latif', 'Abdul Latif SAIFULLAH', 'Saif & Co'],
        birth_dates: ['1960-03-12', '1961', '1962', '1963'], countries: ['AF', 'IR', 'PK'], programmes: ['Al-Qaida'],
      },
      { source: 'un', list_id: 'QDe.005', kind: 'organisation', names: ['AL-RASHID TRUST', 'Al Rasheed Trust', 'Aid Organization of The Ulema'], birth_dates: [], countries: ['PK'], programmes: ['Al-Qaida'] },
    ]);
    expect(counts).toEqual({ entries: 2, names: 8, names_cut: 0 });
  });

  it('refuses XML that is not well-formed, with its line, and another document', async () => {
    const broken = unXml(individuals, entities).replace('</FIRST_NAME>', '</FIRSTNAME>');
    const line = broken.split('\n').findIndex((l) => l.includes('</FIRSTNAME>')) + 1;
    expect(await refusal({ source: 'un', file: stream(encode(broken, 'utf-8')) })).toMatchObject({ code: 'list_format_invalid', line });
    expect(await refusal({ source: 'un', file: stream(encode('<?xml version="1.0"?>\n<html><body/></html>', 'utf-8')) })).toMatchObject({ line: 2, reason: 'the root element is html, not CONSOLIDATED_LIST' });
    expect(await refusal({ source: 'un', file: stream(encode(sdnCsv([{ ent_num: 1, name: 'X' }]), 'utf-8')) })).toMatchObject({ code: 'list_format_invalid' });
  });
});

describe('UK sanctions list (CSV)', () => {
  const designations: UkDesignation[] = [
    {
      id: 'RUS0001', type: 'Individual', regime: 'Russia', dob: '21/03/1950', nationality: '(1) Russia (2) Ukraine',
      names: [{ forenames: ['Sergei', 'Viktorovich'], last: 'LAVROV', non_latin: 'Сергей Викторович ЛАВРОВ' }, { forenames: ['Sergey'], last: 'LAVROV' }],
      reasons: 'Minister of Foreign Affairs, "responsible",\r\nfor policies.',
    },
    { id: 'SYR0002', type: 'Entity', regime: 'Syria', country: 'Syria', names: [{ last: 'Syrian Petroleum Company' }, { last: 'SPC' }] },
    { id: 'RUS0003', type: 'Ship', regime: 'Russia', flag: 'Russia', names: [{ last: 'SIG' }] },
    { id: 'AFG0004', type: 'Individual', regime: 'Afghanistan', dob: '00/00/1965', nationality: 'Afghanistan', names: [{ forenames: ['Abdul', 'Ghani'], last: 'BARADAR' }] },
  ];

  it('skips the title line, groups the rows of each designation, primary name first', async () => {
    const { entries, counts } = await read({ source: 'uk', file: inChunks(encode(ukCsv(designations), 'utf-8-bom'), 13) });
    expect(entries).toEqual([
      {
        source: 'uk', list_id: 'RUS0001', kind: 'person', names: ['Sergei Viktorovich LAVROV', 'Сергей Викторович ЛАВРОВ', 'Sergey LAVROV'], birth_dates: ['1950-03-21'],
        countries: ['RU', 'UA'], programmes: ['Russia'],
      },
      { source: 'uk', list_id: 'SYR0002', kind: 'organisation', names: ['Syrian Petroleum Company', 'SPC'], birth_dates: [], countries: ['SY'], programmes: ['Syria'] },
      { source: 'uk', list_id: 'RUS0003', kind: 'vessel', names: ['SIG'], birth_dates: [], countries: ['RU'], programmes: ['Russia'] },
      { source: 'uk', list_id: 'AFG0004', kind: 'person', names: ['Abdul Ghani BARADAR'], birth_dates: ['1965'], countries: ['AF'], programmes: ['Afghanistan'] },
    ]);
    expect(counts).toEqual({ entries: 4, names: 7, names_cut: 0 });
  });

  it('puts the primary name first when an alias row comes before it', async () => {
    const lines = ukCsv(designations.slice(0, 1), '\n').split('\n');
    // Title, header, then the alias's row before the primary's (two lines each: the reasons hold a line break).
    const text = [lines[0], lines[1], lines[4], lines[5], lines[2], lines[3], ''].join('\n');
    const { entries } = await read({ source: 'uk', file: stream(encode(text, 'utf-8')) });
    expect(entries[0]!.names[0]).toBe('Sergei Viktorovich LAVROV');
  });

  it('refuses a file with no header row', async () => {
    const err = await refusal({ source: 'uk', file: stream(encode(sdnCsv([1, 2, 3, 4, 5, 6].map((n) => ({ ent_num: n, name: `N${n}` }))), 'utf-8')) });
    expect(err).toMatchObject({ line: 5, reason: 'no header row with a Unique ID column' });
  });
});
