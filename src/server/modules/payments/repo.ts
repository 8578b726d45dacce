import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { transactions, transferRequests, transferStatusHistory } from '@server/db/schema.js';

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

export async function findByIdempotencyKey(db: Db, profileId: string, key: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests)
    .where(and(eq(transferRequests.profile_id, profileId), eq(transferRequests.idempotency_key, key)));
  return row ?? null;
}

export async function findByOrder(db: Db, orderId: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests).where(eq(transferRequests.provider_order_id, orderId));
  return row ?? null;
}

/**
 * Inserts the request, its transaction and its first step (pending, by its owner); null when a
 * concurrent twin already holds the sender's idempotency key.
 */
export async function insertTransfer(tx: Tx, request: NewTransferRequest, transaction: NewTransaction): Promise<TransferRequestRow | null> {
  const [row] = await tx.insert(transferRequests).values(request)
    .onConflictDoNothing({ target: [transferRequests.profile_id, transferRequests.idempotency_key] }).returning();
  if (!row) return null;
  await tx.insert(transactions).values({ ...transaction, transfer_request_id: row.id, profile_id: row.profile_id, currency: row.currency });
  await tx.insert(transferStatusHistory).values({
    transfer_request_id: row.id, from_status: null, to_status: 'pending', actor_profile_id: row.profile_id, actor_role: 'owner',
  });
  return row;
}

export async function setOrderId(db: Db, id: string, orderId: string): Promise<void> {
  await db.update(transferRequests).set({ provider_order_id: orderId }).where(eq(transferRequests.id, id));
}
