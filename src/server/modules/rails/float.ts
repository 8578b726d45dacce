import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
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

/** Reads the rail's balance now (once a rail is switched on). */
export function queueBalanceRead(db: Db | Tx, rail: MobileRailId): Promise<void> {
  return enqueue(db, 'rail_balance', { rail }, BALANCE_JOB_ATTEMPTS, balanceReadKey(rail));
}

/** After payouts end, a reading follows within this long. */
const READ_AFTER_PAYOUTS_MS = 1000;
/** When this process last queued each rail's reading after a payout, per database. */
const queuedAt = new WeakMap<Db, Map<MobileRailId, number>>();

/**
 * Reads the rail's balance a second after a payout ended, queued at most once a second by each
 * process: the reading then follows every payout that ended meanwhile, where one queued per payout
 * would have every payout's end wait on the reading's one job row.
 */
export async function readBalanceAfterPayout(db: Db, rail: MobileRailId): Promise<void> {
  const now = Date.now();
  const queued = queuedAt.get(db) ?? new Map<MobileRailId, number>();
  if (now - (queued.get(rail) ?? 0) < READ_AFTER_PAYOUTS_MS) return;
  queuedAt.set(db, queued.set(rail, now));
  await enqueue(db, 'rail_balance', { rail }, BALANCE_JOB_ATTEMPTS, balanceReadKey(rail), new Date(now + READ_AFTER_PAYOUTS_MS));
}

const minor = (amount: string, rail: MobileRailId) => parseAmount(amount, RAIL_CURRENCY[rail])!;

type Balance = { amount: string | null; currency: string | null; read_at: Date | null };
const known = (rail: MobileRailId, balance: Balance): balance is { amount: string; currency: string; read_at: Date } =>
  balance.amount !== null && balance.read_at !== null && balance.currency === RAIL_CURRENCY[rail];

/**
 * What the float has promised already, as a scalar subquery: the rail's attempts still open (the
 * operator takes their money once they end) and those that succeeded after the reading.
 */
const promised = (rail: MobileRailId, readAt: Date) => sql`(select coalesce(sum(${payoutAttempts.amount}), 0)::text from ${payoutAttempts}
  where ${payoutAttempts.rail} = ${rail} and (${payoutAttempts.state} in ('submitting', 'pending', 'unknown')
    or (${payoutAttempts.state} = 'succeeded' and ${payoutAttempts.settled_at} > ${readAt.toISOString()}::timestamptz)))`;

/**
 * A waiting payout still the rail's to send: one paid by hand, or whose transfer closed, meanwhile
 * leaves the queue only when its turn comes (or a start looks at it), and until then neither
 * holds the others back nor shows as waiting.
 */
const stillToSend = (transferId: SQL) => sql`exists (select 1 from ${transferRequests} t where t.id = ${transferId}
  and t.payout_status = 'not_sent' and t.status not in ('completed', 'rejected', 'cancelled'))`;

/** The first payout waiting for the rail's float, as a scalar subquery. */
const head = (rail: MobileRailId) => sql`(select w.transfer_id from ${payoutFloatWaits} w
  where w.rail = ${rail} and ${stillToSend(sql`w.transfer_id`)} order by w.since, w.transfer_id limit 1)`;

/**
 * What the float still holds for new payouts, in minor units: the balance as last read, less what
 * it has promised. Null before a first reading, or when it was of another currency.
 */
async function available(db: Db | Tx, rail: MobileRailId, balance: Balance): Promise<number | null> {
  if (!known(rail, balance)) return null;
  const { rows } = await db.execute<{ sum: string }>(sql`select ${promised(rail, balance.read_at)} as sum`);
  return minor(balance.amount, rail) - minor(rows[0]!.sum, rail);
}

/**
 * In the transaction that would open a payout's attempt: whether the float covers it. The rail's
 * row is locked, so two payouts never both count on the same money (what the float promised is
 * read after the lock, by a statement of its own: one started before the lock was granted would
 * not see the attempt its holder wrote). A payout waits when the float falls short or one that
 * cleared before it is still waiting (first in, first out); it keeps its place in the queue while
 * it waits, and leaves the queue when it goes. Two statements when it goes and waited for nothing.
 * `written`: the payout's attempt is already written in this transaction (counted in what the float
 * promised); then a payout that must wait is not queued here: the caller undoes the transaction
 * and takes the float again before writing anything, which queues it. 'off': the rail was switched
 * off since the start looked (switching locks the same row): nothing leaves through it, and staff
 * send the payout by hand.
 */
export async function takeFloat(tx: Tx, rail: MobileRailId, transferId: string, amount: string, written = false): Promise<'go' | 'wait' | 'off'> {
  const [row] = await tx.select().from(payoutRails).where(eq(payoutRails.id, rail)).for('update');
  if (!row?.enabled) return 'off';
  const balance: Balance = { amount: row?.balance ?? null, currency: row?.balance_currency ?? null, read_at: row?.balance_read_at ?? null };
  const { rows } = await tx.execute<{ head: string | null; promised: string | null }>(sql`select ${head(rail)} as head,
    ${known(rail, balance) ? promised(rail, balance.read_at) : sql`null`} as promised`);
  const { head: first, promised: sum } = rows[0]!;
  const left = known(rail, balance) && sum !== null ? minor(balance.amount, rail) - minor(sum, rail) : null;
  // Its attempt already written in this transaction, the payout is among what the float promised.
  if ((first !== null && first !== transferId) || (left !== null && (written ? 0 : minor(amount, rail)) > left)) {
    if (!written) await tx.insert(payoutFloatWaits).values({ transfer_id: transferId, rail, amount, currency: RAIL_CURRENCY[rail] }).onConflictDoNothing();
    return 'wait';
  }
  if (first === transferId) await leaveFloatQueue(tx, [transferId]);
  return 'go';
}

/**
 * `takeFloat` for a batch of the rail's payouts whose attempts are written in this transaction:
 * 'go' when the float covers them all and no other payout waits for it (those of the batch that
 * waited leave the queue); else 'wait', and the caller undoes the batch and takes the float for
 * each in turn. Two statements when it goes and none of them waited.
 */
export async function takeFloatForAll(tx: Tx, rail: MobileRailId, transferIds: readonly string[]): Promise<'go' | 'wait' | 'off'> {
  const [row] = await tx.select().from(payoutRails).where(eq(payoutRails.id, rail)).for('update');
  if (!row?.enabled) return 'off';
  const balance: Balance = { amount: row?.balance ?? null, currency: row?.balance_currency ?? null, read_at: row?.balance_read_at ?? null };
  const ids = sql.param([...transferIds]);
  const { rows } = await tx.execute<{ others: boolean; queued: boolean; promised: string | null }>(sql`select
    exists (select 1 from ${payoutFloatWaits} w where w.rail = ${rail} and w.transfer_id <> all(${ids}::uuid[]) and ${stillToSend(sql`w.transfer_id`)}) as others,
    exists (select 1 from ${payoutFloatWaits} w where w.transfer_id = any(${ids}::uuid[])) as queued,
    ${known(rail, balance) ? promised(rail, balance.read_at) : sql`null`} as promised`);
  const { others, queued, promised: sum } = rows[0]!;
  if (others || (known(rail, balance) && sum !== null && minor(sum, rail) > minor(balance.amount, rail))) return 'wait';
  if (queued) await leaveFloatQueue(tx, transferIds);
  return 'go';
}

/** Transfers leave the queue: their payout went, or it is no longer the rail's to send (by hand, held, closed). */
export async function leaveFloatQueue(db: Db | Tx, transferIds: readonly string[]): Promise<void> {
  if (transferIds.length === 0) return;
  await db.delete(payoutFloatWaits).where(sql`${payoutFloatWaits.transfer_id} = any(${sql.param([...transferIds])}::uuid[])`);
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
export async function floatQueue(db: Db, rail: MobileRailId, balance: Balance): Promise<FloatQueue> {
  const rows = await db.select({ transfer_id: payoutFloatWaits.transfer_id, reference: transferRequests.reference, amount: payoutFloatWaits.amount, since: payoutFloatWaits.since })
    .from(payoutFloatWaits).innerJoin(transferRequests, eq(transferRequests.id, payoutFloatWaits.transfer_id))
    .where(and(eq(payoutFloatWaits.rail, rail), stillToSend(sql`${payoutFloatWaits.transfer_id}`)))
    .orderBy(asc(payoutFloatWaits.since), asc(payoutFloatWaits.transfer_id));
  const currency = RAIL_CURRENCY[rail];
  const left = await available(db, rail, balance);
  const waitingSum = rows.reduce((sum, r) => sum + minor(r.amount, rail), 0);
  return {
    waiting: rows.map((r) => ({ transfer_id: r.transfer_id, reference: r.reference, amount: toDecimal(minor(r.amount, rail), currency), since: r.since.toISOString() })),
    shortfall: left === null ? null : toDecimal(Math.max(0, waitingSum - left), currency),
  };
}
