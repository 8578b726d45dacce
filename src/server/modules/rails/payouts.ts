import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { compareNames, isMobileRail, nameCheckPays, RAIL_COUNTRY, type AttemptState, type MobileRailId, type RailId } from '@core/rails.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { quietJobAdd } from '@server/db/shared-sql/job-rows.js';
import { batched } from '@server/lib/batches.js';
import { inParallel } from '@server/lib/in-parallel.js';
import { payoutAttempts, payoutNameHolds, payoutRails, transferRequests, type NameCheck } from '@server/db/schema.js';
import { BATCH_EVERY_MS, endTakenJobs, enqueue, removeJob, takeDueJobs } from '../jobs/service.js';
import { numberOperator } from '../operators/service.js';
import { lockForRailPayout, lockManyForRailPayout, markManyRailProcessing, markRailProcessing, railPayoutWaits, recordRailPayout, recordRailPayouts, type TransferRequestRow } from '../transfers/service.js';
import { leaveRetriedByHand, lockLatestAttempts, notConfigured, openAttempt, openAttempts, send, writeOutcome, writeOutcomes, type AttemptRow } from './attempts.js';
import { leaveFloatQueue, readBalanceAfterPayout, takeFloat, takeFloatForAll } from './float.js';
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

/** How many due starts a worker takes at once (its own job's and others waiting). */
const STARTS_AT_ONCE = 50;
/** Requests to the operator in flight at once from one batch: its name checks, then its sends. */
const CALLS_AT_ONCE = 16;

/**
 * Starts a transfer's payout through its rail when every control has cleared and the float
 * covers it (else it waits for float: float.ts). Safe to call at any time and more than once:
 * whatever is not ready, by hand, or already under way is left.
 */
export async function startPayout(ctx: Ctx, transferId: string): Promise<StartResult> {
  const result = (await startPayouts(ctx, [transferId])).get(transferId)!;
  if (result instanceof Error) throw result;
  return result;
}

/**
 * `startPayout` for many transfers at once (a worker's batch of due starts), set-wise: one look at
 * them all, their names asked concurrently, each rail's attempts written, their enquiries
 * scheduled and their transfers moved in one transaction committed before any request leaves,
 * the requests sent concurrently, and their answers written in one transaction. Each transfer's
 * result, or the error that leaves its start to be tried again (its name could not be read).
 */
export async function startPayouts(ctx: Ctx, transferIds: readonly string[]): Promise<Map<string, StartResult | Error>> {
  const results = new Map<string, StartResult | Error>();
  // A first look, unlocked: not worth asking the operator's name for a payout not ready.
  const looked = await railPayoutWaits(ctx.db, [...new Set(transferIds)]);
  for (const id of transferIds) results.set(id, 'waiting');
  const ready = looked.filter((l) => !l.wait).map((l) => l.row);
  const rails = await Promise.all(ready.map((row) => paysByPaypal(row.destination_provider) ? null : railOf(ctx, row.destination_provider, recipientOf(row).msisdn)));
  const sides = await railSides(ctx.db, ready.map((row, i) => ({ id: row.id, rail: rails[i] ?? null })));
  const orders: MobileOrder[] = [];
  const byPaypal: TransferRequestRow[] = [];
  await inParallel(ready.map((row, i) => ({ row, rail: rails[i] ?? null })), CALLS_AT_ONCE, async ({ row, rail }) => {
    const decided = await decide(ctx, row, rail, sides.get(row.id)!).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    if (decided === 'paypal') byPaypal.push(row);
    else if (typeof decided === 'object' && !(decided instanceof Error)) orders.push(decided);
    else results.set(row.id, decided);
  });
  for (const row of byPaypal) results.set(row.id, await startThroughPaypal(ctx, row.id, row.reference));
  // In the order the starts were asked for (a batch's jobs by the time each payout's controls
  // cleared), not the order their names answered: a rail's float serves them first in, first out.
  const place = new Map(transferIds.map((id, i) => [id, i]));
  orders.sort((a, b) => place.get(a.transferId)! - place.get(b.transferId)!);

  const opened: AttemptRow[] = [];
  const stopped = new Map<string, StartResult>();
  for (const rail of new Set(orders.map((o) => o.rail))) {
    const ofRail = orders.filter((o) => o.rail === rail);
    const attempts = await openMany(ctx, rail, ofRail, stopped).catch(async (err: unknown) => {
      if (err instanceof RailOff) {
        for (const order of ofRail) results.set(order.transferId, 'by_hand');
        return [];
      }
      if (!(err instanceof FloatShort)) throw err;
      // The float does not cover them all, or others wait ahead of them: each in turn, queued when short.
      const one: AttemptRow[] = [];
      for (const order of ofRail) {
        const attempt = await openOrQueue(ctx, order, stopped);
        if (attempt === 'float_wait' || attempt === 'by_hand') results.set(order.transferId, attempt);
        else if (attempt) one.push(attempt);
      }
      return one;
    });
    for (const order of ofRail) {
      const result = results.get(order.transferId);
      results.set(order.transferId, stopped.get(order.transferId) ?? (result === 'float_wait' || result === 'by_hand' ? result : 'already_live'));
    }
    for (const attempt of attempts) results.set(attempt.transfer_id, 'sent');
    opened.push(...attempts);
  }

  const reference = new Map(ready.map((row) => [row.id, row.reference]));
  const answers: { attempt: AttemptRow; outcome: MoneyOutcome }[] = [];
  await inParallel(opened, CALLS_AT_ONCE, async (attempt) => {
    const rail = attempt.rail as MobileRailId;
    const outcome = await send(railOperator(ctx.config, rail)!, attempt, RAIL_COUNTRY[rail], `Transfer ${reference.get(attempt.transfer_id)}`);
    answers.push({ attempt, outcome });
  });
  await applyOutcomes(ctx, answers);
  // Not the rail's to send now (not ready, by hand, stopped by its name, under way): it no longer
  // waits for float. One sent left the queue as it took its float.
  const left = [...results].filter(([, r]) => r !== 'float_wait' && r !== 'sent' && !(r instanceof Error)).map(([id]) => id);
  await leaveFloatQueue(ctx.db, left);
  await leaveRetriedByHand(ctx.db, [...results].filter(([, r]) => r === 'by_hand').map(([id]) => id));
  return results;
}

const recipientOf = (row: TransferRequestRow) => {
  const details = row.destination_details as { recipient_name?: string; recipient_phone?: string };
  return { name: details.recipient_name ?? '', msisdn: details.recipient_phone ?? '' };
};

/** What a payout's start reads of its rail's side: its latest attempt, its open name hold, whether the rail is on. */
type RailSide = {
  last: Pick<AttemptRow, 'state' | 'resolution'> & { created_at: string } | null;
  hold: { id: string; decision: string | null; name_check: NameCheck; created_at: string } | null;
  enabled: boolean | null;
};

/** Each transfer's rail side, in one statement for all. */
async function railSides(db: Db, transfers: readonly { id: string; rail: RailId | null }[]): Promise<Map<string, RailSide>> {
  if (transfers.length === 0) return new Map();
  const { rows } = await db.execute<RailSide & { id: string }>(sql`select v.id,
      (select json_build_object('state', a.state, 'resolution', a.resolution, 'created_at', a.created_at) from ${payoutAttempts} a
        where a.transfer_id = v.id order by a.seq desc limit 1) as last,
      (select json_build_object('id', h.id, 'decision', h.decision, 'name_check', h.name_check, 'created_at', h.created_at) from ${payoutNameHolds} h
        where h.transfer_id = v.id and h.closed_at is null limit 1) as hold,
      (select r.enabled from ${payoutRails} r where r.id = v.rail) as enabled
    from json_to_recordset(${JSON.stringify(transfers)}::json) as v(id uuid, rail text)`);
  return new Map(rows.map(({ id, ...side }) => [id, side]));
}

/**
 * What a ready payout's start does before anything is written: a result that ends it here, PayPal's
 * own path, or the order for its attempt once its name is checked. Throws when the operator could
 * not be asked the name: not a verdict on the recipient, so the job tries again later.
 */
async function decide(ctx: Ctx, row: TransferRequestRow, rail: MobileRailId | null, side: RailSide): Promise<StartResult | 'paypal' | MobileOrder> {
  const { last, enabled } = side;
  const word = staffWordAwaited(last);
  if (word) return word;
  // One under way (another start opened it): this start checks no name and opens nothing.
  if (last && isOpen(last.state)) return 'already_live';
  if (paysByPaypal(row.destination_provider)) return 'paypal';
  const operator = rail && enabled ? railOperator(ctx.config, rail) : null;
  if (!rail || !operator) return 'by_hand';
  let { hold } = side;
  if (hold && hold.decision !== 'pay_anyway') return 'name_hold';
  // Staff paid anyway on that check for one attempt: once an attempt went on it (and failed or was
  // sent back, and staff chose to try again), the name is checked again; a mismatch waits for staff again.
  if (hold && last && Date.parse(last.created_at) > Date.parse(hold.created_at)) {
    await ctx.db.update(payoutNameHolds).set({ closed_at: new Date() }).where(and(eq(payoutNameHolds.id, hold.id), isNull(payoutNameHolds.closed_at)));
    hold = null;
  }
  const { name, msisdn } = recipientOf(row);
  const nameCheck = hold ? hold.name_check : await checkName(operator, msisdn, name, RAIL_COUNTRY[rail]);
  if (nameCheck.outcome === 'unavailable') throw new Error(`${rail}: the registered name could not be read`);
  if (!hold && !nameCheckPays(nameCheck.outcome)) {
    // Held only for the recipient checked, the payout still to send: a correction (or a payout) since leaves it to what followed.
    await ctx.db.execute(sql`insert into ${payoutNameHolds} (transfer_id, rail, name_check)
      select t.id, ${rail}, ${JSON.stringify(nameCheck)}::jsonb from ${transferRequests} t
      where t.id = ${row.id} and t.payout_status = 'not_sent' and t.destination_details ->> 'recipient_phone' = ${msisdn}
        and t.destination_details ->> 'recipient_name' = ${name}
      on conflict do nothing`);
    return 'name_hold';
  }
  return { transferId: row.id, rail, msisdn, nameCheck };
}

/** What a payout waits for when its latest attempt failed or was taken back and staff have not said what follows; null when nothing. */
function staffWordAwaited(last: Pick<AttemptRow, 'state' | 'resolution'> | null | undefined): StartResult | null {
  // A payout the operator took back waits for staff: pay again (through the rail or by hand), or refund.
  if (last?.state === 'reversed' && last.resolution !== 'retried') return last.resolution === 'by_hand' ? 'by_hand' : 'waiting';
  // After a confirmed failure staff choose: a new attempt, or the payout by hand.
  if (last?.state === 'failed' && last.resolution !== 'retried') return last.resolution === 'by_hand' ? 'by_hand' : 'after_failure';
  return null;
}

/**
 * The transfers free to open an attempt, as their latest attempts stand once locked (a start
 * that looked before another's attempt failed finds it failed); those waiting for staff's word
 * are left out, their result in `stopped`.
 */
async function freeToOpen(tx: Tx, transferIds: readonly string[], stopped: Map<string, StartResult>): Promise<string[]> {
  const latest = await lockLatestAttempts(tx, transferIds);
  return transferIds.filter((id) => {
    const word = staffWordAwaited(latest.get(id));
    if (word) stopped.set(id, word);
    return !word;
  });
}

/**
 * The recipient, as the transfer now locked names them, is the one whose name was checked: a
 * correction committed since (its own start queued) leaves this order unsent.
 */
function asChecked(row: TransferRequestRow, order: MobileOrder): boolean {
  const { name, msisdn } = recipientOf(row);
  return msisdn === order.msisdn && name === order.nameCheck.recipient_name;
}

/** The float did not cover a payout whose attempt was written: its transaction is undone. */
class FloatShort extends Error {}
/** The rail was switched off while its payouts' names were checked: their attempts are undone. */
class RailOff extends Error {}

type MobileOrder = { transferId: string; rail: MobileRailId; msisdn: string; nameCheck: NameCheck };

/** The attempt, the enquiry that follows it up and the transfer's move to processing, in the transaction that checked it may leave. */
async function openLocked(ctx: Ctx, tx: Tx, order: MobileOrder, row: TransferRequestRow): Promise<AttemptRow | null> {
  const opened = await openAttempt(tx, { ...order, amount: row.payout_amount, currency: row.payout_currency as 'XAF' | 'RWF' });
  if (opened) {
    await scheduleEnquiry(tx, opened.id, new Date(Date.now() + AFTER_A_LOST_ANSWER_MS));
    await markRailProcessing(ctx, tx, row);
  }
  return opened;
}

/**
 * A rail's payouts' attempts in one transaction, when the float covers them all: the transfers
 * locked and checked again, the attempts written in one insert, their enquiries (should the answer
 * be lost) in one statement, the transfers moved to processing, and the float taken last for all
 * (the rail's row, which every payout of the rail locks, then held only for that check and the
 * commit). Throws FloatShort (all undone) when the float does not cover them all or another payout
 * waits for it ahead of them. Those already under way or no longer ready get no attempt.
 */
function openMany(ctx: Ctx, rail: MobileRailId, orders: readonly MobileOrder[], stopped: Map<string, StartResult>): Promise<AttemptRow[]> {
  return ctx.db.transaction(async (tx) => {
    const free = await freeToOpen(tx, orders.map((o) => o.transferId), stopped);
    const orderOf = new Map(orders.map((o) => [o.transferId, o]));
    const locked = (await lockManyForRailPayout(tx, free)).filter((l) => !l.wait && asChecked(l.row, orderOf.get(l.row.id)!)).map((l) => l.row);
    if (locked.length === 0) return [];
    const opened = await openAttempts(tx, locked.map((row) => ({
      ...orderOf.get(row.id)!, amount: row.payout_amount, currency: row.payout_currency as 'XAF' | 'RWF',
    })));
    if (opened.length === 0) return [];
    await scheduleEnquiries(tx, opened.map((a) => a.id), new Date(Date.now() + AFTER_A_LOST_ANSWER_MS));
    const openedIds = new Set(opened.map((a) => a.transfer_id));
    await markManyRailProcessing(ctx, tx, locked.filter((row) => openedIds.has(row.id)), null);
    const float = await takeFloatForAll(tx, rail, [...openedIds]);
    if (float === 'wait') throw new FloatShort();
    if (float === 'off') throw new RailOff();
    return opened;
  });
}

/** The float taken first: the payout waits in the rail's queue when it is short, else its attempt opens. */
function openOrQueue(ctx: Ctx, order: MobileOrder, stopped: Map<string, StartResult>): Promise<AttemptRow | 'float_wait' | 'by_hand' | null> {
  return ctx.db.transaction(async (tx) => {
    if ((await freeToOpen(tx, [order.transferId], stopped)).length === 0) return null;
    const again = await lockForRailPayout(tx, order.transferId);
    if (!again || again.wait || !asChecked(again.row, order)) return null;
    const float = await takeFloat(tx, order.rail, order.transferId, again.row.payout_amount);
    if (float !== 'go') return float === 'wait' ? 'float_wait' : 'by_hand';
    return openLocked(ctx, tx, order, again.row);
  });
}

/** A transfer to a PayPal account: one batch of one item through PayPal Payouts (paypal-payouts.ts). */
async function startThroughPaypal(ctx: Ctx, transferId: string, transferReference: string): Promise<StartResult> {
  const payouts = await paypalOn(ctx.db, ctx.config);
  if (!payouts) return 'by_hand';
  const stopped = new Map<string, StartResult>();
  const attempt = await ctx.db.transaction(async (tx) => {
    if ((await freeToOpen(tx, [transferId], stopped)).length === 0) return null;
    const again = await lockForRailPayout(tx, transferId);
    if (!again || again.wait) return null;
    const opened = await openPaypalAttempt(tx, again.row);
    if (opened) {
      await scheduleEnquiry(tx, opened.id, new Date(Date.now() + AFTER_A_LOST_ANSWER_MS));
      await markRailProcessing(ctx, tx, again.row);
    }
    return opened;
  });
  if (!attempt) return stopped.get(transferId) ?? 'already_live';
  await applyOutcome(ctx, attempt.id, await payouts.send(paypalOrder(attempt, transferReference)), attempt);
  return 'sent';
}

/**
 * Asks the operator where an attempt stands, and writes the answer: an open one, or a paid one a
 * callback named (the operator may have taken the money back: reversals.ts).
 */
export async function enquire(ctx: Ctx, attemptId: string): Promise<void> {
  await enquireMany(ctx, [attemptId]);
}

/**
 * `enquire` for many attempts at once (a worker's batch of due enquiries): read in one statement,
 * the operators asked concurrently, the answers written together as a batch's sends are. PayPal's
 * items are asked one by one.
 */
async function enquireMany(ctx: Ctx, attemptIds: readonly string[]): Promise<void> {
  const attempts = (await ctx.db.select().from(payoutAttempts).where(sql`${payoutAttempts.id} = any(${sql.param([...new Set(attemptIds)])}::uuid[])`))
    .filter((a) => ['submitting', 'pending', 'unknown', 'succeeded'].includes(a.state));
  const answers: { attempt: AttemptRow; outcome: MoneyOutcome }[] = [];
  await inParallel(attempts, CALLS_AT_ONCE, async (attempt) => {
    if (attempt.rail === 'paypal_payouts') return enquirePaypal(ctx, attempt);
    const operator = railOperator(ctx.config, attempt.rail);
    if (operator) answers.push({ attempt, outcome: await operator.disbursement(attempt.reference) });
    else if (attempt.state !== 'succeeded') answers.push({ attempt, outcome: notConfigured('disbursement') });
  });
  await applyOutcomes(ctx, answers);
}

async function enquirePaypal(ctx: Ctx, attempt: AttemptRow): Promise<void> {
  const payouts = paypalPayouts(ctx.config);
  const [transfer] = await ctx.db.select({ reference: transferRequests.reference }).from(transferRequests).where(eq(transferRequests.id, attempt.transfer_id));
  // Without PayPal's credentials nobody can ask: an open attempt goes to staff (a paid one stays as it is).
  if (!transfer || (!payouts && attempt.state === 'succeeded')) return;
  await applyOutcome(ctx, attempt.id, payouts ? await payouts.status(paypalOrder(attempt, transfer.reference), attempt.operator_id) : notConfigured('disbursement'), attempt);
}

/**
 * Writes an answer in one transaction: the attempt, the next enquiry while it is open, the
 * payout's books when it succeeded. `seen`: the attempt as last read (one statement writes it
 * when nothing answered meanwhile). The books come last: their running balances are rows every
 * payout writes, held from then until the commit.
 */
async function applyOutcome(ctx: Ctx, attemptId: string, outcome: MoneyOutcome, seen?: AttemptRow): Promise<void> {
  const written = await ctx.db.transaction(async (tx) => {
    const answer = await writeOutcome(tx, attemptId, outcome, ctx.config.payoutUnknownAfterMs, new Date(), seen);
    if (!answer) return null;
    const { attempt } = answer;
    // While open, the next enquiry replaces the waiting one; once final, none is left waiting
    // (one already final had none: the enquiry running now is a callback's).
    if (answer.askAgainAt) await scheduleEnquiry(tx, attempt.id, answer.askAgainAt);
    else if (isOpen(answer.before)) await removeJob(tx, enquiryKey(attempt.id));
    if (attempt.rail === 'paypal_payouts') await tellSenderOfItem(ctx, tx, attempt);
    if (answer.succeeded) await recordRailPayout(ctx, tx, attempt.transfer_id, attempt.operator_id ?? attempt.reference);
    if (answer.reversed) await recordReversal(ctx, tx, attempt);
    return answer;
  });
  if (!written) return;
  // After the commit, out of the payouts' way: neither moves money, and a reading lost to a crash
  // here is made by the scheduled one within minutes.
  if (outcome.step.http_status !== null && outcome.step.http_status < 500) await railAnswered(ctx.db, written.attempt.rail);
  // Once a payout ends (or is taken back), the float it took (or did not) is read again.
  const ended = !written.askAgainAt && (isOpen(written.before) || written.reversed);
  if (ended && isMobileRail(written.attempt.rail)) await readBalanceAfterPayout(ctx.db, written.attempt.rail);
}

/**
 * `applyOutcome` for the answers to a batch's sends or enquiries, in one transaction: the attempts
 * written in one statement, the next enquiries of those still open in one and the waiting ones of
 * those ended removed in one, the succeeded payouts recorded set-wise (their books last). The
 * attempts answered meanwhile (a callback's enquiry racing the send) are read again, locked, and
 * written as they now are, two statements for them all.
 */
async function applyOutcomes(ctx: Ctx, answers: readonly { attempt: AttemptRow; outcome: MoneyOutcome }[]): Promise<void> {
  if (answers.length === 0) return;
  const written = await ctx.db.transaction(async (tx) => {
    const all = await writeOutcomes(tx, answers.map(({ attempt, outcome }) => ({ seen: attempt, outcome })), ctx.config.payoutUnknownAfterMs);
    const meanwhile = answers.filter(({ attempt }) => !all.has(attempt.id));
    if (meanwhile.length > 0) {
      const current = new Map((await tx.select().from(payoutAttempts)
        .where(sql`${payoutAttempts.id} = any(${sql.param(meanwhile.map(({ attempt }) => attempt.id))}::uuid[])`)
        .orderBy(payoutAttempts.id).for('update')).map((a) => [a.id, a]));
      const again = meanwhile.flatMap(({ attempt, outcome }) => (current.has(attempt.id) ? [{ seen: current.get(attempt.id)!, outcome }] : []));
      for (const [id, w] of await writeOutcomes(tx, again, ctx.config.payoutUnknownAfterMs)) all.set(id, w);
    }
    const done = [...all.values()];
    const askAgain = done.filter((w) => w.askAgainAt);
    await scheduleEnquiriesAt(tx, askAgain.map((w) => ({ attemptId: w.attempt.id, at: w.askAgainAt! })));
    const ended = done.filter((w) => !w.askAgainAt && isOpen(w.before)).map((w) => enquiryKey(w.attempt.id));
    if (ended.length > 0) await tx.execute(sql`select graphile_worker.remove_job(k) from unnest(${sql.param(ended)}::text[]) k`);
    await recordRailPayouts(ctx, tx, done.filter((w) => w.succeeded).map((w) => ({ transferId: w.attempt.transfer_id, reference: w.attempt.operator_id ?? w.attempt.reference })));
    for (const w of done) if (w.reversed) await recordReversal(ctx, tx, w.attempt);
    return all;
  });
  // After the commit, out of the payouts' way (as applyOutcome does).
  const rails = new Set(answers.filter(({ outcome }) => outcome.step.http_status !== null && outcome.step.http_status < 500).map(({ attempt }) => attempt.rail));
  for (const rail of rails) await railAnswered(ctx.db, rail);
  const endedOn = new Set([...written.values()].filter((w) => !w.askAgainAt && (isOpen(w.before) || w.reversed)).map((w) => w.attempt.rail));
  for (const rail of endedOn) if (isMobileRail(rail)) await readBalanceAfterPayout(ctx.db, rail);
}

const isOpen = (state: AttemptState) => state === 'submitting' || state === 'pending' || state === 'unknown';

/** When this process last wrote each rail's last successful call, per database. */
const answeredAt = new WeakMap<Db, Map<RailId, number>>();

/**
 * The rail's last successful call, for the admin's screen: written at most once a second by each
 * process (every payout writing the rail's one row would queue them behind each other).
 */
async function railAnswered(db: Db, rail: RailId): Promise<void> {
  const now = Date.now();
  const written = answeredAt.get(db) ?? new Map<RailId, number>();
  if (now - (written.get(rail) ?? 0) < 1000) return;
  answeredAt.set(db, written.set(rail, now));
  await db.update(payoutRails).set({ last_ok_at: new Date(now) })
    .where(and(eq(payoutRails.id, rail), sql`(${payoutRails.last_ok_at} is null or ${payoutRails.last_ok_at} < ${new Date(now).toISOString()}::timestamptz)`));
}

/** One enquiry job per attempt: a later schedule replaces the waiting one. */
const ENQUIRY_KEY = 'payout-enquire:';
const enquiryKey = (attemptId: string) => `${ENQUIRY_KEY}${attemptId}`;

function scheduleEnquiry(db: Db | Tx, attemptId: string, at: Date): Promise<void> {
  return enqueue(db, 'payout_enquire', { attempt_id: attemptId }, ENQUIRY_JOB_ATTEMPTS, enquiryKey(attemptId), at);
}

/** Many attempts' enquiries, each due when given, in one statement (due later: no wake-up needed). */
async function scheduleEnquiriesAt(tx: Tx, enquiries: readonly { attemptId: string; at: Date }[]): Promise<void> {
  if (enquiries.length === 0) return;
  await tx.execute(sql`select ${quietJobAdd('payout_enquire', sql`json_build_object('attempt_id', e.id)`, ENQUIRY_JOB_ATTEMPTS, sql`${ENQUIRY_KEY} || e.id`, sql`e.at`)}
    from json_to_recordset(${JSON.stringify(enquiries.map((e) => ({ id: e.attemptId, at: e.at })))}::json) as e(id text, at timestamptz)`);
}

const scheduleEnquiries = (tx: Tx, attemptIds: readonly string[], at: Date) => scheduleEnquiriesAt(tx, attemptIds.map((attemptId) => ({ attemptId, at })));

/** Asks about an attempt now (an operator's callback named it): its waiting enquiry moves up. */
export function enquireSoon(db: Db | Tx, attemptId: string): Promise<void> {
  return scheduleEnquiry(db, attemptId, new Date());
}

/**
 * A callback's enquiry, as part of the statement that stores the callback and finds its attempt:
 * the caller wakes the workers once it committed. Its key is not the scheduled enquiry's: that
 * job's row is written by the transactions that open and answer the attempt, and a callback
 * replacing it would wait for their commit; callbacks naming one attempt still make one enquiry.
 */
export const enquireSoonSql = (attemptId: SQL) =>
  quietJobAdd('payout_enquire', sql`json_build_object('attempt_id', ${attemptId})`, ENQUIRY_JOB_ATTEMPTS, sql`${CALLBACK_ENQUIRY_KEY} || ${attemptId}`);
const CALLBACK_ENQUIRY_KEY = 'payout-callback:';

const TransferJobSchema = z.object({ transfer_id: z.uuid() });
const AttemptJobSchema = z.object({ attempt_id: z.uuid() });

/** How many due enquiries a worker takes at once (its own job's and others waiting). */
const ENQUIRIES_AT_ONCE = 50;
/** A job of a batch: what it names, and its own id (the batch takes the due ones as the first job's worker). */
type BatchJob = { id: string; jobId: string };

/**
 * The jobs of `kind` this process's workers hold, done in batches (lib/batches.ts: at most one
 * batch every BATCH_EVERY_MS per database handle, the one a process's workers share), each with up
 * to `atOnce` jobs in all: those held, and due ones waiting, taken (takeDueJobs) and ended here.
 * `work` answers each id's result, or the error that fails its job alone (tried again later); when
 * it throws, every job of its batch fails with it.
 */
function jobBatches<R>(kind: 'payout_start' | 'payout_enquire', atOnce: number, idOf: (payload: unknown) => string | null,
  work: (ctx: Ctx, ids: string[]) => Promise<Map<string, R | Error>>) {
  const perDatabase = new WeakMap<Db, (job: BatchJob) => Promise<R | Error | undefined>>();
  return (ctx: Ctx, job: BatchJob) => {
    let batch = perDatabase.get(ctx.db);
    if (!batch) {
      perDatabase.set(ctx.db, batch = batched(async (held: BatchJob[]) => {
        const leader = held[0]!.jobId;
        const due = (await takeDueJobs(ctx.db, leader, kind, atOnce - held.length)).map((t) => ({ jobId: t.jobId, id: idOf(t.payload) }));
        const taken = due.filter((t): t is BatchJob => t.id !== null);
        const results = await inBatch(ctx.db, leader, due, () => work(ctx, [...held, ...taken].map((j) => j.id)));
        // One whose payload names nothing fails as its own run would (left locked, it would wait for the lock's expiry).
        await endTakenJobs(ctx.db, leader, due.map((t) => {
          const result = t.id === null ? new Error(`${kind}: its payload names nothing to do`) : results.get(t.id);
          return { jobId: t.jobId, error: result instanceof Error ? result.message : null };
        }));
        return held.map((h) => results.get(h.id));
      }, { maxSize: atOnce, maxRunning: Number.POSITIVE_INFINITY, everyMs: BATCH_EVERY_MS }));
    }
    return batch(job);
  };
}

const startBatches = jobBatches('payout_start', STARTS_AT_ONCE, (payload) => TransferJobSchema.safeParse(payload).data?.transfer_id ?? null, startPayouts);

/**
 * The payout_start job: a transfer whose controls may all have cleared, started in a batch with
 * the other starts this process holds and those due (jobBatches).
 */
export async function runPayoutStartJob(ctx: Ctx, payload: unknown, job: { id: string }): Promise<void> {
  const result = await startBatches(ctx, { id: TransferJobSchema.parse(payload).transfer_id, jobId: job.id });
  if (result instanceof Error) throw result;
}

const enquiryBatches = jobBatches('payout_enquire', ENQUIRIES_AT_ONCE, (payload) => AttemptJobSchema.safeParse(payload).data?.attempt_id ?? null,
  async (ctx, ids) => {
    await enquireMany(ctx, ids);
    return new Map();
  });

/** The payout_enquire job: an open attempt asked about, in a batch with the other enquiries held and due (jobBatches). */
export async function runPayoutEnquireJob(ctx: Ctx, payload: unknown, job: { id: string }): Promise<void> {
  await enquiryBatches(ctx, { id: AttemptJobSchema.parse(payload).attempt_id, jobId: job.id });
}

/** A batch's work: when it throws, the jobs it took fail with its error (retried later) and so do the workers' own. */
async function inBatch<T>(db: Db, ownJobId: string, taken: readonly { jobId: string }[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await endTakenJobs(db, ownJobId, taken.map((t) => ({ jobId: t.jobId, error: err instanceof Error ? err.message : String(err) })));
    throw err;
  }
}
