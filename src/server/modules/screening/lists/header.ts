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
 * Rows grouped into entries: the official files give an entry's rows one after the other, so an
 * entry is complete when the next one starts. An entry whose rows come back later is refused
 * rather than handed over twice.
 */
export class Grouper<T> {
  private current: { id: string; draft: T } | null = null;
  private readonly done = new Set<string>();

  constructor(
    private readonly file: string,
    private readonly start: (id: string) => T,
  ) {}

  /** The draft for this row's entry, and the previous entry when this row starts a new one. */
  row(id: string, line: number): { draft: T; finished: T | null } {
    if (this.current?.id === id) return { draft: this.current.draft, finished: null };
    if (this.done.has(id)) throw new ListFormatError(this.file, line, `the rows of entry ${id} are not together`);
    const finished = this.current?.draft ?? null;
    if (this.current) this.done.add(this.current.id);
    this.current = { id, draft: this.start(id) };
    return { draft: this.current.draft, finished };
  }

  last(): T | null {
    return this.current?.draft ?? null;
  }
}
