import { Readable } from 'node:stream';
import type { StaffFilter } from '@core/api/admin.js';
import type { AppContext } from '@server/context.js';
import type { Cursor } from '@server/lib/cursor.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { csvHeader, csvLine } from './export-csv.js';
import { staffPage } from './list-staff-transfers.js';
import { prepareFilter } from './repo.js';

// The back office's CSV export of the filtered list (GET /api/transfer-requests/export.csv).

/** Rows fetched per query by the export: one batch in memory at a time, however large the table. */
const EXPORT_BATCH = 500;

/** The filtered list as CSV lines, read batch by batch with the list's keyset cursor. */
export async function* exportLines(ctx: Pick<AppContext, 'db' | 'config'>, filter: StaffFilter, batch = EXPORT_BATCH): AsyncGenerator<string> {
  yield csvHeader();
  const prepared = await prepareFilter(ctx.db, filter);
  let cursor: Cursor | null = null;
  do {
    const page: Awaited<ReturnType<typeof staffPage>> = await staffPage(ctx, prepared, cursor, batch);
    if (page.rows.length) yield page.rows.map(csvLine).join('');
    cursor = page.next;
  } while (cursor);
}

/** The export is a staff action: recorded with its filter before the file is sent. */
export async function exportStream(ctx: AppContext, actor: Actor, filter: StaffFilter): Promise<Readable> {
  await recordAudit(ctx.db, actor, { action: 'transfer_request.export', target: 'export', id: null, after: filter });
  return Readable.from(exportLines(ctx, filter), { objectMode: false });
}
