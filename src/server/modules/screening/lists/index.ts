import type { ListedEntry } from '@core/screening/types.js';
import type { ByteSource } from './decode.js';
import { counted, type ListCounts, type ListSource } from './entry.js';
import { parseEu } from './eu.js';
import { type OfacFiles, parseOfacSdn } from './ofac.js';
import { parseUk } from './uk.js';
import { parseUn } from './un.js';

// The sanctions lists' official files read as entries for the matcher (docs/rules/screening.md#list-files).
export { ListBoundsError, ListFormatError } from './format-error.js';
export type { ByteSource, ListCounts, ListSource, OfacFiles };

export type ListFiles = { source: 'ofac_sdn'; files: OfacFiles } | { source: 'eu' | 'un' | 'uk'; file: ByteSource };

/**
 * A list's entries, read as they stream in, and their counts (final once the entries are read
 * to the end). A file not in its list's format throws ListFormatError, with the file and line.
 */
export function readList(input: ListFiles): { entries: AsyncGenerator<ListedEntry>; counts: ListCounts } {
  const counts: ListCounts = { entries: 0, names: 0, names_cut: 0 };
  const entries =
    input.source === 'ofac_sdn'
      ? parseOfacSdn(input.files)
      : input.source === 'eu'
        ? parseEu(input.file)
        : input.source === 'un'
          ? parseUn(input.file)
          : parseUk(input.file);
  return { entries: counted(entries, counts, input.source === 'ofac_sdn' ? 'sdn.csv' : input.source), counts };
}
