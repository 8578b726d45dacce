import { and, asc, count, desc, eq, getTableColumns, gte, ilike, inArray, lt, or, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { StaffFilter } from '@core/api/admin.js';
import { IdParamsSchema } from '@core/api/common.js';
import { DEFAULT_APPROVAL_THRESHOLDS } from '@core/approval.js';
import {
  OPEN_STATUSES, isFinalStatus, type HistoryEvent, type NoteVisibility, type PaymentStatus, type Role, type TransferStatus,
} from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';
import { type FlatFields, type RowsStatement, preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { batched } from '@server/lib/batches.js';
import {
  corridors, paymentProofs, profiles, transactions, transferNotes, transferRequests, transferSearchText, transferStatusHistory,
} from '@server/db/schema.js';
import type { Cursor } from '@server/lib/cursor.js';
import { heldSql } from '../holds/service.js';

// The transfers' SQL. Lists page by (created_at, id) descending with a keyset cursor, so any page
// of a sender with thousands of transfers is one walk down transfer_requests_profile_*_idx /
// transactions_profile_*_idx.

/**
 * A transfer request as its answers read it: the row and, while the sender owes staff an action
 * (docs/rules/back-office.md), what staff asked. Rows read without {@link requestColumns} (a transfer just created) have
 * no message, and none is owed.
 */
export type TransferRequestRow = typeof transferRequests.$inferSelect & { action_message?: string | null };

/**
 * The body of the latest sender-visible note that asked for an action, while action_needed; else
 * null. Qualified by hand: drizzle leaves a one-table select's columns unqualified, where "id"
 * would name the note's own id inside the sub-query.
 */
const actionMessage = sql<string | null>`case when transfer_requests.action_needed then (
  select asked.body from transfer_notes asked
  where asked.transfer_request_id = transfer_requests.id and asked.action_needed and asked.visibility = 'sender'
  order by asked.created_at desc limit 1) end`;

/** The table's own columns: what an insert returns (a transfer just created owes no action). */
const storedColumns = getTableColumns(transferRequests);

/** Every column of a transfer request and its action message: what reads and RETURNING clauses select. */
const requestColumns = { ...storedColumns, action_message: actionMessage };

/**
 * The columns a transfer's answer shows (serialize.ts's transferRequestToJson), the sender's list
 * reading no other: who acted, the idempotency key and the travel-rule data stay in the database.
 */
export const ANSWERED_REQUEST_COLUMNS = [
  'id', 'reference', 'profile_id', 'direction', 'source_provider', 'source_details', 'destination_provider',
  'destination_details', 'amount', 'currency', 'fee', 'total', 'rate', 'payout_amount', 'payout_currency', 'fee_tier_id',
  'quote_id', 'status', 'payment_status', 'provider_order_id', 'provider_txn_id', 'payment_amount', 'payment_reference',
  'payment_flagged', 'payment_recorded_at', 'payout_status', 'payout_reference', 'payout_sent_at', 'refund_reference',
  'refunded_at', 'tracking_token', 'action_needed', 'version', 'created_at', 'updated_at',
] as const satisfies readonly (keyof typeof storedColumns)[];

/** A transfer request as far as its answer reads it. */
export type AnsweredRequestRow = Pick<TransferRequestRow, (typeof ANSWERED_REQUEST_COLUMNS)[number] | 'action_message'>;

const answeredColumns = {
  ...(Object.fromEntries(ANSWERED_REQUEST_COLUMNS.map((c) => [c, storedColumns[c]])) as Pick<typeof storedColumns, (typeof ANSWERED_REQUEST_COLUMNS)[number]>),
  action_message: actionMessage,
};
// ---- four-eyes: whether a transfer needs a second staff member's approval (docs/rules/back-office.md#four-eyes) ----

// Written with qualified names: drizzle leaves columns unqualified in a one-table select, where
// "amount" or "currency" would name the thresholds' own columns inside the sub-query.

/** The default of each currency (core), for a currency without a stored threshold. */
const defaultThreshold = sql.join([
  sql.raw('case transfer_requests.currency'),
  ...Object.entries(DEFAULT_APPROVAL_THRESHOLDS).map(([currency, amount]) => sql`when ${currency} then ${amount}::numeric`),
  sql.raw('end'),
], sql` `);

/** The transfer's amount is at or above its currency's threshold (core's needsApproval, in SQL). */
export const approvalRequired = sql<boolean>`(transfer_requests.amount >= coalesce((select threshold.amount
  from approval_thresholds threshold where threshold.currency = transfer_requests.currency), ${defaultThreshold}))`;

/** Required, not approved yet, and still open: it cannot be completed until a second staff member approves it. */
export const needsApprovalNow = sql<boolean>`(${approvalRequired} and transfer_requests.approved_by is null
  and transfer_requests.status in (${sql.join(OPEN_STATUSES.map((s) => sql`${s}`), sql`, `)}))`;

type TransactionRow = typeof transactions.$inferSelect;
export type HistoryRow = typeof transferStatusHistory.$inferSelect;
interface ListFilter {
  cursor: Cursor | null;
  limit: number;
  status?: TransferStatus | undefined;
  /** Only requests still open (pending or processing): the dashboard's list. */
  open: boolean;
  q?: string | undefined;
}

/** Escaped for LIKE, lower case, matched anywhere in the text. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The amounts a search term can mean as the screens show them: "65,000", "FCFA 65,000" or
 * "65 000 FCFA" (65000), "84.20" or "84,20 €" (84.20). A comma or a dot may group thousands or
 * mark decimals, by the language: both readings are tried.
 */
function amountReadings(term: string): string[] {
  const digits = term.replace(/FCFA|XAF|RWF|FRW|RF|USD|EUR|US\$|[$€\s]/gi, '');
  if (!/^\d[\d.,]*$/.test(digits) || digits.length > 24) return [];
  const readings = [digits.replace(/,/g, ''), digits.replace(/\./g, '').replace(',', '.')];
  return [...new Set(readings.filter((r) => /^\d+(\.\d+)?$/.test(r)))];
}

/**
 * A sender's search in a request: its reference (MT-…), provider, payment and payout references,
 * recipient (name, holder, phone as stored or as shown, e-mail), and its amounts as shown (sent,
 * total paid, received).
 */
function requestMatches(term: string): SQL {
  const r = transferRequests;
  const text = transferSearchText(r);
  const parts: SQL[] = [
    sql`${text} like ${containing(term)}`,
    sql`lower(coalesce(${r.payment_reference}, '')) like ${containing(term)}`,
  ];
  const compact = term.replace(/\s+/g, '');
  if (compact !== term) parts.push(sql`${text} like ${containing(compact)}`);
  const amounts = amountReadings(term);
  if (amounts.length > 0) {
    const list = sql.join(amounts.map((a) => sql`${a}::numeric`), sql`, `);
    parts.push(sql`(${r.amount} in (${list}) or ${r.total} in (${list}) or ${r.payout_amount} in (${list}))`);
  }
  return or(...parts)!;
}

/** Text search: an id (or its start), or what {@link requestMatches} finds in the transfer request. */
function searchCondition(q: string, table: typeof transferRequests | typeof transactions): SQL {
  const term = q.trim();
  const prefix = `${term.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
  if (table === transferRequests) return or(sql`${transferRequests.id}::text like ${prefix}`, requestMatches(term))!;
  // A transaction's request is read by its primary key (one per transaction).
  return or(
    sql`${transactions.id}::text like ${prefix}`,
    sql`${transactions.transfer_request_id}::text like ${prefix}`,
    sql`exists (select 1 from ${transferRequests} where ${transferRequests.id} = ${transactions.transfer_request_id} and ${requestMatches(term)})`,
  )!;
}

/**
 * The values of a page's conditions: as given for a search (built per request), or, for the plain
 * pages, whose statements are built and prepared once per shape, each page's own values read from
 * the batch's row (`q.batch_*`) and the limit as a placeholder.
 */
interface PageValues {
  profileId: string | SQL;
  status?: TransferStatus | SQL | undefined;
  open: boolean;
  q?: string | undefined;
  cursor: { at: string | SQL; id: string | SQL } | null;
  limit: number | Placeholder;
}

function pageConditions(values: PageValues, table: typeof transferRequests | typeof transactions): SQL[] {
  const conditions: SQL[] = [eq(table.profile_id, values.profileId)];
  if (values.status !== undefined) conditions.push(eq(table.status, values.status));
  else if (values.open) conditions.push(inArray(table.status, [...OPEN_STATUSES]));
  if (values.q) conditions.push(searchCondition(values.q, table));
  const c = values.cursor;
  if (c) conditions.push(sql`(${table.created_at}, ${table.id}) < (${c.at}::timestamptz, ${c.id}::uuid)`);
  return conditions;
}

/** Newest first, matching the indexes' "DESC NULLS LAST" (a bare DESC means NULLS FIRST and forces a sort). */
const newestFirst = (table: typeof transferRequests | typeof transactions) =>
  [sql`${table.created_at} desc nulls last`, sql`${table.id} desc nulls last`];

// Each list first picks the page's ids in index order (an index-only walk of
// *_profile_created_idx or *_profile_status_idx that stops after limit + 1 rows), then reads
// those rows; the sender's other transfers are never sorted or fetched. A page's row is flat and
// carries its place in that order as text, for the next page's cursor.

/**
 * A transfer held (its own hold or its sender's), read with the row, for its sender: open, or
 * closed with its money frozen (docs/rules/screening.md#closing-out-a-confirmed-match). The sender
 * is told only that it is being checked; the holds' partial indexes answer it.
 */
const senderHeld = sql<boolean>`(transfer_requests.status <> 'completed' and ${heldSql})`;

/** A row of a sender's page of requests. */
export type OwnRequestRow = AnsweredRequestRow & { cursor_at: string; on_hold: boolean };
const ownRequestFields = {
  ...answeredColumns,
  cursor_at: sql<string>`${transferRequests.created_at}::text`.as('cursor_at'),
  on_hold: senderHeld.as('on_hold'),
};

function ownRequestQuery(db: Db, values: PageValues) {
  const ids = db.select({ page_id: transferRequests.id }).from(transferRequests).where(and(...pageConditions(values, transferRequests)))
    .orderBy(...newestFirst(transferRequests)).limit(values.limit).as('page_ids');
  return db.select(ownRequestFields).from(transferRequests).innerJoin(ids, eq(ids.page_id, transferRequests.id))
    .orderBy(...newestFirst(transferRequests));
}

/** The request fields a transaction row shows (screens and receipts). */
const requestFields = {
  reference: transferRequests.reference, source_provider: transferRequests.source_provider,
  destination_provider: transferRequests.destination_provider, fee: transferRequests.fee, total: transferRequests.total,
  rate: transferRequests.rate, payout_amount: transferRequests.payout_amount, payout_currency: transferRequests.payout_currency,
  payout_reference: transferRequests.payout_reference, payment_status: transferRequests.payment_status,
  payment_amount: transferRequests.payment_amount, payment_reference: transferRequests.payment_reference,
  payout_status: transferRequests.payout_status, refund_reference: transferRequests.refund_reference,
  tracking_token: transferRequests.tracking_token,
  action_needed: transferRequests.action_needed, action_message: actionMessage,
  payment_recorded_at: transferRequests.payment_recorded_at,
  // The sender uploaded a proof (their one sentence says so rather than "waiting for your payment").
  // Qualified by hand, like actionMessage (payment_proofs_request_idx answers it).
  has_proof: sql<boolean>`exists (select 1 from payment_proofs proof where proof.transfer_request_id = transfer_requests.id)`,
  on_hold: senderHeld,
};

/** A row of a sender's page of transactions: the transaction and its request's fields (none shares a name with a transaction column). */
export type OwnTransactionRow = TransactionRow & Pick<TransferRequestRow, Exclude<keyof typeof requestFields, 'action_message' | 'has_proof' | 'on_hold'>>
  & { action_message: string | null; has_proof: boolean; on_hold: boolean; cursor_at: string };
const ownTransactionFields = {
  ...getTableColumns(transactions),
  ...requestFields,
  cursor_at: sql<string>`${transactions.created_at}::text`.as('cursor_at'),
};

function ownTransactionQuery(db: Db, values: PageValues) {
  const ids = db.select({ page_id: transactions.id }).from(transactions).where(and(...pageConditions(values, transactions)))
    .orderBy(...newestFirst(transactions)).limit(values.limit).as('page_ids');
  return db.select(ownTransactionFields).from(transactions).innerJoin(ids, eq(ids.page_id, transactions.id))
    .innerJoin(transferRequests, eq(transferRequests.id, transactions.transfer_request_id))
    .orderBy(...newestFirst(transactions));
}

/** One sender's plain page (no search) as asked for: a call of a batch. */
interface PageCall { profileId: string; status: TransferStatus | undefined; cursor: Cursor | null }

/** A page's value in the batch's row of `unnest(...) with ordinality as q(...)`. */
const inBatch = (column: string) => sql.raw(`q.batch_${column}`);

/**
 * A sender's page without a search runs a statement prepared once per shape (which filter, a cursor
 * or not): the lists are what signed-in senders ask for most, and building their SQL was a tenth
 * of each answer (docs/decisions/021-signed-in-lists.md). Pages of one shape and limit asked for
 * together are read by one statement (lib/batches.ts), each page a lateral walk of its sender's
 * index: a busy server makes one round trip for many senders' pages. A search is built per
 * request. Rows are read without drizzle's mapping of each column ({@link rowsOf}).
 */
function ownPage<R>(prefix: string, fields: FlatFields, build: (db: Db, values: PageValues) => SQLWrapper) {
  type BatchRow = R & { batch_n: number };
  const rows = rowsOf<R>(fields);
  const batchRows = rowsOf<BatchRow>({ ...fields, batch_n: inBatch('n') });
  // Per database: each shape's statement, and a batcher per shape and limit (the limit is the
  // statement's, the same for every page of a batch).
  const perDatabase = preparedPerDatabase(() => ({
    statements: new Map<string, RowsStatement<BatchRow>>(),
    batchers: new Map<string, (call: PageCall) => Promise<R[]>>(),
  }));
  const p = (name: string) => sql.placeholder(name);

  /** A shape's statement, prepared as `name`: every page of a batch, each the same walk as alone. */
  function shapeStatement(db: Db, name: string, kind: 'all' | 'status' | 'open', withCursor: boolean) {
    const page = build(db, {
      profileId: inBatch('profile'), status: kind === 'status' ? inBatch('status') : undefined, open: kind === 'open',
      cursor: withCursor ? { at: inBatch('at'), id: inBatch('id') } : null, limit: p('limit'),
    });
    // Each page's rows in its own order, the pages in the order asked (the sort keys are the page's
    // own columns: the subquery names every field once).
    return batchRows(db, sql`select page.*, q.batch_n::int
      from unnest(${p('profiles')}::uuid[], ${p('statuses')}::text[], ${p('ats')}::text[], ${p('ids')}::uuid[])
        with ordinality as q(batch_profile, batch_status, batch_at, batch_id, batch_n)
      cross join lateral (${page}) page
      order by q.batch_n, page.created_at desc nulls last, page.id desc nulls last`, name);
  }

  /** The pages of `limit` asked for together, read by one run of `statement` and handed out by ordinal. */
  const pagesOf = (statement: RowsStatement<BatchRow>, limit: number) => batched(async (calls: PageCall[]) => {
    const found = await statement.execute({
      profiles: calls.map((c) => c.profileId), statuses: calls.map((c) => c.status ?? null),
      ats: calls.map((c) => c.cursor?.at ?? null), ids: calls.map((c) => c.cursor?.id ?? null), limit,
    });
    const pages = calls.map((): R[] => []);
    for (const row of found) pages[row.batch_n - 1]!.push(row);
    return pages;
  }, { maxSize: 50, maxRunning: 2 });

  return (db: Db, profileId: string, filter: ListFilter): Promise<R[]> => {
    const limit = filter.limit + 1;
    if (filter.q) return rows(db, build(db, { profileId, status: filter.status, open: filter.open, q: filter.q, cursor: filter.cursor, limit })).execute();
    const kind = filter.status ? 'status' : filter.open ? 'open' : 'all';
    const name = `${prefix}_${kind}_${filter.cursor ? 'cursor' : 'first'}`;
    const { statements, batchers } = perDatabase(db);
    let read = batchers.get(`${name}/${limit}`);
    if (!read) {
      let statement = statements.get(name);
      if (!statement) statements.set(name, statement = shapeStatement(db, name, kind, filter.cursor !== null));
      batchers.set(`${name}/${limit}`, read = pagesOf(statement, limit));
    }
    return read({ profileId, status: filter.status, cursor: filter.cursor });
  };
}

/** The sender's own transfer requests after the cursor, newest first: `limit + 1` rows tell if more follow. */
export const ownRequestRows = ownPage<OwnRequestRow>('own_requests', ownRequestFields, ownRequestQuery);

/** The sender's own transactions with their request's fields after the cursor, newest first: `limit + 1` rows. */
export const ownTransactionRows = ownPage<OwnTransactionRow>('own_transactions', ownTransactionFields, ownTransactionQuery);

/** Counts per status of the sender's transactions (dashboard). */
export async function countOwnByStatus(db: Db, profileId: string): Promise<Partial<Record<TransferStatus, number>>> {
  const rows = await db.select({ status: transactions.status, count: sql<number>`count(*)::int` })
    .from(transactions).where(eq(transactions.profile_id, profileId)).groupBy(transactions.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.count]));
}

/** A request by id; null for an unknown one, or a malformed id from a route that does not validate its params. */
export async function findRequest(db: Db, id: string): Promise<TransferRequestRow | null> {
  if (!IdParamsSchema.shape.id.safeParse(id).success) return null;
  const [row] = await db.select(requestColumns).from(transferRequests).where(eq(transferRequests.id, id));
  return row ?? null;
}

/** The request's timeline, oldest first. */
export function historyOf(db: Db, id: string): Promise<HistoryRow[]> {
  return db.select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, id)).orderBy(transferStatusHistory.id);
}

export async function transactionIdOf(db: Db, requestId: string): Promise<string | null> {
  const [tx] = await db.select({ id: transactions.id }).from(transactions).where(eq(transactions.transfer_request_id, requestId));
  return tx?.id ?? null;
}

/** The sender's address, name and language, for the e-mails about their transfers. */
export async function senderContact(db: Db | Tx, profileId: string) {
  const [profile] = await db.select({ email: profiles.email, full_name: profiles.full_name, language: profiles.language })
    .from(profiles).where(eq(profiles.id, profileId));
  return profile ?? null;
}

// ---- the staff list ----

/** An open transfer held for compliance (docs/rules/back-office.md#held-transfers): what staff cannot move. */
const staffHeld = sql<boolean>`(${inArray(transferRequests.status, [...OPEN_STATUSES])} and ${heldSql})`;

/** The columns of a staff row: the transfer, its sender, and whether it needs (and has) an approval. */
export const staffSelection = {
  request: requestColumns,
  requester: { full_name: profiles.full_name, email: profiles.email },
  approval_required: approvalRequired,
  needs_approval: needsApprovalNow,
  processing_time: sql<string | null>`(select ${corridors.processing_time} from ${corridors} where ${corridors.direction} = ${transferRequests.direction})`,
  has_proof: sql<boolean>`exists (select 1 from ${paymentProofs} where ${paymentProofs.transfer_request_id} = ${transferRequests.id})`,
  sender_replied: sql<boolean>`coalesce((select ${transferNotes.author_role} = 'owner' from ${transferNotes}
    where ${transferNotes.transfer_request_id} = ${transferRequests.id} order by ${transferNotes.created_at} desc limit 1), false)`,
  on_hold: staffHeld,
};

export interface StaffSelected {
  request: TransferRequestRow;
  requester: { full_name: string | null; email: string };
  approval_required: boolean;
  needs_approval: boolean;
  /** Its corridor's processing time ("10-60 min"), for the delivery estimate. */
  processing_time: string | null;
  has_proof: boolean;
  sender_replied: boolean;
  on_hold: boolean;
}


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
function staffWhere(filter: PreparedFilter): SQL[] {
  const tr = transferRequests;
  const where: SQL[] = [];
  if (filter.status) where.push(eq(tr.status, filter.status));
  if (filter.payment) where.push(eq(tr.payment_status, filter.payment));
  if (filter.payout) where.push(eq(tr.payout_status, filter.payout));
  if (filter.direction) where.push(eq(tr.direction, filter.direction));
  if (filter.from) where.push(gte(tr.created_at, dayStart(filter.from)));
  if (filter.to) where.push(lt(tr.created_at, dayStart(filter.to, 1)));
  if (filter.needs_approval) where.push(needsApprovalNow);
  if (filter.action_needed) where.push(eq(tr.action_needed, true));
  if (filter.late) where.push(lateNow);
  if (filter.held) where.push(staffHeld);
  const q = filter.q;
  if (q) {
    const matches: (SQL | undefined)[] = [sql`${transferSearchText(tr)} like ${likeText(q.toLowerCase())}`];
    if (IdParamsSchema.shape.id.safeParse(q).success) matches.push(eq(tr.id, q));
    if (filter.senderIds.length) matches.push(inArray(tr.profile_id, filter.senderIds));
    where.push(or(...matches)!);
  }
  return where;
}

/**
 * Open past its corridor's expected delivery, counted from the recorded payment (else the request):
 * core isLate's rule, with the due time from the database's transfer_due_at (migration 0009).
 */
const lateNow = sql`(${inArray(transferRequests.status, [...OPEN_STATUSES])} and transfer_due_at(
  coalesce(${transferRequests.payment_recorded_at}, ${transferRequests.created_at}),
  (select c.processing_time from ${corridors} c where c.direction = ${transferRequests.direction})) < now())`;

/** One page after `cursor` in the filter's order (keyset on the created_at indexes); `limit + 1` rows tell if more follow. */
export function staffRows(db: Db, filter: PreparedFilter, cursor: Cursor | null, limit: number) {
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
  return db.select({ ...staffSelection, at: sql<string>`${tr.created_at}::text` }).from(tr).innerJoin(profiles, eq(profiles.id, tr.profile_id))
    .where(where.length ? and(...where) : undefined)
    .orderBy(...order)
    .limit(limit + 1);
}

// ---- initiation: a transfer's creation (its statement: initiation-statement.ts) ----

/** The transfer a repeated request made already, as its answer shows it (with what staff asked of the sender since). */
export async function findByIdempotencyKey(db: Db, profileId: string, key: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select(requestColumns).from(transferRequests)
    .where(and(eq(transferRequests.profile_id, profileId), eq(transferRequests.idempotency_key, key)));
  return row ?? null;
}

/** The transfer a PayPal order pays, if any. */
export async function findByOrder(db: Db, orderId: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select(requestColumns).from(transferRequests).where(eq(transferRequests.provider_order_id, orderId));
  return row ?? null;
}

/** The PayPal order the sender pays this transfer with. */
export async function setOrderId(db: Db, id: string, orderId: string): Promise<void> {
  await db.update(transferRequests).set({ provider_order_id: orderId }).where(eq(transferRequests.id, id));
}

// ---- status changes ----

export async function currentStatus(db: Db, id: string): Promise<TransferStatus | undefined> {
  const [row] = await db.select({ status: transferRequests.status }).from(transferRequests).where(eq(transferRequests.id, id));
  return row?.status;
}

export async function lockRequest(tx: Tx, id: string): Promise<TransferRequestRow | null> {
  const [row] = await tx.select(requestColumns).from(transferRequests).where(eq(transferRequests.id, id)).for('update');
  return row ?? null;
}

/** Many requests as they stand, nothing locked (a worker's batch of payouts, looked at before anything is written). */
export function findRequests(db: Db | Tx, ids: readonly string[]): Promise<TransferRequestRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.select(requestColumns).from(transferRequests).where(sql`${transferRequests.id} = any(${sql.param([...ids])}::uuid[])`);
}

/** Locks many requests, oldest first (one order for every caller, so two never wait on each other). */
export function lockRequests(tx: Tx, ids: readonly string[]): Promise<TransferRequestRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  // One array parameter: a bank file's 10,000 ids as parameters of their own cost the query builder hundreds of milliseconds.
  return tx.select(requestColumns).from(transferRequests).where(sql`${transferRequests.id} = any(${sql.param([...ids])}::uuid[])`)
    .orderBy(transferRequests.created_at, transferRequests.id).for('update');
}

/** What recording a rail's payout reads of a transfer: its states, its version and the figures its books are made from. */
export type RailPayoutRow = Pick<TransferRequestRow, 'id' | 'status' | 'version' | 'payment_status' | 'payout_status' | 'source_provider'
  | 'destination_provider' | 'currency' | 'amount' | 'fee' | 'payout_amount' | 'payout_currency' | 'payment_amount'>;

const railPayoutFields = {
  id: transferRequests.id, status: transferRequests.status, version: transferRequests.version, payment_status: transferRequests.payment_status,
  payout_status: transferRequests.payout_status, source_provider: transferRequests.source_provider, destination_provider: transferRequests.destination_provider,
  currency: transferRequests.currency, amount: transferRequests.amount, fee: transferRequests.fee, payout_amount: transferRequests.payout_amount,
  payout_currency: transferRequests.payout_currency, payment_amount: transferRequests.payment_amount,
};
const railPayoutRows = rowsOf<RailPayoutRow>(railPayoutFields);

/**
 * `lockRequests` reading only what recording a rail's payout needs, without drizzle's mapping of
 * each column: a bank statement locks 30,000, whose whole rows cost their mapping more than the lock.
 */
export function lockRailPayoutRows(tx: Tx, ids: readonly string[]): Promise<RailPayoutRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return railPayoutRows(tx, tx.select(railPayoutFields).from(transferRequests).where(sql`${transferRequests.id} = any(${sql.param([...ids])}::uuid[])`)
    .orderBy(transferRequests.created_at, transferRequests.id).for('update')).execute();
}

export interface StatusWrite {
  from: TransferRequestRow;
  to: TransferStatus;
  /** Null for the system's own move (a payout through a rail: docs/rules/payout-rails.md). */
  actor: { profile_id: string; role: Role } | null;
  note: string | null;
  /** The payment state the move leaves (docs/rules/money-states.md: received money becomes owed back on closing). */
  paymentStatus: PaymentStatus;
}

/**
 * Moves the request (version bumped), mirrors the transaction and appends the timeline step.
 * Who takes it into processing is kept (four-eyes); a closed transfer asks nothing more of its sender.
 */
export async function writeStatus(tx: Tx, change: StatusWrite): Promise<TransferRequestRow> {
  const { from: current, to } = change;
  const [row] = await tx.update(transferRequests).set({
    status: to,
    version: sql`${transferRequests.version} + 1`,
    payment_status: change.paymentStatus,
    ...(to === 'processing' ? { processed_by: change.actor?.profile_id ?? null, processed_at: new Date() } : {}),
    ...(isFinalStatus(to) ? { action_needed: false } : {}),
  }).where(eq(transferRequests.id, current.id)).returning(requestColumns);
  await tx.update(transactions).set({ status: to }).where(eq(transactions.transfer_request_id, current.id));
  await tx.insert(transferStatusHistory).values({
    transfer_request_id: current.id, from_status: current.status, to_status: to,
    actor_profile_id: change.actor?.profile_id ?? null, actor_role: change.actor?.role ?? null, note: change.note,
  });
  return row!;
}

/**
 * `writeStatus` for many requests moved by the system at once (no actor; the payment state left
 * as it is), in three statements: the requests, their transactions, their timeline steps. Answers
 * what the sender's e-mails need (the id and the status).
 */
export async function writeSystemStatuses(tx: Tx, from: readonly TransferRequestRow[], to: 'processing', note: string | null): Promise<Pick<TransferRequestRow, 'id' | 'status'>[]> {
  if (from.length === 0) return [];
  const ids = from.map((r) => r.id);
  const rows = await tx.update(transferRequests).set({ status: to, version: sql`${transferRequests.version} + 1`, processed_by: null, processed_at: new Date() })
    .where(sql`${transferRequests.id} = any(${sql.param(ids)}::uuid[])`).returning({ id: transferRequests.id, status: transferRequests.status });
  await tx.update(transactions).set({ status: to }).where(sql`${transactions.transfer_request_id} = any(${sql.param(ids)}::uuid[])`);
  const steps = from.map((r) => ({ id: r.id, from: r.status }));
  await tx.execute(sql`insert into transfer_status_history (transfer_request_id, from_status, to_status, note)
    select s.id, s.from, ${to}, ${note} from json_to_recordset(${JSON.stringify(steps)}::json) as s(id uuid, "from" text)`);
  return rows;
}

/**
 * A payout sent through a rail, by the system, and with `complete` the transfer completed by it,
 * in three statements at most: the request (version bumped per step), its transaction's status,
 * and its timeline steps in order (payout sent, then the move).
 */
export async function writeRailPayoutSent(tx: Tx, from: TransferRequestRow, set: MoneyFields, complete: boolean): Promise<TransferRequestRow> {
  const [row] = await tx.update(transferRequests).set({
    ...set,
    version: sql`${transferRequests.version} + ${complete ? 2 : 1}`,
    ...(complete ? { status: 'completed' as const, action_needed: false } : {}),
  }).where(eq(transferRequests.id, from.id)).returning(requestColumns);
  if (complete) await tx.update(transactions).set({ status: 'completed' }).where(eq(transactions.transfer_request_id, from.id));
  const step = { transfer_request_id: from.id, from_status: from.status, actor_profile_id: null, actor_role: null, note: null };
  await tx.insert(transferStatusHistory).values([
    { ...step, to_status: from.status, event: 'payout_sent' as const },
    ...(complete ? [{ ...step, to_status: 'completed' as const }] : []),
  ]);
  return row!;
}

/** Records the approval (version bumped, like every staff step on the transfer). */
export async function writeApproval(tx: Tx, id: string, actor: string) {
  const [row] = await tx.update(transferRequests)
    .set({ approved_by: actor, approved_at: new Date(), version: sql`${transferRequests.version} + 1` })
    .where(eq(transferRequests.id, id)).returning({ approved_by: transferRequests.approved_by, approved_at: transferRequests.approved_at });
  return row!;
}

export type MoneyFields = Partial<Pick<TransferRequestRow,
  'payment_status' | 'payment_amount' | 'payment_reference' | 'payment_flagged' | 'payment_recorded_by' | 'payment_recorded_at'
  | 'payout_status' | 'payout_reference' | 'payout_sent_by' | 'payout_sent_at' | 'refund_reference' | 'refunded_by'
  | 'refunded_at' | 'provider_txn_id' | 'provider_authorization_id'>>;

export interface MoneyWrite {
  from: TransferRequestRow;
  set: MoneyFields;
  /** The timeline steps (one per event), the status left as it was. */
  events: HistoryEvent[];
  actor: { profile_id: string; role: Role } | null;
  note: string | null;
}

/** Records a movement of the request's money (version bumped) and its timeline steps. */
export async function writeMoney(tx: Tx, change: MoneyWrite): Promise<TransferRequestRow> {
  const { from: current } = change;
  const [row] = await tx.update(transferRequests).set({ ...change.set, version: sql`${transferRequests.version} + 1` })
    .where(eq(transferRequests.id, current.id)).returning(requestColumns);
  if (change.set.provider_txn_id) {
    await tx.update(transactions).set({ provider_txn_id: change.set.provider_txn_id }).where(eq(transactions.transfer_request_id, current.id));
  }
  if (change.events.length > 0) {
    await tx.insert(transferStatusHistory).values(change.events.map((event) => ({
      transfer_request_id: current.id, from_status: current.status, to_status: current.status, event,
      actor_profile_id: change.actor?.profile_id ?? null, actor_role: change.actor?.role ?? null, note: change.note,
    })));
  }
  return row!;
}

// ---- the thread: staff notes, internal or to the sender, and the sender's messages ----

export type NoteRow = typeof transferNotes.$inferSelect;

/**
 * The thread oldest first: every note for staff; for the sender only what is addressed to them
 * (sender-visible notes and their own messages). The sender's filter is in the query, so an
 * internal note is never read for a sender's answer.
 */
export function threadOf(db: Db | Tx, transferRequestId: string, reader: 'staff' | 'sender') {
  const where: SQL[] = [eq(transferNotes.transfer_request_id, transferRequestId)];
  if (reader === 'sender') where.push(eq(transferNotes.visibility, 'sender'));
  return db.select({
    id: transferNotes.id, author_profile_id: transferNotes.author_profile_id, author_role: transferNotes.author_role,
    author_name: profiles.full_name, visibility: transferNotes.visibility, action_needed: transferNotes.action_needed,
    body: transferNotes.body, created_at: transferNotes.created_at,
  }).from(transferNotes).leftJoin(profiles, eq(profiles.id, transferNotes.author_profile_id))
    .where(and(...where)).orderBy(asc(transferNotes.created_at), asc(transferNotes.id));
}

export interface NewNote {
  transfer_request_id: string;
  author_profile_id: string;
  author_role: string;
  visibility: NoteVisibility;
  action_needed: boolean;
  body: string;
}

export async function insertNote(tx: Tx, note: NewNote): Promise<NoteRow> {
  const [row] = await tx.insert(transferNotes).values(note).returning();
  return row!;
}

/** The sender's own messages on a transfer (bounded per transfer). */
export async function countSenderMessages(tx: Tx, transferRequestId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(transferNotes)
    .where(and(eq(transferNotes.transfer_request_id, transferRequestId), eq(transferNotes.author_role, 'owner')));
  return row?.n ?? 0;
}

/** Staff asked the sender for something: the transfer shows "action needed" to them. */
export async function markActionNeeded(tx: Tx, transferRequestId: string): Promise<void> {
  await tx.update(transferRequests).set({ action_needed: true }).where(eq(transferRequests.id, transferRequestId));
}

/** The sender answered (a message or a new proof): nothing is asked of them any more. */
export async function clearActionNeeded(tx: Tx, transferRequestId: string): Promise<void> {
  await tx.update(transferRequests).set({ action_needed: false })
    .where(and(eq(transferRequests.id, transferRequestId), eq(transferRequests.action_needed, true)));
}

// ---- the tracking link ----

/** Sets (or clears, with null) the token of the caller's own transfer; false when it is not theirs. */
export async function setTrackingToken(db: Db, id: string, profileId: string, token: string | null): Promise<boolean> {
  const rows = await db.update(transferRequests).set({ tracking_token: token })
    .where(and(eq(transferRequests.id, id), eq(transferRequests.profile_id, profileId)))
    .returning({ id: transferRequests.id });
  return rows.length > 0;
}

// ---- proofs of payment ----

const proofFields = {
  id: paymentProofs.id, filename: paymentProofs.filename, mime_type: paymentProofs.mime_type,
  size: paymentProofs.size, created_at: paymentProofs.created_at,
};

export type ProofRow = typeof paymentProofs.$inferSelect;
export type ProofInfo = Pick<ProofRow, 'id' | 'filename' | 'mime_type' | 'size' | 'created_at'>;
export type NewProof = Omit<typeof paymentProofs.$inferInsert, 'id' | 'created_at' | 'size'>;

/** The sender's proofs on this transfer, and in the last 24 hours across all of theirs. */
export async function proofCounts(db: Db | Tx, transferRequestId: string, profileId: string) {
  const [counts] = await db.select({
    onTransfer: sql<number>`(count(*) filter (where ${paymentProofs.transfer_request_id} = ${transferRequestId}))::int`,
    today: sql<number>`(count(*) filter (where ${paymentProofs.created_at} > now() - interval '1 day'))::int`,
  }).from(paymentProofs).where(eq(paymentProofs.profile_id, profileId));
  return { onTransfer: counts?.onTransfer ?? 0, today: counts?.today ?? 0 };
}

/** Locks the sender's profile row, so their concurrent uploads are counted one after the other. */
export async function lockSender(tx: Tx, profileId: string): Promise<void> {
  await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)).for('update');
}

export async function insertProof(tx: Tx, proof: NewProof): Promise<ProofInfo> {
  const [row] = await tx.insert(paymentProofs).values({ ...proof, size: proof.data.length }).returning(proofFields);
  return row!;
}

/** Every proof of a transfer, newest first, without the bytes. */
export function listProofs(db: Db, transferRequestId: string): Promise<ProofInfo[]> {
  return db.select(proofFields).from(paymentProofs)
    .where(eq(paymentProofs.transfer_request_id, transferRequestId)).orderBy(desc(paymentProofs.created_at));
}

/** One proof with its bytes: the newest when no id is named. */
export async function findProof(db: Db, transferRequestId: string, proofId?: string): Promise<ProofRow | null> {
  const [row] = await db.select().from(paymentProofs)
    .where(and(eq(paymentProofs.transfer_request_id, transferRequestId), proofId ? eq(paymentProofs.id, proofId) : undefined))
    .orderBy(desc(paymentProofs.created_at)).limit(1);
  return row ?? null;
}

/**
 * `writeRailPayoutSent` for many transfers at once (a bank statement's settled payouts), in three
 * statements whatever their number: the requests, the transactions of those it completes, their
 * timeline steps in order (each transfer's payout sent, then its move). `from`: each row as locked
 * in this transaction. The rows written are made from them as the update makes them (no trigger
 * changes a request as it is written): read again, a statement's 30,000 cost a query and their
 * mapping.
 */
export async function writeRailPayoutsSent<Row extends Pick<TransferRequestRow, 'id' | 'status' | 'version'>>(
  tx: Tx, sent: readonly { from: Row; reference: string; complete: boolean }[], at: Date,
): Promise<Row[]> {
  if (sent.length === 0) return [];
  const values = sent.map(({ from, reference, complete }) => ({ id: from.id, reference, complete }));
  await tx.execute(sql`update transfer_requests t set payout_status = 'sent', payout_reference = v.reference, payout_sent_at = ${at}::timestamptz, updated_at = ${at}::timestamptz,
      version = t.version + case when v.complete then 2 else 1 end,
      status = case when v.complete then 'completed' else t.status end,
      action_needed = case when v.complete then false else t.action_needed end
    from json_to_recordset(${JSON.stringify(values)}::json) as v(id uuid, reference text, complete boolean) where t.id = v.id`);
  const completed = sent.filter((s) => s.complete).map((s) => s.from.id);
  if (completed.length > 0) await tx.update(transactions).set({ status: 'completed' }).where(sql`${transactions.transfer_request_id} = any(${sql.param(completed)}::uuid[])`);
  const steps = sent.flatMap(({ from, complete }) => [
    { id: from.id, from: from.status, to: from.status, event: 'payout_sent' },
    ...(complete ? [{ id: from.id, from: from.status, to: 'completed', event: null }] : []),
  ]).map((step, n) => ({ ...step, n }));
  await tx.execute(sql`insert into transfer_status_history (transfer_request_id, from_status, to_status, event)
    select s.id, s.from, s.to, s.event from json_to_recordset(${JSON.stringify(steps)}::json) as s(id uuid, "from" text, "to" text, event text, n int) order by s.n`);
  return sent.map(({ from, reference, complete }) => ({
    ...from, payout_status: 'sent' as const, payout_reference: reference, payout_sent_at: at, updated_at: at, version: from.version + (complete ? 2 : 1),
    ...(complete ? { status: 'completed' as const, action_needed: false, action_message: null } : {}),
  }));
}
