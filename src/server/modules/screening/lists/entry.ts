import { MAX_NAME_CHARS } from '@core/screening/tokens.js';
import type { EntryKind, ListedEntry } from '@core/screening/types.js';
import { ListBoundsError } from './format-error.js';

export type ListSource = 'ofac_sdn' | 'eu' | 'un' | 'uk';

export interface ListCounts {
  entries: number;
  /** Every name, aliases included. */
  names: number;
  /** Names longer than MAX_NAME_CHARS, cut to it (the import reports them). */
  names_cut: number;
}

/**
 * The most entries a file may hold (docs/rules/screening.md#bounds): the largest published list
 * has about 20,000. Past it the file is refused.
 */
export const MAX_ENTRIES = 500_000;

/**
 * One entry gathered from its rows: names in order (primary first), each value once. Arrays, not
 * sets: an entry has a few values each, and a list of 100,000 entries is held whole while its
 * rows are grouped.
 */
export class EntryDraft {
  names: string[] = [];
  readonly birthDates: string[] = [];
  readonly countries: string[] = [];
  readonly programmes: string[] = [];
  kind: EntryKind = 'unknown';

  constructor(
    readonly source: ListSource,
    readonly listId: string,
  ) {}

  addName(name: string): void {
    const clean = tidy(name);
    if (clean && !this.names.includes(clean)) this.names.push(clean);
  }

  /** A name the file marks as the primary one, put first whatever its row's place. */
  addPrimary(name: string): void {
    const clean = tidy(name);
    if (clean) this.names = [clean, ...this.names.filter((n) => n !== clean)];
  }

  add(set: 'birthDates' | 'countries' | 'programmes', value: string | null | undefined): void {
    const clean = value == null ? '' : tidy(value);
    if (clean && !this[set].includes(clean)) this[set].push(clean);
  }

  done(): ListedEntry {
    return {
      source: this.source,
      list_id: this.listId,
      names: this.names,
      kind: this.kind,
      birth_dates: this.birthDates,
      countries: this.countries,
      programmes: this.programmes,
    };
  }
}

/** An ISO 3166-1 alpha-2 code, or nothing (the EU list writes 00 for an unknown country). */
export const isoCode = (s: string) => {
  const code = s.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : '';
};

/**
 * Whitespace (line breaks of multi-line fields included) made single spaces, as a string of its
 * own: a value cut from the file's text by the parsers would otherwise keep that whole chunk of
 * text alive as long as the entry is held (a grouped list held the whole file twice over).
 */
export const tidy = (s: string) => Buffer.from(s.replace(/\s+/g, ' ').trim()).toString();

/** `LAST, First Middle` (the lists' order for people) → `First Middle LAST`; other names as they are. */
export function naturalOrder(name: string): string {
  const parts = name.split(',');
  if (parts.length !== 2) return tidy(name);
  const [last, first] = parts.map(tidy) as [string, string];
  return first && last ? `${first} ${last}` : tidy(name);
}

/**
 * Counts the entries and names going through, for the version's record, cutting each name to
 * MAX_NAME_CHARS (counted); an entry with no name cannot match and is left out. More than
 * MAX_ENTRIES entries refuse the file.
 */
export async function* counted(entries: AsyncIterable<ListedEntry>, counts: ListCounts, file: string): AsyncGenerator<ListedEntry> {
  for await (const entry of entries) {
    if (entry.names.length === 0) continue;
    if (++counts.entries > MAX_ENTRIES) throw new ListBoundsError(file, `more than ${MAX_ENTRIES.toLocaleString('en')} entries`);
    counts.names += entry.names.length;
    const names = entry.names.map((n) => (n.length > MAX_NAME_CHARS ? n.slice(0, MAX_NAME_CHARS).trimEnd() : n));
    counts.names_cut += names.filter((n, i) => n !== entry.names[i]).length;
    yield { ...entry, names };
  }
}

const MONTHS: Record<string, string> = {
  jan: '01', feb: '02', mar: '03', apr: '04', may: '05', jun: '06', jul: '07', aug: '08', sep: '09', oct: '10', nov: '11', dec: '12',
};

/**
 * Birth dates as the lists write them in words (`12 Mar 1960`, `Mar 1960`, `circa 1960`,
 * `1958 to 1961`) → `YYYY-MM-DD`, `YYYY-MM` or `YYYY`; a span of years gives each year in it.
 */
export function datesInWords(text: string): string[] {
  const cleaned = tidy(text.replace(/\b(circa|approximately|approx\.?|about)\b/gi, ''));
  const parts = cleaned.split(/\s+to\s+/i).map(dateInWords);
  if (parts.some((p) => p === null)) return [];
  const dates = parts as string[];
  if (dates.length === 2 && /^\d{4}$/.test(dates[0]!) && /^\d{4}$/.test(dates[1]!)) {
    const from = Number(dates[0]);
    const to = Number(dates[1]);
    if (to > from && to - from <= 10) return Array.from({ length: to - from + 1 }, (_, k) => String(from + k));
  }
  return dates;
}

function dateInWords(text: string): string | null {
  let m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(text);
  if (m && MONTHS[m[2]!.toLowerCase()]) return `${m[3]}-${MONTHS[m[2]!.toLowerCase()]}-${m[1]!.padStart(2, '0')}`;
  m = /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(text);
  if (m && MONTHS[m[1]!.toLowerCase()]) return `${m[2]}-${MONTHS[m[1]!.toLowerCase()]}`;
  m = /^(\d{4})$/.exec(text);
  return m ? m[1]! : null;
}

/** `dd/mm/yyyy` with unknown parts as 00 (the UK list), or ISO `yyyy-mm-dd` → the matcher's form. */
export function dateInDigits(text: string): string | null {
  const t = tidy(text);
  let m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (m) {
    const [d, mo, y] = [Number(m[1]), Number(m[2]), m[3]!];
    if (mo === 0) return y;
    if (d === 0) return `${y}-${String(mo).padStart(2, '0')}`;
    return `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }
  m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(t);
  if (!m) return null;
  if (!m[2] || m[2] === '00') return m[1]!;
  if (!m[3] || m[3] === '00') return `${m[1]}-${m[2]}`;
  return `${m[1]}-${m[2]}-${m[3]}`;
}
