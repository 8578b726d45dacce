import type { ListedEntry } from '@core/screening/types.js';
import { parseCsv } from './csv.js';
import { type ByteSource, decodeText } from './decode.js';
import { countryCode } from './countries.js';
import { dateInDigits, EntryDraft } from './entry.js';
import { ListFormatError } from './format-error.js';
import { cell, columns, Grouper } from './header.js';

// The UK sanctions list, CSV (docs/rules/screening.md#list-files): a title line with the
// publication date, then a header row, then one row per name of a designation (its primary name
// and aliases), grouped by the designation's unique id. OFSI's consolidated list CSV, with its
// `Last Updated` line and `Group ID`, is read the same way.

const FILE = 'UK sanctions list';

const COLUMNS = {
  id: { names: ['Unique ID', 'Group ID'], required: true },
  name6: { names: ['Name 6'], required: true },
  name1: { names: ['Name 1'] },
  name2: { names: ['Name 2'] },
  name3: { names: ['Name 3'] },
  name4: { names: ['Name 4'] },
  name5: { names: ['Name 5'] },
  nameType: { names: ['Name type', 'Alias Type'] },
  nonLatin: { names: ['Name non-latin script', 'Name Non-Latin Script'] },
  kind: { names: ['Designation Type', 'Group Type'] },
  regime: { names: ['Regime'] },
  dob: { names: ['D.O.B', 'DOB'] },
  nationality: { names: ['Nationality(/ies)', 'Nationality'] },
  country: { names: ['Address Country', 'Country'] },
  flag: { names: ['Current believed flag of ship'] },
};

/** Lines the file may have before its header row (its title and date). */
const BEFORE_HEADER = 5;

/** Several values in one cell: `(1) Russia (2) Ukraine`, or separated by semicolons. */
const several = (text: string) => text.split(/\(\d+\)|;/).map((s) => s.trim()).filter(Boolean);

export async function* parseUk(source: ByteSource): AsyncGenerator<ListedEntry> {
  let col: Record<keyof typeof COLUMNS, number> | null = null;
  let skipped = 0;
  const groups = new Grouper((id) => new EntryDraft('uk', id));
  for await (const record of parseCsv(decodeText(source), FILE)) {
    const f = record.fields;
    if (!col) {
      const isHeader = f.some((x) => /^(unique|group) id$/i.test(x.trim()));
      if (isHeader) col = columns(record, FILE, COLUMNS);
      else if (++skipped >= BEFORE_HEADER) throw new ListFormatError(FILE, record.line, 'no header row with a Unique ID column');
      continue;
    }
    const id = cell(f, col.id);
    if (!id) throw new ListFormatError(FILE, record.line, 'a row without its Unique ID');
    const draft = groups.row(id);
    const forenames = [col.name1, col.name2, col.name3, col.name4, col.name5].map((i) => cell(f, i));
    const name = [...forenames, cell(f, col.name6)].filter(Boolean).join(' ');
    // `Primary name variation` (OFSI's file) is an alias like the others.
    if (/^primary name$/i.test(cell(f, col.nameType))) draft.addPrimary(name);
    else draft.addName(name);
    draft.addName(cell(f, col.nonLatin));
    const kind = cell(f, col.kind).toLowerCase();
    draft.kind = kind === 'individual' ? 'person' : kind === 'entity' ? 'organisation' : kind === 'ship' ? 'vessel' : draft.kind;
    draft.add('programmes', cell(f, col.regime));
    for (const d of several(cell(f, col.dob))) draft.add('birthDates', dateInDigits(d));
    for (const c of [...several(cell(f, col.nationality)), cell(f, col.country), cell(f, col.flag)]) if (c) draft.add('countries', countryCode(c));
  }
  if (!col) throw new ListFormatError(FILE, 1, 'no header row with a Unique ID column');
  for (const draft of groups.all()) yield draft.done();
}
