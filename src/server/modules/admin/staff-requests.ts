import { and, asc, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { DIRECTION_IDS } from '../../../core/channels.js';
import { TRANSFER_STATUSES } from '../../../core/status.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { profiles, transferRequests } from '../../db/schema.js';
import { transferRequestToJson } from '../transfers/serialize.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayField = z.string({ error: 'validation.checkInput' }).regex(DAY, { error: 'admin.validation.dateInvalid' })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), { error: 'admin.validation.dateInvalid' });

/** The back office's filters; the same for the list and the CSV export. */
export const StaffFilterSchema = z.object({
  status: z.enum(TRANSFER_STATUSES, { error: 'validation.statusInvalid' }).optional(),
  direction: z.enum(DIRECTION_IDS, { error: 'validation.directionInvalid' }).optional(),
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: dayField.optional(),
  to: dayField.optional(),
  q: z.string({ error: 'validation.checkInput' }).trim().max(100, { error: 'validation.searchTooLong' }).optional(),
  sort: z.enum(['newest', 'oldest'], { error: 'admin.validation.sortInvalid' }).default('newest'),
});
export type StaffFilter = z.infer<typeof StaffFilterSchema>;

export const StaffListQuerySchema = StaffFilterSchema.extend({
  cursor: z.string({ error: 'validation.cursorInvalid' }).max(200, { error: 'validation.cursorInvalid' }).optional(),
  limit: z.coerce.number({ error: 'validation.limitRange' }).int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' }).max(100, { error: 'validation.limitRange' }).default(20),
});
export type StaffListQuery = z.infer<typeof StaffListQuerySchema>;

/** Position after a row: its exact timestamp text (microseconds, which a JS Date would lose) and id. */
export interface Cursor { at: string; id: string }
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.at}|${c.id}`).toString('base64url');
}

export function decodeCursor(raw: string): Cursor | null {
  const [at, id] = Buffer.from(raw, 'base64url').toString().split('|');
  if (!at || !id || !UUID.test(id) || Number.isNaN(Date.parse(at))) return null;
  return { at, id };
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The WHERE of a staff filter: status, corridor, UTC days, and the free-text search. */
export function staffWhere(filter: StaffFilter): SQL[] {
  const tr = transferRequests;
  const where: SQL[] = [];
  if (filter.status) where.push(eq(tr.status, filter.status));
  if (filter.direction) where.push(eq(tr.direction, filter.direction));
  if (filter.from) where.push(gte(tr.created_at, sql`${filter.from}::date::timestamptz`));
  if (filter.to) where.push(lt(tr.created_at, sql`(${filter.to}::date + 1)::timestamptz`));
  const q = filter.q;
  if (q) {
    const like = likeText(q);
    const dest = (field: string) => sql`${tr.destination_details}->>${field} ilike ${like}`;
    const matches: (SQL | undefined)[] = [
      ilike(tr.reference, like), eq(tr.provider_txn_id, q), eq(tr.payout_reference, q),
      ilike(profiles.email, like), ilike(profiles.full_name, like),
      dest('recipient_name'), dest('recipient_phone'), dest('recipient_email'), dest('account_holder'),
    ];
    if (UUID.test(q)) matches.unshift(eq(tr.id, q));
    where.push(or(...matches)!);
  }
  return where;
}

const requesterColumns = {
  full_name: profiles.full_name,
  email: profiles.email,
};

/** The query of one page after `cursor`, in the filter's order (keyset on the created_at indexes); `limit + 1` rows tell if more follow. */
export function staffQuery(db: Db, filter: StaffFilter, cursor: Cursor | null, limit: number) {
  const tr = transferRequests;
  const newest = filter.sort === 'newest';
  const where = staffWhere(filter);
  if (cursor) {
    where.push(newest
      ? sql`(${tr.created_at}, ${tr.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
      : sql`(${tr.created_at}, ${tr.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
  }
  const order = newest ? [desc(tr.created_at), desc(tr.id)] : [asc(tr.created_at), asc(tr.id)];
  return db.select({
    request: tr,
    requester: requesterColumns,
    at: sql<string>`${tr.created_at}::text`,
  }).from(tr).innerJoin(profiles, eq(profiles.id, tr.profile_id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(...order)
    .limit(limit + 1);
}

/** One page of staff rows after `cursor`, and the position after its last row when more follow. */
export async function staffPage(db: Db, filter: StaffFilter, cursor: Cursor | null, limit: number) {
  const rows = await staffQuery(db, filter, cursor, limit);
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    rows: page.map((r) => ({ ...transferRequestToJson(r.request), requester: { ...r.requester, profile_id: r.request.profile_id } })),
    next: more && last ? { at: last.at, id: last.request.id } : null,
  };
}

export type StaffRequestJson = Awaited<ReturnType<typeof staffPage>>['rows'][number];

/**
 * Staff view of GET /api/transfer-requests: every sender's requests with the back office's
 * filters, newest or oldest first, cursor-paginated. The caller's role is checked by the route.
 */
export async function listStaffRequests(ctx: AppContext, query: unknown): Promise<{ data: StaffRequestJson[]; next_cursor: string | null }> {
  const parsed = StaffListQuerySchema.parse(query ?? {});
  let cursor: Cursor | null = null;
  if (parsed.cursor) {
    cursor = decodeCursor(parsed.cursor);
    if (!cursor) throw new z.ZodError([{ code: 'custom', message: 'validation.cursorInvalid', path: ['cursor'], input: parsed.cursor }]);
  }
  const { rows, next } = await staffPage(ctx.db, parsed, cursor, parsed.limit);
  return { data: rows, next_cursor: next ? encodeCursor(next) : null };
}
