import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { parseDecimal } from '../../../core/money.js';
import type { TransferStatus } from '../../../core/status.js';
import type { Db } from '../../db/client.js';
import { transactions, transferRequests, transferStatusHistory } from '../../db/schema.js';
import { type Cursor, decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { badRequest } from '../../lib/http-error.js';
import { listProofs } from './proofs.js';
import { transactionToJson } from './serialize.js';

// Lists page by (created_at, id) descending with a keyset cursor, so any page of a sender with
// thousands of transfers is one walk down transfer_requests_profile_*_idx / transactions_profile_*_idx.

export interface ListQuery {
  cursor?: string | undefined;
  limit: number;
  status?: TransferStatus | undefined;
  /** Only requests still open (pending or processing): the dashboard's list. */
  open?: boolean | undefined;
  q?: string | undefined;
}

function cursorOrBadRequest(raw: string): Cursor {
  const cursor = decodeCursor(raw);
  if (!cursor) throw badRequest('validation.cursorInvalid');
  return cursor;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Text search of spec §2: an id (or its start), an amount, a provider or payment reference. */
function searchCondition(q: string, table: typeof transferRequests | typeof transactions): SQL {
  const term = q.trim();
  const prefix = `${term.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  const parts: SQL[] = [
    sql`${table.id}::text like ${prefix}`,
    sql`lower(${table.provider_txn_id}) like ${prefix}`,
  ];
  if (table === transferRequests) parts.push(sql`lower(${transferRequests.reference}) like ${prefix}`);
  else {
    // A transaction carries its request's reference in metadata, so the search needs no join.
    parts.push(sql`lower(${transactions.metadata}->>'reference') like ${prefix}`);
    parts.push(sql`${transactions.transfer_request_id}::text like ${prefix}`);
  }
  const amount = parseDecimal(term.replace(',', '.'));
  if (amount) parts.push(sql`${table.amount} = ${term.replace(',', '.')}::numeric`);
  return or(...parts)!;
}

function pageConditions(query: ListQuery, table: typeof transferRequests | typeof transactions): SQL[] {
  const conditions: SQL[] = [];
  if (query.status) conditions.push(eq(table.status, query.status));
  if (query.q) conditions.push(searchCondition(query.q, table));
  if (query.cursor) {
    const c = cursorOrBadRequest(query.cursor);
    conditions.push(sql`(${table.created_at}, ${table.id}) < (${c.at}::timestamptz, ${c.id}::uuid)`);
  }
  return conditions;
}

function page<T>(rows: (T & { cursor_at: string; id: string })[], limit: number) {
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { rows: shown, next_cursor: more && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null };
}

/** Newest first, matching the indexes' "DESC NULLS LAST" (a bare DESC means NULLS FIRST and forces a sort). */
const newestFirst = (table: typeof transferRequests | typeof transactions) =>
  [sql`${table.created_at} desc nulls last`, sql`${table.id} desc nulls last`];

// Each list first picks the page's ids in index order (an index-only walk of
// *_profile_created_idx or *_profile_status_idx that stops after limit + 1 rows), then reads
// those rows; the sender's other transfers are never sorted or fetched.

/** The sender's own transfer requests, newest first. */
export async function listOwnRequests(db: Db, profileId: string, query: ListQuery) {
  const conditions = [eq(transferRequests.profile_id, profileId), ...pageConditions(query, transferRequests)];
  if (query.open && !query.status) conditions.push(inArray(transferRequests.status, ['pending', 'processing']));
  const ids = db.select({ page_id: transferRequests.id }).from(transferRequests).where(and(...conditions))
    .orderBy(...newestFirst(transferRequests)).limit(query.limit + 1).as('page_ids');
  const rows = await db.select({ row: transferRequests, cursor_at: sql<string>`${transferRequests.created_at}::text`, id: transferRequests.id })
    .from(transferRequests).innerJoin(ids, eq(ids.page_id, transferRequests.id))
    .orderBy(...newestFirst(transferRequests));
  return page(rows, query.limit);
}

const requestFields = {
  reference: transferRequests.reference, source_provider: transferRequests.source_provider,
  destination_provider: transferRequests.destination_provider, fee: transferRequests.fee, total: transferRequests.total,
  rate: transferRequests.rate, payout_amount: transferRequests.payout_amount, payout_currency: transferRequests.payout_currency,
  payout_reference: transferRequests.payout_reference, payment_status: transferRequests.payment_status,
};

/** The sender's own transactions with the request fields the screens and receipts show, newest first. */
export async function listOwnTransactions(db: Db, profileId: string, query: ListQuery) {
  const conditions = [eq(transactions.profile_id, profileId), ...pageConditions(query, transactions)];
  if (query.open && !query.status) conditions.push(inArray(transactions.status, ['pending', 'processing']));
  const ids = db.select({ page_id: transactions.id }).from(transactions).where(and(...conditions))
    .orderBy(...newestFirst(transactions)).limit(query.limit + 1).as('page_ids');
  const rows = await db.select({ tx: transactions, request: requestFields, cursor_at: sql<string>`${transactions.created_at}::text`, id: transactions.id })
    .from(transactions).innerJoin(ids, eq(ids.page_id, transactions.id))
    .innerJoin(transferRequests, eq(transferRequests.id, transactions.transfer_request_id))
    .orderBy(...newestFirst(transactions));
  const { rows: shown, next_cursor } = page(rows, query.limit);
  return { data: shown.map((r) => transactionToJson(r.tx, r.request)), next_cursor };
}

/** Counts per status of the sender's transactions (dashboard). */
export async function countOwnByStatus(db: Db, profileId: string): Promise<Record<string, number>> {
  const rows = await db.select({ status: transactions.status, count: sql<string>`count(*)` })
    .from(transactions).where(eq(transactions.profile_id, profileId)).groupBy(transactions.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}

export async function findRequest(db: Db, id: string) {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(transferRequests).where(eq(transferRequests.id, id));
  return row ?? null;
}

export async function requestExtras(db: Db, id: string) {
  const [history, proofs, [tx]] = await Promise.all([
    db.select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, id)).orderBy(transferStatusHistory.id),
    listProofs(db, id),
    db.select({ id: transactions.id }).from(transactions).where(eq(transactions.transfer_request_id, id)),
  ]);
  return { history, proofs, transaction_id: tx?.id ?? null };
}
