import type { ListSourceId } from '@core/api/screening.js';
import { buildIndex, type ScreeningIndex } from '@core/screening/index.js';
import type { Db } from '@server/db/client.js';
import { currentVersionIds, versionEntries } from './repo.js';

// One matcher index per process over the current version of every list
// (docs/rules/screening.md#lists-in-the-product). Built after an import in this process and on
// first use after start; another process's import is seen by comparing the current version ids,
// read again at most every VERSION_CHECK_MS.

/** How long this process trusts its idea of the current versions before asking the database again. */
const VERSION_CHECK_MS = 5_000;

interface LoadedIndex {
  index: ScreeningIndex;
  /** Per list: the version its entries were read from. */
  versionOf: Map<string, string>;
}

const keyOf = (versions: { id: string }[]) => versions.map((v) => v.id).join(',');

class ScreeningIndexCache {
  private loaded: { key: string; value: LoadedIndex | null } | null = null;
  private checkedAt = 0;
  private building: { key: string; promise: Promise<LoadedIndex | null> } | null = null;

  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  /** The index of the current versions, or null when no list was ever imported. */
  async current(): Promise<LoadedIndex | null> {
    if (this.loaded && this.now() - this.checkedAt < VERSION_CHECK_MS) return this.loaded.value;
    return this.refresh();
  }

  /** Reads the current versions now and rebuilds the index when they changed (after an import). */
  async refresh(): Promise<LoadedIndex | null> {
    const versions = await currentVersionIds(this.db);
    const key = keyOf(versions);
    this.checkedAt = this.now();
    if (this.loaded?.key === key) return this.loaded.value;
    // Callers arriving while the same versions are being read share that one build.
    if (this.building?.key !== key) {
      const promise = this.build(versions).then((value) => {
        if (this.building?.key === key) {
          this.loaded = { key, value };
          this.building = null;
        }
        return value;
      }, (err: unknown) => {
        if (this.building?.key === key) this.building = null;
        throw err;
      });
      this.building = { key, promise };
    }
    return this.building.promise;
  }

  private async build(versions: { source: ListSourceId; id: string }[]): Promise<LoadedIndex | null> {
    if (!versions.length) return null;
    const rows = await versionEntries(this.db, versions);
    return { index: buildIndex(rows), versionOf: new Map(versions.map((v) => [v.source, v.id])) };
  }
}

const caches = new WeakMap<Db, ScreeningIndexCache>();

/** The process's index cache for this database (one per app). */
export function screeningIndex(db: Db): ScreeningIndexCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, cache = new ScreeningIndexCache(db));
  return cache;
}
