import type { ListSourceId } from '@core/api/screening.js';
import { HOLD_THRESHOLD, indexSteps, type ListedEntry, type ScreeningIndex } from '@core/screening/index.js';
import type { Db } from '@server/db/client.js';
import { screeningSnapshot, versionEntries, type SnapshotRow } from './repo.js';

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
  /** Each entry's row id and fingerprint (an alert names both; a false positive is remembered by the fingerprint). */
  stored: Map<ListedEntry, { entry_id: number; fingerprint: string }>;
}

/** What screening needs besides the index, read with the versions (one small query every VERSION_CHECK_MS at most). */
export interface ScreeningState {
  loaded: LoadedIndex | null;
  /** The hold threshold (a settings row; HOLD_THRESHOLD until the admin sets one). */
  threshold: number;
  /** The required lists older than their maximum age (or never imported) at `now`: new transfers wait. */
  stale(now?: number): ListSourceId[];
}

const HOUR_MS = 3_600_000;

const keyOf = (versions: { id: string }[]) => versions.map((v) => v.id).join(',');

class ScreeningIndexCache {
  private loaded: { key: string; value: LoadedIndex | null } | null = null;
  private snapshot: SnapshotRow[] = [];
  private checkedAt = 0;
  private building: { key: string; promise: Promise<LoadedIndex | null> } | null = null;
  /** The versions' read under way: callers arriving meanwhile share it (at each expiry a busy server would send one per request). */
  private checking: Promise<LoadedIndex | null> | null = null;

  constructor(private readonly db: Db, private readonly now: () => number = Date.now) {}

  /** The index of the current versions, or null when no list was ever imported. */
  async current(): Promise<LoadedIndex | null> {
    if (this.loaded && this.now() - this.checkedAt < VERSION_CHECK_MS) return this.loaded.value;
    this.checking ??= this.refresh().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /** The index with the lists' freshness and the hold threshold, as of at most VERSION_CHECK_MS ago. */
  async state(): Promise<ScreeningState> {
    const loaded = await this.current();
    const rows = this.snapshot;
    const setting = rows.find((r) => r.threshold !== null)?.threshold;
    const threshold = setting ? Number(setting) : HOLD_THRESHOLD;
    return {
      loaded, threshold: Number.isFinite(threshold) ? threshold : HOLD_THRESHOLD,
      stale: (now = this.now()) => rows.filter((r) => r.required
        && (r.fresh_at === null || (now - new Date(r.fresh_at).getTime()) / HOUR_MS > r.max_age_hours)).map((r) => r.source),
    };
  }

  /** Reads the current versions now and rebuilds the index when they changed (after an import, a settings change). */
  async refresh(): Promise<LoadedIndex | null> {
    const rows = await screeningSnapshot(this.db);
    this.snapshot = rows;
    const versions = rows.filter((r) => r.current_version_id !== null).map((r) => ({ source: r.source, id: r.current_version_id! }));
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
    const entries: ListedEntry[] = [];
    const stored: LoadedIndex['stored'] = new Map();
    for await (const page of versionEntries(this.db, versions)) {
      for (const r of page) {
        entries.push(r.entry);
        stored.set(r.entry, { entry_id: r.entry_id, fingerprint: r.fingerprint });
      }
    }
    return { index: await buildIndexYielding(entries), versionOf: new Map(versions.map((v) => [v.source, v.id])), stored };
  }
}

/** The index built in steps, the event loop free between them: requests are answered while a large list is indexed. */
async function buildIndexYielding(entries: ListedEntry[]): Promise<ScreeningIndex> {
  const steps = indexSteps(entries);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const caches = new WeakMap<Db, ScreeningIndexCache>();

/** The process's index cache for this database (one per app). */
export function screeningIndex(db: Db): ScreeningIndexCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, cache = new ScreeningIndexCache(db));
  return cache;
}
