import type { EntryKind, ListedEntry } from '@core/screening/types.js';

export type ListSource = 'ofac_sdn' | 'eu' | 'un' | 'uk';

export interface ListCounts {
  entries: number;
  /** Every name, aliases included. */
  names: number;
}

/** One entry gathered from its rows: names in order (primary first), each value once. */
export class EntryDraft {
  readonly names = new Set<string>();
  readonly birthDates = new Set<string>();
  readonly countries = new Set<string>();
  readonly programmes = new Set<string>();
  kind: EntryKind = 'unknown';

  constructor(
    readonly source: ListSource,
    readonly listId: string,
  ) {}

  addName(name: string): void {
    const clean = tidy(name);
    if (clean) this.names.add(clean);
  }

  /** A name the file marks as the primary one, put first whatever its row's place. */
  addPrimary(name: string): void {
    const clean = tidy(name);
    if (!clean) return;
    const rest = [...this.names].filter((n) => n !== clean);
    this.names.clear();
    for (const n of [clean, ...rest]) this.names.add(n);
  }

  add(set: 'birthDates' | 'countries' | 'programmes', value: string | null | undefined): void {
    const clean = value == null ? '' : tidy(value);
    if (clean) this[set].add(clean);
  }

  done(): ListedEntry {
    return {
      source: this.source,
      list_id: this.listId,
      names: [...this.names],
      kind: this.kind,
      birth_dates: [...this.birthDates],
      countries: [...this.countries],
      programmes: [...this.programmes],
    };
  }
}

/** An ISO 3166-1 alpha-2 code, or nothing (the EU list writes 00 for an unknown country). */
export const isoCode = (s: string) => {
  const code = s.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : '';
};

/** Whitespace (line breaks of multi-line fields included) made single spaces. */
export const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();

/** `LAST, First Middle` (the lists' order for people) → `First Middle LAST`; other names as they are. */
export function naturalOrder(name: string): string {
  const parts = name.split(',');
  if (parts.length !== 2) return tidy(name);
  const [last, first] = parts.map(tidy) as [string, string];
  return first && last ? `${first} ${last}` : tidy(name);
}

/** Counts the entries and names going through, for the version's record; an entry with no name cannot match and is left out. */
export async function* counted(entries: AsyncIterable<ListedEntry>, counts: ListCounts): AsyncGenerator<ListedEntry> {
  for await (const entry of entries) {
    if (entry.names.length === 0) continue;
    counts.entries++;
    counts.names += entry.names.length;
    yield entry;
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
