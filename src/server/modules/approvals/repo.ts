import { eq } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { approvalThresholds } from '@server/db/schema.js';

// Four-eyes thresholds' SQL: a row per currency (no cache needed). Whether a transfer needs an
// approval, and the approval itself, are the transfer's (transfers/repo.ts).

export type ThresholdRow = typeof approvalThresholds.$inferSelect;

export function listThresholds(db: Db): Promise<ThresholdRow[]> {
  return db.select().from(approvalThresholds).orderBy(approvalThresholds.currency);
}

/** The threshold of one currency, read inside the transaction that decides on a transfer. */
export async function thresholdOf(tx: Db | Tx, currency: string): Promise<string | null> {
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
