import { createHash } from 'node:crypto';
import type { ListSettings, ListSourceId, ListState, ListsOverview, ListVersion } from '@core/api/screening.js';
import { AppError } from '@core/errors.js';
import type { ListedEntry } from '@core/screening/types.js';
import type { Config } from '@server/config.js';
import type { Db } from '@server/db/client.js';
import { type Lang, t } from '@server/i18n.js';
import { type Actor, recordAudit } from '../audit/service.js';
import { screeningIndex } from './index-cache.js';
import { type ByteSource, ListBoundsError, ListFormatError, type ListFiles, readList } from './lists/index.js';
import { queueRescreen, releaseStaleHolds } from './rescreen.js';
import {
  confirmVersion, type EntryInsert, insertEntries, insertVersion, lockSource, previousVersionId, pruneEntries, setVersionCounts, sourcesWithVersions,
  type SourceRow, updateSource, type VersionRow,
} from './repo.js';

// The sanctions lists' versions (docs/rules/screening.md#lists-in-the-product): imported whole
// or not at all, their settings, and what staff see of them.

/** Entries written per INSERT: 9 parameters each, far under PostgreSQL's 65,535. */
const ENTRY_BATCH = 1_000;

/**
 * The most memory an import may add to its process while it reads (docs/rules/screening.md#bounds),
 * checked at every batch: past it the file is refused and the current version stays.
 */
export const MAX_IMPORT_HEAP_MB = 512;

/** An uploaded list file with its hash, read from wherever it waits (a temporary file, the import's stored pieces). */
export interface UploadedListFile {
  /** The official name it was sent under (`sdn.csv`, …). */
  name: string;
  sha256: string;
  /** Its bytes from the start; called once, when the parser reaches the file. */
  open(): ByteSource;
}

function versionJson(v: VersionRow): ListVersion {
  return {
    id: v.id, source: v.source, sha256: v.sha256, entries: v.entries, names: v.names, imported_by: v.imported_by,
    imported_at: v.imported_at.toISOString(),
  };
}

/** The OFAC files in their fixed order; the other lists' one file. */
const OFAC_ORDER = ['sdn.csv', 'alt.csv', 'add.csv'] as const;

/**
 * The version's hash: the file's sha256, or for OFAC the sha256 of `name:sha256` lines of its
 * files in the order sdn, alt, add, so the same three files give the same hash however sent.
 */
function versionHash(source: ListSourceId, files: UploadedListFile[]): string {
  if (source !== 'ofac_sdn') return files[0]!.sha256;
  const lines = OFAC_ORDER.flatMap((name) => files.filter((f) => f.name === name).map((f) => `${name}:${f.sha256}\n`));
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** The files the parser reads, each opened only when the parser reaches it. */
function listFiles(source: ListSourceId, files: UploadedListFile[]): ListFiles {
  const lazy = (name: string): ByteSource | undefined => {
    const file = files.find((f) => f.name === name);
    return file && { [Symbol.asyncIterator]: () => file.open()[Symbol.asyncIterator]() };
  };
  return source === 'ofac_sdn'
    ? { source, files: { sdn: lazy('sdn.csv')!, alt: lazy('alt.csv'), add: lazy('add.csv') } }
    : { source, file: lazy(files[0]!.name)! };
}

/** sha256 of the entry's JSON with its lists in a fixed order: unchanged in a later version, the same. */
function entryFingerprint(e: ListedEntry): string {
  const sorted = (xs: string[] | undefined) => [...(xs ?? [])].sort();
  const [primary, ...aliases] = e.names;
  const normal = {
    source: e.source, list_id: e.list_id, kind: e.kind, names: [primary, ...aliases.sort()],
    birth_dates: sorted(e.birth_dates), countries: sorted(e.countries), programmes: sorted(e.programmes),
  };
  return createHash('sha256').update(JSON.stringify(normal)).digest('hex');
}

/** What an import made, with the names it cut to the matcher's longest. */
export type ImportedList = ListVersion & { unchanged: boolean; names_cut: number };

/**
 * Imports a list's file(s) as its new current version, in one transaction: entries in batches as
 * the parser reads them, the counts, the list made current (and required at its first import),
 * the re-screening of everyone queued, the audit row. The same hash as the current version answers that version, unchanged.
 * A file the parser refuses, or one past the bounds, leaves nothing behind. `actor` null: the
 * scheduled fetch (fetch.ts). `progress` hears the entries read so far, at each batch.
 */
export async function importList(
  ctx: { db: Db; config: Pick<Config, 'JOB_MAX_ATTEMPTS'> }, actor: Actor | null, source: ListSourceId, files: UploadedListFile[],
  progress?: (entries: number) => Promise<void>,
): Promise<ImportedList> {
  const { db } = ctx;
  const sha256 = versionHash(source, files);
  const result = await db.transaction(async (tx) => {
    const settings = await lockSource(tx, source);
    const current = (await sourcesWithVersions(tx)).find((r) => r.source.source === source)?.version ?? null;
    if (current && current.sha256 === sha256) {
      // The list as its publisher has it now: its age counts from this import, and the transfers
      // held because it was stale are released when no required list is stale any more.
      const confirmed = await confirmVersion(tx, current.id);
      const now = Date.now();
      const fresh = (await sourcesWithVersions(tx)).every((r) => !stateOf(r.source, r.version, now).stale);
      const released = fresh ? await releaseStaleHolds(tx, await screeningIndex(db).state()) : 0;
      await recordAudit(tx, actor, {
        action: 'screening_list.import', target: 'screening_list', id: source,
        after: { version_id: current.id, sha256, unchanged: true, ...(released ? { holds_released: released } : {}) },
      });
      return { version: confirmed, unchanged: true, names_cut: 0 };
    }
    const draft = await insertVersion(tx, { source, sha256, entries: 0, names: 0, imported_by: actor?.profile_id ?? null });
    const { entries, counts } = readList(listFiles(source, files));
    const heapAtStart = process.memoryUsage().heapUsed;
    let batch: EntryInsert[] = [];
    for await (const e of entries) {
      batch.push({
        version_id: draft.id, list_id: e.list_id, kind: e.kind, names: e.names, birth_dates: e.birth_dates ?? [], countries: e.countries ?? [],
        programmes: e.programmes ?? [], fingerprint: entryFingerprint(e),
      });
      if (batch.length >= ENTRY_BATCH) {
        await insertEntries(tx, batch);
        batch = [];
        if (process.memoryUsage().heapUsed - heapAtStart > MAX_IMPORT_HEAP_MB * 1_048_576) {
          throw new ListBoundsError(files[0]!.name, `more than ${MAX_IMPORT_HEAP_MB} MB of memory to read`);
        }
        await progress?.(counts.entries);
      }
    }
    await insertEntries(tx, batch);
    // A file with a header and no entry would empty the list: refused like any file not in its format.
    if (counts.entries === 0) throw new ListFormatError(files[0]!.name, 1, 'the file lists no entry');
    await progress?.(counts.entries);
    const version = await setVersionCounts(tx, draft.id, { entries: counts.entries, names: counts.names });
    await updateSource(tx, source, { current_version_id: version.id, ...(settings.current_version_id ? {} : { required: true }) });
    // A new version: everyone is screened again against it (a durable job of its own).
    await queueRescreen(tx, ctx.config.JOB_MAX_ATTEMPTS);
    // The previous version's entries are kept for comparing the two; older ones are dropped.
    const previous = await previousVersionId(tx, source, version.id);
    await pruneEntries(tx, source, previous ? [version.id, previous] : [version.id]);
    await recordAudit(tx, actor, {
      action: 'screening_list.import', target: 'screening_list', id: source,
      before: current ? { version_id: current.id, sha256: current.sha256, entries: current.entries } : null,
      after: {
        version_id: version.id, sha256, entries: version.entries, names: version.names, files: files.map((f) => f.name),
        ...(counts.names_cut ? { names_cut: counts.names_cut } : {}),
      },
    });
    return { version, unchanged: false, names_cut: counts.names_cut };
  }).catch((err: unknown) => {
    // A single-file list's error names the file as it was sent.
    const fileOf = (e: ListFormatError | ListBoundsError) => (source === 'ofac_sdn' ? e.file : files[0]!.name);
    if (err instanceof ListFormatError) {
      const file = fileOf(err);
      throw new AppError('list_format_invalid', { vars: { file, line: err.line, reason: err.reason }, extra: { file, line: err.line } });
    }
    if (err instanceof ListBoundsError) {
      const file = fileOf(err);
      throw new AppError('list_too_large', { vars: { file, reason: err.reason }, extra: { file } });
    }
    throw err;
  });
  // This process searches the new version (and holds on the lists' new freshness) at once; the
  // others within VERSION_CHECK_MS.
  await screeningIndex(db).refresh();
  return { ...versionJson(result.version), unchanged: result.unchanged, names_cut: result.names_cut };
}

const HOUR_MS = 3_600_000;

function stateOf(source: SourceRow, version: VersionRow | null, now: number): ListState {
  // A list imported again unchanged (its publisher had nothing new) is as fresh as that import.
  const ageHours = version ? (now - (version.confirmed_at ?? version.imported_at).getTime()) / HOUR_MS : null;
  return {
    source: source.source,
    current: version ? versionJson(version) : null,
    age_hours: ageHours === null ? null : Math.round(ageHours * 10) / 10,
    required: source.required,
    max_age_hours: source.max_age_hours,
    // A required list never imported is as stale as an old one: nothing fresh to screen against.
    stale: source.required && (ageHours === null || ageHours > source.max_age_hours),
  };
}

/** Every list's state, and whether anyone is being screened at all, said plainly. */
export async function listsOverview(db: Db, lang: Lang, now = Date.now()): Promise<ListsOverview> {
  const lists = (await sourcesWithVersions(db)).map((r) => stateOf(r.source, r.version, now));
  const named = (xs: ListState[]) => xs.map((l) => t(lang, `admin.screening.sources.${l.source}`)).join(', ');
  const loaded = lists.filter((l) => l.current);
  const stale = lists.filter((l) => l.stale);
  const message = !loaded.length
    ? t(lang, 'admin.screening.none')
    : stale.length ? t(lang, 'admin.screening.stale', { lists: named(stale) }) : t(lang, 'admin.screening.active', { lists: named(loaded) });
  return { screening_active: loaded.length > 0, message, lists };
}

/**
 * The admin changes whether a list is required and how old it may get; audited. When no required
 * list is stale any more, the transfers held only because lists were stale have their recipient
 * screened and that hold released in the same transaction (the audit row counts them).
 */
export async function updateListSettings(db: Db, actor: Actor, source: ListSourceId, body: ListSettings): Promise<ListState> {
  const screening = await screeningIndex(db).state();
  const state = await db.transaction(async (tx) => {
    const before = await lockSource(tx, source);
    const after = await updateSource(tx, source, {
      ...(body.required !== undefined ? { required: body.required } : {}),
      ...(body.max_age_hours !== undefined ? { max_age_hours: body.max_age_hours } : {}),
      updated_by: actor.profile_id,
    });
    const now = Date.now();
    const lists = await sourcesWithVersions(tx);
    const fresh = lists.every((r) => !stateOf(r.source, r.version, now).stale);
    const released = fresh ? await releaseStaleHolds(tx, screening) : 0;
    await recordAudit(tx, actor, {
      action: 'screening_list.update', target: 'screening_list', id: source,
      before: { required: before.required, max_age_hours: before.max_age_hours },
      after: { required: after.required, max_age_hours: after.max_age_hours, ...(released ? { holds_released: released } : {}) },
    });
    const version = lists.find((r) => r.source.source === source)?.version ?? null;
    return stateOf(after, version, now);
  });
  // This process holds new transfers on the new freshness at once; the others within VERSION_CHECK_MS.
  await screeningIndex(db).refresh();
  return state;
}
