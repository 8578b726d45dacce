import { eq } from 'drizzle-orm';
import type { Db } from '@server/db/client.js';
import { corridors, transferRequests } from '@server/db/schema.js';
import { heldSql } from '../holds/service.js';

// The tracking page's SQL: one transfer read by its token (unique index).

/** What the tracking page may show of a transfer, and its corridor's processing time. */
export async function findTracked(db: Db, token: string) {
  const [row] = await db.select({
    status: transferRequests.status,
    destination_details: transferRequests.destination_details,
    payout_amount: transferRequests.payout_amount,
    payout_currency: transferRequests.payout_currency,
    payout_reference: transferRequests.payout_reference,
    created_at: transferRequests.created_at,
    payment_recorded_at: transferRequests.payment_recorded_at,
    processing_time: corridors.processing_time,
    held: heldSql,
  }).from(transferRequests)
    .leftJoin(corridors, eq(corridors.direction, transferRequests.direction))
    .where(eq(transferRequests.tracking_token, token));
  return row ?? null;
}
