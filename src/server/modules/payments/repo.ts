import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@server/db/client.js';
import { transactions, transferRequests, transferStatusHistory } from '@server/db/schema.js';
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

/**
 * Inserts the request, its transaction, its first step (pending, by its owner) and runs `job`
 * (the creation e-mail's add_job) in one statement, so all of them or none, in one round trip;
 * null, and nothing written or queued, when a concurrent twin already holds the sender's
 * idempotency key.
 */
export async function insertTransfer(db: Db, request: NewTransferRequest, transaction: NewTransaction, job: SQL): Promise<TransferRequestRow | null> {
  const insertRequest = db.insert(transferRequests).values(request)
    .onConflictDoNothing({ target: [transferRequests.profile_id, transferRequests.idempotency_key] }).returning();
  const result = await db.execute(sql`
    with r as (${insertRequest.getSQL()}),
    t as (
      insert into ${transactions} (transfer_request_id, profile_id, currency, direction, amount, destination_details, metadata)
      select r.id, r.profile_id, r.currency, ${transaction.direction}, ${transaction.amount},
        ${JSON.stringify(transaction.destination_details ?? {})}::jsonb, ${JSON.stringify(transaction.metadata ?? {})}::jsonb from r
    ),
    h as (
      insert into ${transferStatusHistory} (transfer_request_id, from_status, to_status, actor_profile_id, actor_role)
      select r.id, null, 'pending', r.profile_id, 'owner' from r
    ),
    j as (select ${job} from r)
    select r.* from r cross join j`);
  const [raw] = result.rows as Record<string, unknown>[];
  return raw ? requestRow(raw) : null;
}

export async function setOrderId(db: Db, id: string, orderId: string): Promise<void> {
  await db.update(transferRequests).set({ provider_order_id: orderId }).where(eq(transferRequests.id, id));
}
