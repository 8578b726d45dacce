import { eq, sql } from 'drizzle-orm';
import { DEFAULT_APPROVAL_THRESHOLDS } from '@core/approval.js';
import { OPEN_STATUSES } from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';
import { approvalThresholds, transferRequests } from '@server/db/schema.js';

// Four-eyes SQL (D12): the thresholds, and whether a transfer needs an approval, as conditions
// any transfer query can select or filter on (the thresholds are a row per currency: no cache needed).

export type ThresholdRow = typeof approvalThresholds.$inferSelect;

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

export function listThresholds(db: Db): Promise<ThresholdRow[]> {
  return db.select().from(approvalThresholds).orderBy(approvalThresholds.currency);
}

/** The threshold of one currency, read inside the transaction that decides on a transfer. */
export async function thresholdOf(tx: Tx, currency: string): Promise<string | null> {
  const [row] = await tx.select({ amount: approvalThresholds.amount }).from(approvalThresholds).where(eq(approvalThresholds.currency, currency as ThresholdRow['currency']));
  return row?.amount ?? null;
}

export async function lockThreshold(tx: Tx, currency: ThresholdRow['currency']): Promise<ThresholdRow | null> {
  const [row] = await tx.select().from(approvalThresholds).where(eq(approvalThresholds.currency, currency)).for('update');
  return row ?? null;
}

export async function writeThreshold(tx: Tx, currency: ThresholdRow['currency'], amount: string, actor: string): Promise<ThresholdRow> {
  const [row] = await tx.insert(approvalThresholds).values({ currency, amount, updated_by: actor })
    .onConflictDoUpdate({ target: approvalThresholds.currency, set: { amount, updated_by: actor } }).returning();
  return row!;
}

/** Records the approval (version bumped, like every staff step on the transfer). */
export async function writeApproval(tx: Tx, id: string, actor: string) {
  const [row] = await tx.update(transferRequests)
    .set({ approved_by: actor, approved_at: new Date(), version: sql`${transferRequests.version} + 1` })
    .where(eq(transferRequests.id, id)).returning({ approved_by: transferRequests.approved_by, approved_at: transferRequests.approved_at });
  return row!;
}
