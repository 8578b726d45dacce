import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { compareNames, isMobileRail, nameCheckPays, RAIL_COUNTRY, type MobileRailId, type RailId } from '@core/rails.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { payoutNameHolds, payoutRails, transferRequests, type NameCheck } from '@server/db/schema.js';
import { enqueue, removeJob } from '../jobs/service.js';
import { numberOperator } from '../operators/service.js';
import { lockForRailPayout, markRailProcessing, recordRailPayout } from '../transfers/service.js';
import { attemptById, attemptsOf, openAttempt, send, writeOutcome } from './attempts.js';
import { leaveFloatQueue, queueBalanceRead, takeFloat } from './float.js';
import { openHold } from './name-holds.js';
import type { MobileMoneyOperator, MoneyOutcome } from './operator.js';
import { openPaypalAttempt, paypalOn, paypalOrder, paypalPayouts, paysByPaypal, tellSenderOfItem } from './paypal-payouts.js';
import { railOperator } from './registry.js';
import { recordReversal } from './reversals.js';

// A transfer's payout through its rail (docs/rules/payout-rails.md): once every control has
// cleared, the operator's name for the number is checked, an attempt is written, its money sent
// once, and the operator asked until the outcome is final.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/** Enquiry jobs retry this often before they are parked for the admin. */
export const ENQUIRY_JOB_ATTEMPTS = 25;
/** If the process stops between writing an attempt and writing its answer, this enquiry asks the operator then. */
export const AFTER_A_LOST_ANSWER_MS = 30_000;

/** The rail a mobile-money channel's number is served by, by the channel and the number's operator; null: by hand. */
export async function railOf(ctx: Ctx, destination: string, msisdn: string): Promise<MobileRailId | null> {
  if (destination === 'airtel_gabon') return 'airtel_gabon';
  if (destination !== 'mobile_rwanda') return null;
  const operator = await numberOperator(ctx.db, 'mobile_rwanda', msisdn);
  return operator && /mtn/i.test(operator) ? 'mtn_rwanda' : operator && /airtel/i.test(operator) ? 'airtel_rwanda' : null;
}

/** The rail is switched on by an admin and its operator's credentials are set. */
export async function railOn(db: Db | Tx, ctx: Ctx, rail: RailId): Promise<MobileMoneyOperator | null> {
  const operator = railOperator(ctx.config, rail);
  if (!operator) return null;
  const [row] = await db.select({ enabled: payoutRails.enabled }).from(payoutRails).where(eq(payoutRails.id, rail));
  return row?.enabled ? operator : null;
}

/** What the operator holds for the number, compared with the recipient's name. */
async function checkName(operator: MobileMoneyOperator, msisdn: string, recipientName: string, country: 'GA' | 'RW'): Promise<NameCheck> {
  const answer = await operator.registeredName(msisdn, country);
  const checked_at = new Date().toISOString();
  if (answer.state !== 'registered') return { outcome: answer.state, recipient_name: recipientName, registered_name: null, score: null, checked_at };
  const { outcome, score } = compareNames(recipientName, answer.name);
  return { outcome, recipient_name: recipientName, registered_name: answer.name, score, checked_at };
}

export type StartResult = 'sent' | 'waiting' | 'by_hand' | 'name_hold' | 'already_live' | 'after_failure' | 'float_wait';

/**
 * Starts a transfer's payout through its rail when every control has cleared and the float
 * covers it (else it waits for float: float.ts). Safe to call at any time and more than once:
 * whatever is not ready, by hand, or already under way is left.
 */
export async function startPayout(ctx: Ctx, transferId: string): Promise<StartResult> {
  const result = await startIfCleared(ctx, transferId);
  // Not the rail's to send now (not ready, by hand, stopped by its name, under way): it no longer waits for float.
  if (result !== 'float_wait') await leaveFloatQueue(ctx.db, transferId);
  return result;
}

async function startIfCleared(ctx: Ctx, transferId: string): Promise<StartResult> {
  const first = await ctx.db.transaction((tx) => lockForRailPayout(tx, transferId));
  if (!first || first.wait) return 'waiting';
  const { row } = first;
  const [last] = await attemptsOf(ctx.db, transferId);
  // A payout the operator took back waits for staff: pay again, or refund.
  if (last?.state === 'reversed') return 'waiting';
  // After a confirmed failure staff choose: a new attempt, or the payout by hand.
  if (last?.state === 'failed' && last.resolution !== 'retried') return last.resolution === 'by_hand' ? 'by_hand' : 'after_failure';
  if (paysByPaypal(row.destination_provider)) return startThroughPaypal(ctx, transferId, row.reference);
  const details = row.destination_details as { recipient_name?: string; recipient_phone?: string };
  const msisdn = details.recipient_phone ?? '';
  const rail = await railOf(ctx, row.destination_provider, msisdn);
  const operator = rail && await railOn(ctx.db, ctx, rail);
  if (!rail || !operator) return 'by_hand';
  const country = RAIL_COUNTRY[rail];

  const hold = await openHold(ctx.db, transferId);
  if (hold && hold.decision !== 'pay_anyway') return 'name_hold';
  const nameCheck = hold ? hold.name_check : await checkName(operator, msisdn, details.recipient_name ?? '', country);
  // The operator could not be asked: not a verdict on the recipient, so the job tries again later.
  if (nameCheck.outcome === 'unavailable') throw new Error(`${rail}: the registered name could not be read`);
  if (!hold && !nameCheckPays(nameCheck.outcome)) {
    await ctx.db.insert(payoutNameHolds).values({ transfer_id: transferId, rail, name_check: nameCheck }).onConflictDoNothing();
    return 'name_hold';
  }

  const attempt = await ctx.db.transaction(async (tx) => {
    const again = await lockForRailPayout(tx, transferId);
    if (!again || again.wait) return null;
    if (await takeFloat(tx, rail, transferId, again.row.payout_amount) === 'wait') return 'float_wait' as const;
    const opened = await openAttempt(tx, {
      transferId, rail, msisdn, amount: again.row.payout_amount, currency: again.row.payout_currency as 'XAF' | 'RWF', nameCheck,
    });
    if (opened) {
      await scheduleEnquiry(tx, opened.id, new Date(Date.now() + AFTER_A_LOST_ANSWER_MS));
      await markRailProcessing(ctx, tx, again.row);
    }
    return opened;
  });
  if (!attempt) return 'already_live';
  if (attempt === 'float_wait') return 'float_wait';
  const outcome = await send(operator, attempt, country, `Transfer ${row.reference}`);
  await applyOutcome(ctx, attempt.id, outcome);
  return 'sent';
}

/** A transfer to a PayPal account: one batch of one item through PayPal Payouts (paypal-payouts.ts). */
async function startThroughPaypal(ctx: Ctx, transferId: string, transferReference: string): Promise<StartResult> {
  const payouts = await paypalOn(ctx.db, ctx.config);
  if (!payouts) return 'by_hand';
  const attempt = await ctx.db.transaction(async (tx) => {
    const again = await lockForRailPayout(tx, transferId);
    if (!again || again.wait) return null;
    const opened = await openPaypalAttempt(tx, again.row);
    if (opened) {
      await scheduleEnquiry(tx, opened.id, new Date(Date.now() + AFTER_A_LOST_ANSWER_MS));
      await markRailProcessing(ctx, tx, again.row);
    }
    return opened;
  });
  if (!attempt) return 'already_live';
  await applyOutcome(ctx, attempt.id, await payouts.send(paypalOrder(attempt, transferReference)));
  return 'sent';
}

/**
 * Asks the operator where an attempt stands, and writes the answer: an open one, or a paid one a
 * callback named (the operator may have taken the money back: reversals.ts).
 */
export async function enquire(ctx: Ctx, attemptId: string): Promise<void> {
  const attempt = await attemptById(ctx.db, attemptId);
  if (!attempt || !['submitting', 'pending', 'unknown', 'succeeded'].includes(attempt.state)) return;
  if (attempt.rail === 'paypal_payouts') {
    const payouts = paypalPayouts(ctx.config);
    const [transfer] = await ctx.db.select({ reference: transferRequests.reference }).from(transferRequests).where(eq(transferRequests.id, attempt.transfer_id));
    if (payouts && transfer) await applyOutcome(ctx, attemptId, await payouts.status(paypalOrder(attempt, transfer.reference), attempt.operator_id));
    return;
  }
  const operator = railOperator(ctx.config, attempt.rail);
  if (!operator) return;
  await applyOutcome(ctx, attemptId, await operator.disbursement(attempt.reference));
}

/** Writes an answer in one transaction: the attempt, the payout's books when it succeeded, the next enquiry while it is open. */
async function applyOutcome(ctx: Ctx, attemptId: string, outcome: MoneyOutcome): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const written = await writeOutcome(tx, attemptId, outcome, ctx.config.payoutUnknownAfterMs);
    if (!written) return;
    const { attempt } = written;
    if (written.succeeded) await recordRailPayout(ctx, tx, attempt.transfer_id, attempt.operator_id ?? attempt.reference);
    if (written.reversed) await recordReversal(ctx, tx, attempt);
    if (attempt.rail === 'paypal_payouts') await tellSenderOfItem(ctx, tx, attempt);
    // While open, the next enquiry replaces the waiting one; once final, none is left waiting.
    if (written.askAgainAt) await scheduleEnquiry(tx, attempt.id, written.askAgainAt);
    else await removeJob(tx, enquiryKey(attempt.id));
    // Once a payout ends, the float it took (or did not) is read again.
    if (!written.askAgainAt && isMobileRail(attempt.rail)) await queueBalanceRead(tx, attempt.rail);
    if (outcome.step.http_status !== null && outcome.step.http_status < 500) {
      await tx.update(payoutRails).set({ last_ok_at: new Date() }).where(eq(payoutRails.id, attempt.rail));
    }
  });
}

/** One enquiry job per attempt: a later schedule replaces the waiting one. */
const enquiryKey = (attemptId: string) => `payout-enquire:${attemptId}`;

function scheduleEnquiry(tx: Tx, attemptId: string, at: Date): Promise<void> {
  return enqueue(tx, 'payout_enquire', { attempt_id: attemptId }, ENQUIRY_JOB_ATTEMPTS, enquiryKey(attemptId), at);
}

/** Asks about an attempt now (an operator's callback named it): its waiting enquiry moves up. */
export function enquireSoon(tx: Tx, attemptId: string): Promise<void> {
  return scheduleEnquiry(tx, attemptId, new Date());
}

const TransferJobSchema = z.object({ transfer_id: z.uuid() });
const AttemptJobSchema = z.object({ attempt_id: z.uuid() });

/** The payout_start job: a transfer whose controls may all have cleared. */
export async function runPayoutStartJob(ctx: Ctx, payload: unknown): Promise<void> {
  await startPayout(ctx, TransferJobSchema.parse(payload).transfer_id);
}

/** The payout_enquire job: an open attempt asked about. */
export async function runPayoutEnquireJob(ctx: Ctx, payload: unknown): Promise<void> {
  await enquire(ctx, AttemptJobSchema.parse(payload).attempt_id);
}
