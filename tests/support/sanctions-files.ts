// Test files in the sanctions lists' official formats (docs/rules/screening.md#list-files):
// OFAC's legacy sdn.csv / alt.csv / add.csv, the EU consolidated CSV, the UN consolidated XML
// and the UK sanctions list CSV, as their publishers write them.

import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { encodeWindows1252 } from '@server/lib/windows-1252.js';

type Eol = '\r\n' | '\n';

/** OFAC's empty marker, as its files write it (with a trailing space, unquoted). */
const EMPTY = '-0- ';

/** A CSV field quoted the RFC 4180 way (doubled quotes inside). */
const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
const ofacField = (s: string | undefined) => (s ? q(s) : EMPTY);

export interface SdnRow {
  ent_num: number;
  /** `LAST, First` for individuals, as OFAC writes them. */
  name: string;
  type?: 'individual' | 'vessel' | 'aircraft';
  programs?: string[];
  title?: string;
  call_sign?: string;
  vess_type?: string;
  tonnage?: string;
  grt?: string;
  vess_flag?: string;
  vess_owner?: string;
  remarks?: string;
}

export function sdnLine(r: SdnRow): string {
  // Several programmes: "SDGT] [IRGC", the outer brackets left to the file's quotes.
  const programs = r.programs?.length ? r.programs.join('] [') : undefined;
  return [
    String(r.ent_num), q(r.name), ofacField(r.type), ofacField(programs), ofacField(r.title), ofacField(r.call_sign), ofacField(r.vess_type),
    ofacField(r.tonnage), ofacField(r.grt), ofacField(r.vess_flag), ofacField(r.vess_owner), ofacField(r.remarks),
  ].join(',');
}

/** sdn.csv: no header row, one line per entry, and the end-of-file character (0x1A) OFAC ends with. */
export function sdnCsv(rows: SdnRow[], eol: Eol = '\r\n'): string {
  return rows.map((r) => sdnLine(r) + eol).join('') + '\x1a';
}

interface AltRow {
  ent_num: number;
  alt_num: number;
  type?: 'aka' | 'fka' | 'nka';
  name: string;
  remarks?: string;
}

export function altCsv(rows: AltRow[], eol: Eol = '\r\n'): string {
  return rows.map((r) => [String(r.ent_num), String(r.alt_num), q(r.type ?? 'aka'), q(r.name), ofacField(r.remarks)].join(',') + eol).join('') + '\x1a';
}

interface AddRow {
  ent_num: number;
  add_num: number;
  address?: string;
  city?: string;
  country?: string;
  remarks?: string;
}

export function addCsv(rows: AddRow[], eol: Eol = '\r\n'): string {
  return rows.map((r) => [String(r.ent_num), String(r.add_num), ofacField(r.address), ofacField(r.city), ofacField(r.country), ofacField(r.remarks)].join(',') + eol).join('') + '\x1a';
}

/** A generated OFAC entry: individuals (with dates of birth), companies and vessels in turn. */
export function generatedSdnRow(i: number): SdnRow {
  const ent_num = 10_000 + i;
  const kind = i % 3;
  if (kind === 0) {
    return {
      ent_num, name: `SURNAME${i}, Given${i} Middle${i % 97}`, type: 'individual', programs: ['SDGT', 'IRGC'], title: 'Commander',
      remarks: `DOB ${1 + (i % 28)} Mar ${1940 + (i % 50)}; alt. DOB ${1940 + (i % 50) + 1}; POB Tehran, Iran; nationality Iran; Gender Male; Passport A${i} (Iran).`,
    };
  }
  if (kind === 1) return { ent_num, name: `TRADING COMPANY ${i} LLC`, programs: ['SDGT'], remarks: `Website www.example${i}.com; Registration ID ${i} (United Arab Emirates).` };
  return { ent_num, name: `VESSEL ${i}`, type: 'vessel', programs: ['IRAN'], call_sign: `9BX${i}`, vess_type: 'Crude Oil Tanker', tonnage: '150,000', grt: '80,000', vess_flag: 'Iran', vess_owner: `TRADING COMPANY ${i - 1} LLC`, remarks: `Vessel Registration Identification IMO ${9_000_000 + i}.` };
}

/** Two aliases for every generated entry. */
function generatedAltRows(i: number): AltRow[] {
  const ent_num = 10_000 + i;
  return [
    { ent_num, alt_num: 2 * i, name: i % 3 === 0 ? `SURNAMEX${i}, Given${i}` : `ALIAS ${i} A` },
    { ent_num, alt_num: 2 * i + 1, type: 'fka', name: i % 3 === 0 ? `SOURNAME${i}, Guiven${i}` : `ALIAS ${i} B` },
  ];
}

/** The three files of a generated list of n entries (each with two aliases and an address). */
export function generatedOfac(n: number): { sdn: string; alt: string; add: string } {
  const sdn: SdnRow[] = [];
  const alt: AltRow[] = [];
  const add: AddRow[] = [];
  for (let i = 0; i < n; i++) {
    sdn.push(generatedSdnRow(i));
    alt.push(...generatedAltRows(i));
    add.push({ ent_num: 10_000 + i, add_num: i, address: `${i} Street`, city: 'Dubai', country: 'United Arab Emirates' });
  }
  return { sdn: sdnCsv(sdn), alt: altCsv(alt), add: addCsv(add) };
}

// The EU consolidated list (CSV v1.1): semicolons, a header row, one row per fact of an entity.
const EU_COLUMNS = [
  'fileGenerationDate', 'Entity_LogicalId', 'Entity_EU_ReferenceNumber', 'Entity_UN_ReferenceNumber', 'Entity_DesignationDate', 'Entity_DesignationDetails', 'Entity_Remark',
  'Entity_SubjectType', 'Entity_SubjectType_ClassificationCode', 'Entity_Regulation_Type', 'Entity_Regulation_OrganisationType', 'Entity_Regulation_PublicationDate',
  'Entity_Regulation_EntryIntoForceDate', 'Entity_Regulation_NumberTitle', 'Entity_Regulation_Programme', 'Entity_Regulation_PublicationUrl',
  'NameAlias_LastName', 'NameAlias_FirstName', 'NameAlias_MiddleName', 'NameAlias_WholeName', 'NameAlias_NameLanguage', 'NameAlias_Gender', 'NameAlias_Title',
  'NameAlias_Function', 'NameAlias_LogicalId', 'NameAlias_RegulationLanguage', 'NameAlias_Remark',
  'Address_City', 'Address_Street', 'Address_PoBox', 'Address_ZipCode', 'Address_Region', 'Address_Place', 'Address_AsAtListingTime', 'Address_ContactInfo',
  'Address_CountryIso2Code', 'Address_CountryDescription', 'Address_LogicalId',
  'BirthDate_BirthDate', 'BirthDate_Day', 'BirthDate_Month', 'BirthDate_Year', 'BirthDate_YearRangeFrom', 'BirthDate_YearRangeTo', 'BirthDate_Circa',
  'BirthDate_CalendarType', 'BirthDate_ZipCode', 'BirthDate_Region', 'BirthDate_Place', 'BirthDate_City', 'BirthDate_CountryIso2Code', 'BirthDate_CountryDescription', 'BirthDate_LogicalId',
  'Identification_Diplomatic', 'Identification_ExtendedDetails', 'Identification_Issuedby', 'Identification_IssuedDate', 'Identification_LatinNumber', 'Identification_NameOnDocument',
  'Identification_Number', 'Identification_Region', 'Identification_CountryIso2Code', 'Identification_CountryDescription', 'Identification_TypeCode', 'Identification_TypeDescription', 'Identification_LogicalId',
  'Citizenship_Region', 'Citizenship_CountryIso2Code', 'Citizenship_CountryDescription', 'Citizenship_LogicalId',
] as const;

type EuColumn = (typeof EU_COLUMNS)[number];

export interface EuEntity {
  id: number;
  person: boolean;
  programme: string;
  remark?: string;
  names: Array<{ whole: string; first?: string; last?: string; gender?: 'M' | 'F' }>;
  birth_dates?: Array<{ date?: string; year?: string; city?: string }>;
  citizenships?: Array<{ iso2: string; description: string }>;
  addresses?: Array<{ city?: string; iso2: string; description: string }>;
}

/** A field the EU way: quoted when it holds a semicolon, a quote or a line break. */
const euField = (s: string) => (/[;"\r\n]/.test(s) ? q(s) : s);

export function euCsv(entities: EuEntity[], eol: Eol = '\n'): string {
  const lines = [EU_COLUMNS.join(';')];
  let logical = 1;
  for (const e of entities) {
    const common: Partial<Record<EuColumn, string>> = {
      fileGenerationDate: '2026-11-26', Entity_LogicalId: String(e.id), Entity_EU_ReferenceNumber: `EU.${e.id}.1`, Entity_DesignationDate: '2022-02-25',
      Entity_Remark: e.remark ?? '', Entity_SubjectType: e.person ? 'P' : 'E', Entity_SubjectType_ClassificationCode: e.person ? 'person' : 'enterprise',
      Entity_Regulation_Type: 'regulation', Entity_Regulation_OrganisationType: 'council', Entity_Regulation_PublicationDate: '2022-02-25',
      Entity_Regulation_NumberTitle: '2022/330 (OJ L53)', Entity_Regulation_Programme: e.programme, Entity_Regulation_PublicationUrl: 'https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=OJ:L:2022:053:FULL',
    };
    const row = (fact: Partial<Record<EuColumn, string>>) => {
      const all = { ...common, ...fact };
      lines.push(EU_COLUMNS.map((c) => euField(all[c] ?? '')).join(';'));
    };
    for (const n of e.names) {
      row({ NameAlias_WholeName: n.whole, NameAlias_FirstName: n.first ?? '', NameAlias_LastName: n.last ?? '', NameAlias_Gender: n.gender ?? '', NameAlias_LogicalId: String(logical++), NameAlias_RegulationLanguage: 'en' });
    }
    for (const b of e.birth_dates ?? []) {
      const [y, m, d] = (b.date ?? '').split('-');
      row({ BirthDate_BirthDate: b.date ?? '', BirthDate_Day: d ?? '', BirthDate_Month: m ?? '', BirthDate_Year: b.year ?? y ?? '', BirthDate_City: b.city ?? '', BirthDate_CalendarType: 'GREGORIAN', BirthDate_LogicalId: String(logical++) });
    }
    for (const c of e.citizenships ?? []) row({ Citizenship_CountryIso2Code: c.iso2, Citizenship_CountryDescription: c.description, Citizenship_LogicalId: String(logical++) });
    for (const a of e.addresses ?? []) row({ Address_City: a.city ?? '', Address_CountryIso2Code: a.iso2, Address_CountryDescription: a.description, Address_LogicalId: String(logical++) });
  }
  return lines.join(eol) + eol;
}

// The UN Security Council consolidated list (XML).
const x = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const el = (tag: string, value: string | undefined) => (value === undefined ? '' : `<${tag}>${x(value)}</${tag}>`);

export interface UnIndividual {
  dataid: number;
  first: string;
  second?: string;
  third?: string;
  fourth?: string;
  list_type: string;
  reference: string;
  original_script?: string;
  aliases?: Array<{ quality: 'Good' | 'Low' | 'a.k.a.'; name: string }>;
  birth?: Array<{ type: 'EXACT'; date: string } | { type: 'APPROXIMATELY'; year: string } | { type: 'BETWEEN'; from: string; to: string }>;
  nationalities?: string[];
  address_countries?: string[];
  comments?: string;
}

export interface UnEntity {
  dataid: number;
  name: string;
  list_type: string;
  reference: string;
  aliases?: string[];
  address_countries?: string[];
  comments?: string;
}

export function unXml(individuals: UnIndividual[], entities: UnEntity[], eol: Eol = '\n'): string {
  const ind = individuals.map((i) => [
    '<INDIVIDUAL>', el('DATAID', String(i.dataid)), el('VERSIONNUM', '1'), el('FIRST_NAME', i.first), el('SECOND_NAME', i.second), el('THIRD_NAME', i.third), el('FOURTH_NAME', i.fourth),
    el('UN_LIST_TYPE', i.list_type), el('REFERENCE_NUMBER', i.reference), el('LISTED_ON', '2001-01-25'), el('NAME_ORIGINAL_SCRIPT', i.original_script), el('COMMENTS1', i.comments),
    '<NATIONALITY>', ...(i.nationalities ?? []).map((n) => el('VALUE', n)), '</NATIONALITY>',
    '<LIST_TYPE><VALUE>UN List</VALUE></LIST_TYPE>',
    ...(i.aliases ?? []).map((a) => `<INDIVIDUAL_ALIAS>${el('QUALITY', a.quality)}${el('ALIAS_NAME', a.name)}</INDIVIDUAL_ALIAS>`),
    ...(i.address_countries ?? []).map((c) => `<INDIVIDUAL_ADDRESS>${el('COUNTRY', c)}</INDIVIDUAL_ADDRESS>`),
    ...(i.birth ?? []).map((b) => `<INDIVIDUAL_DATE_OF_BIRTH>${el('TYPE_OF_DATE', b.type)}${
      b.type === 'EXACT' ? el('DATE', b.date) : b.type === 'APPROXIMATELY' ? el('YEAR', b.year) : el('FROM_YEAR', b.from) + el('TO_YEAR', b.to)}</INDIVIDUAL_DATE_OF_BIRTH>`),
    '<INDIVIDUAL_PLACE_OF_BIRTH/>', '<INDIVIDUAL_DOCUMENT/>', '<SORT_KEY/>', '<SORT_KEY_LAST_MOD/>',
    '</INDIVIDUAL>',
  ].join(eol));
  const ent = entities.map((e) => [
    '<ENTITY>', el('DATAID', String(e.dataid)), el('VERSIONNUM', '1'), el('FIRST_NAME', e.name), el('UN_LIST_TYPE', e.list_type), el('REFERENCE_NUMBER', e.reference),
    el('LISTED_ON', '2001-10-06'), el('COMMENTS1', e.comments), '<LIST_TYPE><VALUE>UN List</VALUE></LIST_TYPE>',
    ...(e.aliases ?? []).map((a) => `<ENTITY_ALIAS>${el('QUALITY', 'a.k.a.')}${el('ALIAS_NAME', a)}</ENTITY_ALIAS>`),
    ...(e.address_countries ?? []).map((c) => `<ENTITY_ADDRESS>${el('STREET', 'Street')}${el('COUNTRY', c)}</ENTITY_ADDRESS>`),
    '<SORT_KEY/>', '<SORT_KEY_LAST_MOD/>', '</ENTITY>',
  ].join(eol));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<CONSOLIDATED_LIST xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="https://scsanctions.un.org/resources/xml/en/consolidated.xsd" dateGenerated="2026-11-26T00:00:01.000Z">',
    '<INDIVIDUALS>', ...ind, '</INDIVIDUALS>', '<ENTITIES>', ...ent, '</ENTITIES>', '</CONSOLIDATED_LIST>', '',
  ].join(eol);
}

// The UK sanctions list (CSV): a title line with the date, the header row, one row per name.
const UK_COLUMNS = [
  'Last Updated', 'Unique ID', 'OFSI Group ID', 'UN Reference Number', 'Name 6', 'Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5', 'Name type', 'Alias strength', 'Title',
  'Name non-latin script', 'Non-latin script type', 'Non-latin script language', 'Regime', 'Designation Type', 'Designation source', 'Sanctions Imposed', 'Other Information',
  'UK Statement of Reasons', 'Address Line 1', 'Address Line 2', 'Address Line 3', 'Address Line 4', 'Address Line 5', 'Address Line 6', 'Address Postal Code', 'Address Country',
  'Phone number', 'Website', 'Email address', 'Date Designated', 'D.O.B', 'Nationality(/ies)', 'National Identifier number', 'National Identifier additional information',
  'Passport number', 'Passport additional information', 'Position', 'Gender', 'Town of birth', 'Country of birth', 'Type of entity', 'Subsidiaries', 'Parent company',
  'Business registration number (s)', 'IMO number', 'Current owner/operator (s)', 'Previous owner/operator (s)', 'Current believed flag of ship', 'Previous flags', 'Type of ship',
  'Tonnage of ship', 'Length of ship', 'Year Built', 'Hull identification number (HIN)',
] as const;

type UkColumn = (typeof UK_COLUMNS)[number];

export interface UkDesignation {
  id: string;
  type: 'Individual' | 'Entity' | 'Ship';
  regime: string;
  /** The first is the primary name; `names` are Name 1..5 then Name 6 (the surname or the whole name). */
  names: Array<{ forenames?: string[]; last: string; non_latin?: string }>;
  dob?: string;
  nationality?: string;
  country?: string;
  flag?: string;
  reasons?: string;
}

/** A field the UK way: quoted when it holds a comma, a quote or a line break. */
const ukField = (s: string) => (/[,"\r\n]/.test(s) ? q(s) : s);

export function ukCsv(designations: UkDesignation[], eol: Eol = '\r\n'): string {
  const lines = ['Report Date: 26-Nov-2026', UK_COLUMNS.join(',')];
  for (const d of designations) {
    d.names.forEach((n, k) => {
      const f = n.forenames ?? [];
      const row: Partial<Record<UkColumn, string>> = {
        'Last Updated': '01/03/2026', 'Unique ID': d.id, 'OFSI Group ID': String(10_000 + Number(d.id.replace(/\D/g, '') || 0)),
        'Name 6': n.last, 'Name 1': f[0] ?? '', 'Name 2': f[1] ?? '', 'Name 3': f[2] ?? '', 'Name 4': f[3] ?? '', 'Name 5': f[4] ?? '',
        'Name type': k === 0 ? 'Primary Name' : 'Alias', 'Alias strength': k === 0 ? '' : 'Good quality', 'Name non-latin script': n.non_latin ?? '',
        Regime: d.regime, 'Designation Type': d.type, 'Designation source': 'UK', 'Sanctions Imposed': 'Asset freeze|Travel Ban', 'UK Statement of Reasons': d.reasons ?? '',
        'Address Country': d.country ?? '', 'Date Designated': '15/03/2022', 'D.O.B': d.dob ?? '', 'Nationality(/ies)': d.nationality ?? '', 'Current believed flag of ship': d.flag ?? '',
      };
      lines.push(UK_COLUMNS.map((c) => ukField(row[c] ?? '')).join(','));
    });
  }
  return lines.join(eol) + eol;
}

// Bytes, as the files come.

/**
 * Text as bytes: UTF-8, UTF-8 with a byte-order mark, or Windows-1252 (OFAC's legacy encoding),
 * the last with the inverse of the server's own table (src/server/lib/windows-1252.ts; its unit
 * test checks the table against characters written out), never TextDecoder's "windows-1252",
 * which Node 20 reads as Latin-1 and so would agree with a server that gets "Š" wrong.
 */
export function encode(text: string, encoding: 'utf-8' | 'utf-8-bom' | 'windows-1252'): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  if (encoding === 'utf-8-bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  const bytes = encodeWindows1252(text);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The bytes in chunks of a given size, as a stream hands them over (cutting characters and lines). */
export async function* inChunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/**
 * The request of `POST /api/screening/lists`: the `source` field, then each file as a part named
 * `files` carrying its official file name.
 */
export function listUpload(source: string, files: Record<string, string | Buffer>): { headers: Record<string, string>; payload: Buffer } {
  const boundary = `----list${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="source"\r\n\r\n${source}\r\n`)];
  for (const [filename, content] of Object.entries(files)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      Buffer.from(content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: Buffer.concat(chunks) };
}

/** A list import as `GET /api/screening/lists/imports/{id}` answers it. */
export interface ListImportOutcome {
  id: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  entries_read: number;
  names_cut: number;
  version_id: string | null;
  unchanged: boolean | null;
  error: { code: string; message: string; file?: string; line?: number } | null;
}

/**
 * The admin's upload, then its import once the worker has done it: `posted` is the upload's own
 * answer (202 with the queued import, or a refusal), `outcome` the import when it was queued.
 */
export async function importListFiles(
  t: { request: (o: InjectOptions & { token?: string }) => Promise<LightMyRequestResponse>; jobsDone: () => Promise<void> },
  token: string, source: string, files: Record<string, string | Buffer>,
): Promise<{ posted: LightMyRequestResponse; outcome: ListImportOutcome | null }> {
  const posted = await t.request({ method: 'POST', url: '/api/screening/lists', token, ...listUpload(source, files) });
  if (posted.statusCode !== 202) return { posted, outcome: null };
  await t.jobsDone();
  const read = await t.request({ method: 'GET', url: `/api/screening/lists/imports/${posted.json().data.id}`, token });
  return { posted, outcome: read.json().data as ListImportOutcome };
}
