import { and, asc, desc, eq, gt, inArray, notInArray, sql } from 'drizzle-orm';
import type { ListSourceId } from '@core/api/screening.js';
import type { EntryKind, ListedEntry } from '@core/screening/types.js';
import type { Db, Tx } from '@server/db/client.js';
import { screeningListEntries, screeningListVersions, screeningSources } from '@server/db/schema.js';

export type VersionRow = typeof screeningListVersions.$inferSelect;
export type SourceRow = typeof screeningSources.$inferSelect;

/** Each list's settings with its current version (null before its first import). */
export async function sourcesWithVersions(db: Db | Tx): Promise<{ source: SourceRow; version: VersionRow | null }[]> {
  const rows = await db.select({ source: screeningSources, version: screeningListVersions })
    .from(screeningSources)
    .leftJoin(screeningListVersions, eq(screeningListVersions.id, screeningSources.current_version_id))
    .orderBy(asc(screeningSources.source));
  return rows;
}

/** The key of the hold threshold's row in `settings` (docs/rules/screening.md#holds-and-alerts). */
export const THRESHOLD_SETTING = 'screening_hold_threshold';

export type SnapshotRow = {
  source: ListSourceId;
  current_version_id: string | null;
  required: boolean;
  max_age_hours: number;
  /** When the current version was imported, or last imported again unchanged: its age counts from then. */
  fresh_at: string | null;
  threshold: string | null;
};

/**
 * One cheap query: the current version ids (what the in-memory index is checked against), each
 * list's freshness, and the hold threshold.
 */
export async function screeningSnapshot(db: Db): Promise<SnapshotRow[]> {
  const result = await db.execute<SnapshotRow>(sql`select s.source, s.current_version_id, s.required, s.max_age_hours, coalesce(v.confirmed_at, v.imported_at)::text as fresh_at,
      (select value from settings where key = ${THRESHOLD_SETTING}) as threshold
    from screening_sources s left join screening_list_versions v on v.id = s.current_version_id order by s.source`);
  return result.rows;
}

/** The list's settings row, locked: imports of one list run one after the other. */
export async function lockSource(tx: Tx, source: ListSourceId): Promise<SourceRow> {
  const [row] = await tx.select().from(screeningSources).where(eq(screeningSources.source, source)).for('update');
  if (!row) throw new Error(`screening_sources has no row for ${source}`);
  return row;
}

export async function insertVersion(tx: Tx, values: typeof screeningListVersions.$inferInsert): Promise<VersionRow> {
  const [row] = await tx.insert(screeningListVersions).values(values).returning();
  return row!;
}

export async function setVersionCounts(tx: Tx, id: string, counts: { entries: number; names: number }): Promise<VersionRow> {
  const [row] = await tx.update(screeningListVersions).set(counts).where(eq(screeningListVersions.id, id)).returning();
  return row!;
}

/** The same file(s) imported again: the version is confirmed current now (the list's age counts from here). */
export async function confirmVersion(tx: Tx, id: string): Promise<VersionRow> {
  const [row] = await tx.update(screeningListVersions).set({ confirmed_at: new Date() }).where(eq(screeningListVersions.id, id)).returning();
  return row!;
}

export type EntryInsert = typeof screeningListEntries.$inferInsert;

export async function insertEntries(tx: Tx, rows: EntryInsert[]): Promise<void> {
  if (rows.length) await tx.insert(screeningListEntries).values(rows);
}

export async function updateSource(tx: Db | Tx, source: ListSourceId, values: Partial<typeof screeningSources.$inferInsert>): Promise<SourceRow> {
  const [row] = await tx.update(screeningSources).set(values).where(eq(screeningSources.source, source)).returning();
  return row!;
}

/**
 * Drops the entries of the list's versions other than the ones kept (the current one and the one
 * before): the versions' rows stay, as the record of every import.
 */
export async function pruneEntries(tx: Tx, source: ListSourceId, keep: string[]): Promise<void> {
  const older = tx.select({ id: screeningListVersions.id }).from(screeningListVersions)
    .where(and(eq(screeningListVersions.source, source), notInArray(screeningListVersions.id, keep)));
  await tx.delete(screeningListEntries).where(inArray(screeningListEntries.version_id, older));
}

/** The version imported just before this one, if any. */
export async function previousVersionId(tx: Tx, source: ListSourceId, before: string): Promise<string | null> {
  const [row] = await tx.select({ id: screeningListVersions.id }).from(screeningListVersions)
    .where(and(eq(screeningListVersions.source, source), sql`${screeningListVersions.id} <> ${before}`))
    .orderBy(desc(screeningListVersions.imported_at)).limit(1);
  return row?.id ?? null;
}

/** A page of the versions' entries for the matcher's index (index-cache.ts reads them page by page). */
const ENTRY_PAGE = 5_000;

/**
 * The versions' entries, as the matcher reads them, in their file's order: read a page at a time
 * (by id), each page handed on before the next is asked for, so that a list of 100,000 entries
 * is never held twice over as rows and entries, nor mapped in one go while requests wait.
 */
export async function* versionEntries(db: Db, versions: { source: ListSourceId; id: string }[]): AsyncGenerator<{ entry: ListedEntry; entry_id: number; fingerprint: string }[]> {
  if (!versions.length) return;
  const sourceOf = new Map(versions.map((v) => [v.id, v.source]));
  let after = 0;
  for (;;) {
    const rows = await db.select().from(screeningListEntries)
      .where(and(inArray(screeningListEntries.version_id, versions.map((v) => v.id)), gt(screeningListEntries.id, after)))
      .orderBy(asc(screeningListEntries.id)).limit(ENTRY_PAGE);
    if (!rows.length) return;
    after = rows[rows.length - 1]!.id;
    yield rows.map((r) => ({
      entry: {
        source: sourceOf.get(r.version_id)!, list_id: r.list_id, names: r.names, kind: r.kind as EntryKind,
        birth_dates: r.birth_dates, countries: r.countries, programmes: r.programmes,
      },
      entry_id: r.id, fingerprint: r.fingerprint,
    }));
  }
}
