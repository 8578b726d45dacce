import type { CsvRecord } from './csv.js';
import { ListFormatError } from './format-error.js';

/**
 * The columns of a CSV file with a header row, found by name (case and spacing aside) so that
 * columns added or moved by the publisher do not matter; a missing required column refuses the file.
 */
export function columns<K extends string>(header: CsvRecord, file: string, wanted: Record<K, { names: string[]; required?: boolean }>): Record<K, number> {
  const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const at = new Map(header.fields.map((f, i) => [key(f), i] as const));
  const found = {} as Record<K, number>;
  for (const [k, spec] of Object.entries(wanted) as Array<[K, { names: string[]; required?: boolean }]>) {
    const i = spec.names.map((n) => at.get(key(n))).find((x) => x !== undefined);
    if (i === undefined && spec.required) throw new ListFormatError(file, header.line, `no column ${spec.names[0]} in the header row`);
    found[k] = i ?? -1;
  }
  return found;
}

/** A row's cell by column index (-1: the file has no such column). */
export const cell = (fields: string[], i: number) => (i < 0 ? '' : (fields[i] ?? '').trim());

/**
 * Rows gathered into entries by their id, in the order each entry first appears. OFSI's list is
 * sorted by name, so an entry's rows may lie far apart; what is kept is each entry's values, far
 * smaller than the file.
 */
export class Grouper<T> {
  private readonly drafts = new Map<string, T>();

  constructor(private readonly start: (id: string) => T) {}

  row(id: string): T {
    let draft = this.drafts.get(id);
    if (!draft) this.drafts.set(id, (draft = this.start(id)));
    return draft;
  }

  all(): IterableIterator<T> {
    return this.drafts.values();
  }
}
