import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { z } from 'zod';
import { MOBILE_RAIL_IDS, RAIL_COUNTRY, RAIL_CURRENCY, type MobileRailId } from '@core/rails.js';
import type { AppContext } from '@server/context.js';
import { payoutRails } from '@server/db/schema.js';
import { headOfQueue } from './float.js';
import { startPayout } from './payouts.js';
import { railOperator } from './registry.js';

// The operators' float balance (docs/rules/payout-rails.md#float): read every few minutes, after
// each payout that ends and when a rail is switched on; each reading lets the payouts it now
// covers leave, in order.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/**
 * Reads the rail's balance from its operator and keeps it with the time it was read; then the
 * payouts waiting for float are started in order while the reading covers them. Nothing when the
 * rail's operator is not configured. Throws when the operator could not answer (the job retries).
 */
export async function readBalance(ctx: Ctx, rail: MobileRailId): Promise<void> {
  const operator = railOperator(ctx.config, rail);
  if (!operator) return;
  // The reading counts from when it was asked: a payout that ends while the operator answers is
  // then counted as still to come out of it (float.ts), never as already out.
  const askedAt = new Date();
  const answer = await operator.balance(RAIL_CURRENCY[rail], RAIL_COUNTRY[rail]);
  if (answer.state !== 'ok') throw new Error(`${rail}: the balance could not be read (${answer.reason})`);
  if (answer.currency !== RAIL_CURRENCY[rail]) throw new Error(`${rail}: the balance came in ${answer.currency}, not ${RAIL_CURRENCY[rail]}`);
  // Whole francs, rounded down: what the float can pay (an operator may write "2500000.50").
  const whole = /^(\d+)(?:\.\d+)?$/.exec(answer.amount)?.[1];
  if (whole === undefined) throw new Error(`${rail}: the balance is no amount (${answer.amount})`);
  // A reading asked before the one kept (its answer late) is not kept over it.
  await ctx.db.update(payoutRails)
    .set({ balance: whole, balance_currency: answer.currency, balance_read_at: askedAt, last_ok_at: new Date() })
    .where(and(eq(payoutRails.id, rail), or(isNull(payoutRails.balance_read_at), lt(payoutRails.balance_read_at, askedAt))));
  await releaseWaiting(ctx, rail);
}

/**
 * Starts the rail's waiting payouts, first in first out, until one still does not fit: each start
 * checks every control and the float again under the rail's lock, and a payout no longer the
 * rail's to send leaves the queue as it is started.
 */
async function releaseWaiting(ctx: Ctx, rail: MobileRailId): Promise<void> {
  const tried = new Set<string>();
  for (let head = await headOfQueue(ctx.db, rail); head && !tried.has(head); head = await headOfQueue(ctx.db, rail)) {
    tried.add(head);
    if (await startPayout(ctx, head) === 'float_wait') return;
  }
}

const RailJobSchema = z.object({ rail: z.enum(MOBILE_RAIL_IDS) });

/** The rail_balance job: one rail's balance read (after a payout ended, a rail switched on). */
export async function runRailBalanceJob(ctx: Ctx, payload: unknown): Promise<void> {
  await readBalance(ctx, RailJobSchema.parse(payload).rail);
}

/** The scheduled rail_balances job: every configured rail's balance read; one operator down does not stop the others. */
export async function runRailBalancesJob(ctx: Ctx): Promise<void> {
  const results = await Promise.allSettled(MOBILE_RAIL_IDS.map((rail) => readBalance(ctx, rail)));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) throw new AggregateError(failed.map((r) => r.reason), 'rail balances: some could not be read');
}
