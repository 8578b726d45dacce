import type { ListedEntry } from '@core/screening/types.js';
import { parseCsv } from './csv.js';
import { type ByteSource, decodeText } from './decode.js';
import { dateInDigits, EntryDraft, isoCode } from './entry.js';
import { ListFormatError } from './format-error.js';
import { cell, columns, Grouper } from './header.js';

// The EU consolidated financial sanctions list, CSV (docs/rules/screening.md#list-files):
// semicolons, a header row, one row per name, birth date, citizenship... of an entity.

const FILE = 'EU consolidated list';

const COLUMNS = {
  id: { names: ['Entity_LogicalId'], required: true },
  name: { names: ['NameAlias_WholeName'], required: true },
  subject: { names: ['Entity_SubjectType_ClassificationCode'] },
  subjectCode: { names: ['Entity_SubjectType'] },
  programme: { names: ['Entity_Regulation_Programme'] },
  birthDate: { names: ['BirthDate_BirthDate'] },
  birthYear: { names: ['BirthDate_Year'] },
  citizenship: { names: ['Citizenship_CountryIso2Code'] },
  address: { names: ['Address_CountryIso2Code'] },
};

export async function* parseEu(source: ByteSource): AsyncGenerator<ListedEntry> {
  let col: Record<keyof typeof COLUMNS, number> | null = null;
  const groups = new Grouper((id) => new EntryDraft('eu', id));
  for await (const record of parseCsv(decodeText(source), FILE, ';')) {
    if (!col) {
      col = columns(record, FILE, COLUMNS);
      continue;
    }
    const f = record.fields;
    const id = cell(f, col.id);
    if (!/^\d+$/.test(id)) throw new ListFormatError(FILE, record.line, 'Entity_LogicalId is not a number');
    const draft = groups.row(id);
    draft.addName(cell(f, col.name));
    const subject = (cell(f, col.subject) || cell(f, col.subjectCode)).toLowerCase();
    if (subject === 'person' || subject === 'p') draft.kind = 'person';
    else if (subject === 'enterprise' || subject === 'e') draft.kind = 'organisation';
    draft.add('programmes', cell(f, col.programme));
    draft.add('birthDates', dateInDigits(cell(f, col.birthDate)) ?? cell(f, col.birthYear));
    draft.add('countries', isoCode(cell(f, col.citizenship)));
    draft.add('countries', isoCode(cell(f, col.address)));
  }
  if (!col) throw new ListFormatError(FILE, 1, 'the file is empty');
  for (const draft of groups.all()) yield draft.done();
}
