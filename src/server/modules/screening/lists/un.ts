import type { ListedEntry } from '@core/screening/types.js';
import { SaxesParser } from 'saxes';
import { type ByteSource, decodeText } from './decode.js';
import { countryCode } from './countries.js';
import { dateInDigits, EntryDraft, naturalOrder } from './entry.js';
import { ListFormatError } from './format-error.js';

// The UN Security Council consolidated list, XML (docs/rules/screening.md#list-files):
// CONSOLIDATED_LIST > INDIVIDUALS > INDIVIDUAL and ENTITIES > ENTITY, read element by element.

const FILE = 'UN consolidated list';
const ROOT = 'CONSOLIDATED_LIST';
const NAME_PARTS = new Set(['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME']);
/** An element's text kept: far past any name (names are cut to MAX_NAME_CHARS after), so a crafted giant one is never copied whole. */
const MAX_TEXT = 1 << 16;

interface Gathering {
  kind: 'person' | 'organisation';
  dataId: string;
  reference: string;
  parts: string[];
  draft: EntryDraft;
}

export async function* parseUn(source: ByteSource): AsyncGenerator<ListedEntry> {
  const parser = new SaxesParser();
  const ready: ListedEntry[] = [];
  const path: string[] = [];
  let text = '';
  let current: Gathering | null = null;
  let sawRoot = false;

  parser.on('opentag', (tag) => {
    if (!sawRoot) {
      if (tag.name !== ROOT) throw new ListFormatError(FILE, parser.line, `the root element is ${tag.name}, not ${ROOT}`);
      sawRoot = true;
    }
    path.push(tag.name);
    text = '';
    if ((tag.name === 'INDIVIDUAL' || tag.name === 'ENTITY') && path.length === 3) {
      current = { kind: tag.name === 'INDIVIDUAL' ? 'person' : 'organisation', dataId: '', reference: '', parts: [], draft: new EntryDraft('un', '') };
    }
  });
  const keep = (t: string) => {
    if (text.length < MAX_TEXT) text += t.length > MAX_TEXT ? t.slice(0, MAX_TEXT) : t;
  };
  parser.on('text', keep);
  parser.on('cdata', keep);
  parser.on('closetag', (tag) => {
    const parent = path[path.length - 2];
    path.pop();
    const g = current;
    if (!g) return;
    const value = text.trim();
    text = '';
    if (path.length === 2) {
      // The entry's end.
      const listId = g.reference || g.dataId;
      if (!listId) throw new ListFormatError(FILE, parser.line, `an ${tag.name} without DATAID or REFERENCE_NUMBER`);
      const entry = new EntryDraft('un', listId);
      entry.kind = g.kind;
      entry.addName(g.parts.join(' '));
      for (const n of g.draft.names) entry.addName(n);
      for (const d of g.draft.birthDates) entry.add('birthDates', d);
      for (const c of g.draft.countries) entry.add('countries', c);
      for (const p of g.draft.programmes) entry.add('programmes', p);
      ready.push(entry.done());
      current = null;
      return;
    }
    if (!value) return;
    if (path.length === 3) {
      // A field of the entry itself.
      if (tag.name === 'DATAID') g.dataId = value;
      else if (tag.name === 'REFERENCE_NUMBER') g.reference = value;
      else if (NAME_PARTS.has(tag.name)) g.parts.push(value);
      else if (tag.name === 'UN_LIST_TYPE') g.draft.add('programmes', value);
      else if (tag.name === 'NAME_ORIGINAL_SCRIPT') g.draft.addName(value);
      return;
    }
    // A person's aliases are often written `LAST, First`.
    if (tag.name === 'ALIAS_NAME') g.draft.addName(g.kind === 'person' ? naturalOrder(value) : value);
    else if (parent === 'INDIVIDUAL_DATE_OF_BIRTH' && tag.name === 'DATE') g.draft.add('birthDates', dateInDigits(value));
    else if (parent === 'INDIVIDUAL_DATE_OF_BIRTH' && /^(YEAR|FROM_YEAR|TO_YEAR)$/.test(tag.name)) g.draft.add('birthDates', /^\d{4}$/.test(value) ? value : null);
    else if (parent === 'NATIONALITY' && tag.name === 'VALUE') g.draft.add('countries', countryCode(value));
    else if (/_ADDRESS$/.test(parent ?? '') && tag.name === 'COUNTRY') g.draft.add('countries', countryCode(value));
  });

  try {
    for await (const chunk of decodeText(source)) {
      parser.write(chunk);
      yield* ready.splice(0);
    }
    parser.close();
  } catch (err) {
    if (err instanceof ListFormatError) throw err;
    // saxes prefixes its messages with the position: strip it, the line is ours.
    throw new ListFormatError(FILE, parser.line, err instanceof Error ? err.message.replace(/^[^:]*:\d+:\d+:\s*/, '') : 'not XML');
  }
  if (!sawRoot) throw new ListFormatError(FILE, 1, `no ${ROOT} element`);
  yield* ready.splice(0);
}
