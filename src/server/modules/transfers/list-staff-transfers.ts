import type { StaffListQuery } from '@core/api/admin.js';
import type { StaffRequestJson } from '@core/api/transfers.js';
import type { AppContext } from '@server/context.js';
import { type Cursor, decodeCursor, encodeCursor } from '@server/lib/cursor.js';
import { AppError } from '@core/errors.js';
import { prepareFilter, staffRows, type PreparedFilter } from './repo.js';
import { staffRowToJson } from './staff-view.js';

// The back office's list (GET /api/transfer-requests as staff): every sender's transfers with its
// filters, a page at a time (docs/rules/back-office.md).

export async function staffPage(ctx: Pick<AppContext, 'db' | 'config'>, filter: PreparedFilter, cursor: Cursor | null, limit: number) {
  const rows = await staffRows(ctx.db, filter, cursor, limit);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => staffRowToJson(r, ctx.config.publicUrl)),
    next: more && last ? { at: last.at, id: last.request.id } : null,
  };
}

/** Every sender's requests with the back office's filters, newest or oldest first, a page at a time. */
export async function listStaffRequests(ctx: Pick<AppContext, 'db' | 'config'>, query: StaffListQuery): Promise<{ data: StaffRequestJson[]; next_cursor: string | null }> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !cursor) throw new AppError('cursor_invalid');
  const { rows, next } = await staffPage(ctx, await prepareFilter(ctx.db, query), cursor, query.limit);
  return { data: rows, next_cursor: next ? encodeCursor(next) : null };
}
