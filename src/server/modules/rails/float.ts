import { and, asc, eq, sql } from 'drizzle-orm';
import { parseAmount, toDecimal } from '@core/money.js';
import { RAIL_CURRENCY, type MobileRailId, type RailId } from '@core/rails.js';
import type { Db, Tx } from '@server/db/client.js';
import { payoutAttempts, payoutFloatWaits, payoutRails, transferRequests } from '@server/db/schema.js';
import { enqueue } from '../jobs/service.js';

// The operator's float (docs/rules/payout-rails.md#float): a payout the rail's balance as last
// read would not cover does not go to the operator; it waits, in the order its controls cleared,
// until a newer reading covers it.

/** Balance readings retry this often before they are parked for the admin. */
const BALANCE_JOB_ATTEMPTS = 5;

/** One reading per rail waits at a time: a payout that succeeds while one waits adds none. */
export const balanceReadKey = (rail: MobileRailId) => `rail-balance:${rail}`;

/** Reads the rail's balance soon (after a payout ends, once a rail is switched on). */
export function queueBalanceRead(db: Db | Tx, rail: MobileRailId): Promise<void> {
  return enqueue(db, 'rail_balance', { rail }, BALANCE_JOB_ATTEMPTS, balanceReadKey(rail));
}

const minor = (amount: string, rail: MobileRailId) => parseAmount(amount, RAIL_CURRENCY[rail])!;

/**
 * What the float still holds for new payouts, in minor units: the balance as last read, less the
 * rail's attempts still open (the operator takes their money once they end) and those that
 * succeeded after the reading. Null before a first reading, or when it was of another currency.
 */
async function available(db: Db | Tx, rail: MobileRailId, balance: { amount: string | null; currency: string | null; read_at: Date | null }): Promise<number | null> {
  if (balance.amount === null || balance.read_at === null || balance.currency !== RAIL_CURRENCY[rail]) return null;
  const [row] = await db.select({ sum: sql<string>`coalesce(sum(${payoutAttempts.amount}), 0)::text` }).from(payoutAttempts).where(and(
    eq(payoutAttempts.rail, rail),
    sql`(${payoutAttempts.state} in ('submitting', 'pending', 'unknown') or (${payoutAttempts.state} = 'succeeded' and ${payoutAttempts.settled_at} > ${balance.read_at.toISOString()}))`,
  ));
  return minor(balance.amount, rail) - minor(row!.sum, rail);
}

/**
 * In the transaction that would open a payout's attempt: whether the float covers it. The rail's
 * row is locked, so two payouts never both count on the same money. A payout waits when the
 * float falls short or one that cleared before it is still waiting (first in, first out); it
 * keeps its place in the queue while it waits, and leaves the queue when it goes.
 */
export async function takeFloat(tx: Tx, rail: MobileRailId, transferId: string, amount: string): Promise<'go' | 'wait'> {
  const [row] = await tx.select().from(payoutRails).where(eq(payoutRails.id, rail)).for('update');
  const queue = await tx.select({ transfer_id: payoutFloatWaits.transfer_id }).from(payoutFloatWaits)
    .where(eq(payoutFloatWaits.rail, rail)).orderBy(asc(payoutFloatWaits.since), asc(payoutFloatWaits.transfer_id)).limit(1);
  const aheadOfIt = queue.length > 0 && queue[0]!.transfer_id !== transferId;
  const left = row ? await available(tx, rail, { amount: row.balance, currency: row.balance_currency, read_at: row.balance_read_at }) : null;
  if (aheadOfIt || (left !== null && minor(amount, rail) > left)) {
    await tx.insert(payoutFloatWaits).values({ transfer_id: transferId, rail, amount, currency: RAIL_CURRENCY[rail] }).onConflictDoNothing();
    return 'wait';
  }
  await leaveFloatQueue(tx, transferId);
  return 'go';
}

/** A transfer leaves the queue: its payout went, or it is no longer the rail's to send (by hand, held, closed). */
export async function leaveFloatQueue(db: Db | Tx, transferId: string): Promise<void> {
  await db.delete(payoutFloatWaits).where(eq(payoutFloatWaits.transfer_id, transferId));
}

/** A rail switched off: the payouts waiting for its float are staff's to send by hand. */
export async function emptyFloatQueue(tx: Tx, rail: RailId): Promise<void> {
  await tx.delete(payoutFloatWaits).where(eq(payoutFloatWaits.rail, rail));
}

/** The rail's first waiting payout, or null when none waits. */
export async function headOfQueue(db: Db, rail: MobileRailId): Promise<string | null> {
  const [head] = await db.select({ transfer_id: payoutFloatWaits.transfer_id }).from(payoutFloatWaits)
    .where(eq(payoutFloatWaits.rail, rail)).orderBy(asc(payoutFloatWaits.since), asc(payoutFloatWaits.transfer_id)).limit(1);
  return head?.transfer_id ?? null;
}

export interface FloatQueue {
  waiting: { transfer_id: string; reference: string; amount: string; since: string }[];
  /** What the float lacks for every waiting payout (0 when it covers them); null before a first reading. */
  shortfall: string | null;
}

/** A rail's queue in order, with its shortfall: the waiting payouts' sum less what the float still holds. */
export async function floatQueue(db: Db, rail: MobileRailId, balance: { amount: string | null; currency: string | null; read_at: Date | null }): Promise<FloatQueue> {
  const rows = await db.select({ transfer_id: payoutFloatWaits.transfer_id, reference: transferRequests.reference, amount: payoutFloatWaits.amount, since: payoutFloatWaits.since })
    .from(payoutFloatWaits).innerJoin(transferRequests, eq(transferRequests.id, payoutFloatWaits.transfer_id))
    .where(eq(payoutFloatWaits.rail, rail)).orderBy(asc(payoutFloatWaits.since), asc(payoutFloatWaits.transfer_id));
  const currency = RAIL_CURRENCY[rail];
  const left = await available(db, rail, balance);
  const waitingSum = rows.reduce((sum, r) => sum + minor(r.amount, rail), 0);
  return {
    waiting: rows.map((r) => ({ transfer_id: r.transfer_id, reference: r.reference, amount: toDecimal(minor(r.amount, rail), currency), since: r.since.toISOString() })),
    shortfall: left === null ? null : toDecimal(Math.max(0, waitingSum - left), currency),
  };
}
