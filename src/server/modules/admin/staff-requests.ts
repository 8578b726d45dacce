import { and, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { DIRECTION_IDS } from '../../../core/channels.js';
import { TRANSFER_STATUSES } from '../../../core/status.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { profiles, transferRequests, transferSearchText } from '../../db/schema.js';
import { type Cursor, decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { transferRequestToJson } from '../transfers/serialize.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayField = z.string({ error: 'validation.checkInput' }).regex(DAY, { error: 'admin.validation.dateInvalid' })
  // A real calendar day: 2025-02-31 does not survive the round trip.
  .refine((d) => { const t = Date.parse(`${d}T00:00:00Z`); return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d; },
    { error: 'admin.validation.dateInvalid' });

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

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** A filter ready to query: the senders whose name or e-mail match the search, looked up once. */
export type PreparedFilter = StaffFilter & { senderIds: string[] };

/**
 * Senders matching the search. Looked up first (profiles are few next to transfers) so the
 * transfer query can use its profile index instead of testing every row against a sub-query.
 */
export async function prepareFilter(db: Db, filter: StaffFilter): Promise<PreparedFilter> {
  if (!filter.q) return { ...filter, senderIds: [] };
  const like = likeText(filter.q);
  const rows = await db.select({ id: profiles.id }).from(profiles)
    .where(or(ilike(profiles.email, like), ilike(profiles.full_name, like)));
  return { ...filter, senderIds: rows.map((r) => r.id) };
}

/** A UTC day as the instant it starts, whatever the session's time zone. */
const dayStart = (day: string, plusDays = 0) => sql`((${day}::date + ${plusDays}::int)::timestamp at time zone 'UTC')`;

/**
 * The WHERE of a staff filter: status, corridor, UTC days, and the search by id, sender
 * (name, e-mail), reference, provider reference or recipient (name, phone, e-mail), where every
 * branch is indexed: primary key, trigram index on transferSearchText, profile index.
 */
export function staffWhere(filter: PreparedFilter): SQL[] {
  const tr = transferRequests;
  const where: SQL[] = [];
  if (filter.status) where.push(eq(tr.status, filter.status));
  if (filter.direction) where.push(eq(tr.direction, filter.direction));
  if (filter.from) where.push(gte(tr.created_at, dayStart(filter.from)));
  if (filter.to) where.push(lt(tr.created_at, dayStart(filter.to, 1)));
  const q = filter.q;
  if (q) {
    const matches: (SQL | undefined)[] = [sql`${transferSearchText(tr)} like ${likeText(q.toLowerCase())}`];
    if (UUID.test(q)) matches.push(eq(tr.id, q));
    if (filter.senderIds.length) matches.push(inArray(tr.profile_id, filter.senderIds));
    where.push(or(...matches)!);
  }
  return where;
}

const requesterColumns = {
  full_name: profiles.full_name,
  email: profiles.email,
};

/** The query of one page after `cursor`, in the filter's order (keyset on the created_at indexes); `limit + 1` rows tell if more follow. */
export function staffQuery(db: Db, filter: PreparedFilter, cursor: Cursor | null, limit: number) {
  const tr = transferRequests;
  const newest = filter.sort === 'newest';
  const where = staffWhere(filter);
  if (cursor) {
    where.push(newest
      ? sql`(${tr.created_at}, ${tr.id}) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)`
      : sql`(${tr.created_at}, ${tr.id}) > (${cursor.at}::timestamptz, ${cursor.id}::uuid)`);
  }
  // The created_at indexes are DESC NULLS LAST: the same ordering (or its exact reverse) lets
  // PostgreSQL read a page straight off the index instead of sorting every matching row.
  const order = newest
    ? [sql`${tr.created_at} desc nulls last`, sql`${tr.id} desc nulls last`]
    : [sql`${tr.created_at} asc nulls first`, sql`${tr.id} asc nulls first`];
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
export async function staffPage(db: Db, filter: PreparedFilter, cursor: Cursor | null, limit: number) {
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
  const { rows, next } = await staffPage(ctx.db, await prepareFilter(ctx.db, parsed), cursor, parsed.limit);
  return { data: rows, next_cursor: next ? encodeCursor(next) : null };
}
