import type { ListedEntry } from '@core/screening/types.js';
import { type CsvRecord, parseCsv } from './csv.js';
import { type ByteSource, decodeText } from './decode.js';
import { countryCode } from './countries.js';
import { datesInWords, EntryDraft, naturalOrder, tidy } from './entry.js';
import { ListFormatError } from './format-error.js';

// OFAC's SDN list in its legacy CSV files (docs/rules/screening.md#list-files): no header row,
// `-0-` for an empty field, one line per entry in sdn.csv; aliases in alt.csv and addresses in
// add.csv, joined by ent_num.

export interface OfacFiles {
  sdn: ByteSource;
  alt?: ByteSource;
  add?: ByteSource;
}

const EOF = String.fromCharCode(0x1a);
const SDN_FIELDS = 12;
const ALT_FIELDS = 5;
const ADD_FIELDS = 6;

/** A field's value, `-0-` (OFAC's empty marker, often with a trailing space) read as empty. */
const value = (field: string | undefined) => {
  const t = tidy(field ?? '');
  return t === '-0-' ? '' : t;
};

async function* records(source: ByteSource, file: string, width: number): AsyncGenerator<CsvRecord> {
  for await (const record of parseCsv(decodeText(source), file)) {
    // The files end with an end-of-file character (0x1A) on a line of its own.
    if (record.fields.length === 1 && record.fields[0]!.split(EOF).join('').trim() === '') continue;
    if (record.fields[0]!.startsWith(EOF)) record.fields[0] = record.fields[0]!.slice(1);
    if (record.fields.length !== width) throw new ListFormatError(file, record.line, `expected ${width} fields, found ${record.fields.length}`);
    if (!/^\d+$/.test(record.fields[0]!.trim())) throw new ListFormatError(file, record.line, 'the first field is not an entry number (ent_num)');
    yield record;
  }
}

/**
 * Entries of the SDN list. alt.csv and add.csv are read first into small maps (names and
 * countries only); sdn.csv is then read line by line, each entry handed over as it is read.
 */
export async function* parseOfacSdn(files: OfacFiles): AsyncGenerator<ListedEntry> {
  const aliases = new Map<string, string[]>();
  if (files.alt) {
    for await (const { fields } of records(files.alt, 'alt.csv', ALT_FIELDS)) {
      const name = value(fields[3]);
      if (!name) continue;
      const id = fields[0]!.trim();
      const list = aliases.get(id);
      if (list) list.push(name);
      else aliases.set(id, [name]);
    }
  }
  const places = new Map<string, string[]>();
  if (files.add) {
    for await (const { fields } of records(files.add, 'add.csv', ADD_FIELDS)) {
      const country = value(fields[4]);
      if (!country) continue;
      const id = fields[0]!.trim();
      const list = places.get(id);
      if (list) list.push(countryCode(country));
      else places.set(id, [countryCode(country)]);
    }
  }
  for await (const { fields, line } of records(files.sdn, 'sdn.csv', SDN_FIELDS)) {
    const id = fields[0]!.trim();
    const name = value(fields[1]);
    if (!name) throw new ListFormatError('sdn.csv', line, 'an entry without a name (SDN_Name)');
    const entry = new EntryDraft('ofac_sdn', id);
    const type = value(fields[2]).toLowerCase();
    entry.kind = type === 'individual' ? 'person' : type === 'vessel' ? 'vessel' : type === '' ? 'organisation' : 'unknown';
    const person = entry.kind === 'person';
    entry.addName(person ? naturalOrder(name) : name);
    for (const alias of aliases.get(id) ?? []) entry.addName(person ? naturalOrder(alias) : alias);
    // "SDGT] [IRGC": several programmes, bracketed between the file's own quotes.
    for (const p of value(fields[3]).split(/\]\s*\[/)) entry.add('programmes', p.replace(/[[\]]/g, ''));
    const flag = value(fields[9]);
    if (flag) entry.add('countries', countryCode(flag));
    readRemarks(value(fields[11]), entry, person);
    for (const c of places.get(id) ?? []) entry.add('countries', c);
    yield entry.done();
  }
}

/**
 * Birth dates, nationalities and the weaker aliases OFAC keeps out of alt.csv, from the remarks:
 * `DOB 12 Mar 1960; alt. DOB 1961; nationality Iraq; a.k.a. 'HESA'`.
 */
function readRemarks(remarks: string, entry: EntryDraft, person: boolean): void {
  for (const part of remarks.split(';')) {
    const aka = /^(?:a|f|n)\.k\.a\.,?\s*'(.+)'\.?$/i.exec(part.trim());
    if (aka) {
      entry.addName(person ? naturalOrder(aka[1]!) : aka[1]!);
      continue;
    }
    const m = /^(?:alt\.\s*)?(DOB|nationality|citizen)\s+(.+?)\.?$/i.exec(part.trim());
    if (!m) continue;
    if (m[1]!.toUpperCase() === 'DOB') for (const d of datesInWords(m[2]!)) entry.add('birthDates', d);
    else entry.add('countries', countryCode(m[2]!));
  }
}
