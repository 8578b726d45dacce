import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { PgDialect, type PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Db } from '@server/db/client.js';
import { preparedPerDatabase } from '@server/db/prepared.js';
import { transactions, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { addJobCall } from '../jobs/repo.js';
import type { NewJob } from '../jobs/service.js';
import { requestColumns as answerColumns } from '../transfers/repo.js';

// A transfer's money coming in: its creation (request, transaction and first timeline step) and
// its PayPal order (its authorization and capture are recorded by transfers/paypal-money.ts).

export type TransferRequestRow = typeof transferRequests.$inferSelect;
export type NewTransferRequest = typeof transferRequests.$inferInsert;
export type NewTransaction = Omit<typeof transactions.$inferInsert, 'transfer_request_id' | 'profile_id' | 'currency'>;

export async function findRequest(db: Db, id: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests).where(eq(transferRequests.id, id));
  return row ?? null;
}

export async function findOwnRequest(db: Db, profileId: string, id: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests).where(and(eq(transferRequests.id, id), eq(transferRequests.profile_id, profileId)));
  return row ?? null;
}

/** The transfer a repeated request made already, as its answer shows it (with what staff asked of the sender since). */
export async function findByIdempotencyKey(db: Db, profileId: string, key: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select(answerColumns).from(transferRequests)
    .where(and(eq(transferRequests.profile_id, profileId), eq(transferRequests.idempotency_key, key)));
  return row ?? null;
}

export async function findByOrder(db: Db, orderId: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests).where(eq(transferRequests.provider_order_id, orderId));
  return row ?? null;
}

const requestColumns = getTableColumns(transferRequests);

/** A row of `returning *` read as drizzle reads the table (timestamps as dates, and so on). */
function requestRow(raw: Record<string, unknown>): TransferRequestRow {
  return Object.fromEntries(Object.entries(requestColumns).map(([key, column]) => {
    const value = raw[column.name];
    return [key, value == null ? null : column.mapFromDriverValue(value)];
  })) as TransferRequestRow;
}

/** The request's columns an initiation writes, each a placeholder of the prepared insert. */
const REQUEST_VALUES = ['reference', 'profile_id', 'direction', 'source_provider', 'source_details', 'destination_provider',
  'destination_details', 'amount', 'currency', 'fee', 'total', 'rate', 'payout_amount', 'payout_currency', 'fee_tier_id',
  'idempotency_key', 'idempotency_hash'] as const satisfies readonly (keyof NewTransferRequest)[];
type NewTransfer = Pick<NewTransferRequest, (typeof REQUEST_VALUES)[number]>;

/**
 * The insert of an initiation, built and prepared by name once per database handle: drizzle
 * building this statement and PostgreSQL parsing and planning it were a sixth of an initiation's
 * work (docs/decisions/021-signed-in-lists.md).
 */
const insertTransferStatement = preparedPerDatabase((db) => {
  const p = (name: string) => sql.placeholder(name);
  const insertRequest = db.insert(transferRequests)
    .values(Object.fromEntries(REQUEST_VALUES.map((column) => [column, p(column)])) as unknown as NewTransferRequest)
    .onConflictDoNothing({ target: [transferRequests.profile_id, transferRequests.idempotency_key] }).returning();
  const statement = sql`
    with r as (${insertRequest.getSQL()}),
    t as (
      insert into ${transactions} (transfer_request_id, profile_id, currency, direction, amount, destination_details, metadata)
      select r.id, r.profile_id, r.currency, ${p('transaction_direction')}, ${p('transaction_amount')},
        ${p('transaction_destination_details')}::jsonb, ${p('transaction_metadata')}::jsonb from r
    ),
    h as (
      insert into ${transferStatusHistory} (transfer_request_id, from_status, to_status, actor_profile_id, actor_role)
      select r.id, null, 'pending', r.profile_id, 'owner' from r
    ),
    j as (select ${addJobCall(p('job_kind'), p('job_payload'), p('job_attempts'))} from r)
    select r.* from r cross join j`;
  return db._.session.prepareQuery<PreparedQueryConfig & { execute: { rows: Record<string, unknown>[] } }>(
    new PgDialect().sqlToQuery(statement), undefined, 'insert_transfer', false);
});

/**
 * Inserts the request, its transaction, its first step (pending, by its owner) and adds `job`
 * (the creation e-mail) in one statement, so all of them or none, in one round trip; null, and
 * nothing written or queued, when a concurrent twin already holds the sender's idempotency key.
 */
export async function insertTransfer(db: Db, request: NewTransfer, transaction: NewTransaction, job: NewJob): Promise<TransferRequestRow | null> {
  const result = await insertTransferStatement(db).execute({
    ...Object.fromEntries(REQUEST_VALUES.map((column) => [column, request[column] ?? null])),
    transaction_direction: transaction.direction,
    transaction_amount: transaction.amount,
    transaction_destination_details: JSON.stringify(transaction.destination_details ?? {}),
    transaction_metadata: JSON.stringify(transaction.metadata ?? {}),
    job_kind: job.kind, job_payload: JSON.stringify(job.payload), job_attempts: job.maxAttempts,
  });
  const [raw] = result.rows;
  return raw ? requestRow(raw) : null;
}

export async function setOrderId(db: Db, id: string, orderId: string): Promise<void> {
  await db.update(transferRequests).set({ provider_order_id: orderId }).where(eq(transferRequests.id, id));
}
