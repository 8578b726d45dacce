import { randomUUID } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { CollectionJson, CollectionStatus } from '@core/api/collections.js';
import { collectionReason, collectionState } from '@core/collections.js';
import { AppError } from '@core/errors.js';
import { awaitsPayment } from '@core/money-states.js';
import { isMobileChannel, type MobileChannelId } from '@core/operators.js';
import type { RailId } from '@core/rails.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { collectionAttempts, payoutRails, transferRequests } from '@server/db/schema.js';
import { enqueue, removeJob } from '../jobs/service.js';
import { postDuplicatePayment } from '../ledger/service.js';
import { payoutNumber } from '../operators/service.js';
import {
  awaitingSendersPayment, lockAwaitingPayment, recordCollectedPayment, sendersTransfer, type TransferRequestRow,
} from '../transfers/service.js';
import { answered, notConfigured, operatorAmount } from './attempts.js';
import type { MobileMoneyCollector, MoneyOutcome } from './operator.js';
import { AFTER_A_LOST_ANSWER_MS, ENQUIRY_JOB_ATTEMPTS, railOf, railOn } from './payouts.js';
import { railOperator } from './registry.js';

// "Approve on my phone" (docs/rules/payout-rails.md#collections): the sender's payment asked from
// their own wallet through the operator (Airtel's USSD push, MTN's request-to-pay). The attempt is
// written with its reference before the request leaves, asked about until the operator says, and
// the operator's confirmation records the payment received as staff record one.

type Ctx = Pick<AppContext, 'config' | 'db'>;
type SenderCtx = Pick<AppContext, 'config' | 'db' | 'prices'>;
type CollectionRow = typeof collectionAttempts.$inferSelect;

/** The rails that may collect from each mobile-money channel's numbers. */
const SOURCE_RAILS: Record<MobileChannelId, RailId[]> = { airtel_gabon: ['airtel_gabon'], mobile_rwanda: ['airtel_rwanda', 'mtn_rwanda'] };
const SOURCE_COUNTRY: Record<MobileChannelId, 'GA' | 'RW'> = { airtel_gabon: 'GA', mobile_rwanda: 'RW' };
/** Requests one transfer may send to phones: a sender can type any number of the channel, so pushes to someone else's phone stay few. */
const REQUESTS_PER_TRANSFER = 5;

/** The rail takes collections: switched on, its credentials set and, for MTN, its collection subscription key. */
async function collectingOperator(ctx: Ctx, rail: RailId): Promise<MobileMoneyCollector | null> {
  if (rail === 'mtn_rwanda' && !ctx.config.MTN_MOMO_COLLECTION_KEY) return null;
  return railOn(ctx.db, ctx, rail);
}

async function collectsFrom(ctx: Ctx, row: TransferRequestRow): Promise<boolean> {
  if (!awaitsPayment(row) || !isMobileChannel(row.source_provider)) return false;
  for (const rail of SOURCE_RAILS[row.source_provider]) if (await collectingOperator(ctx, rail)) return true;
  return false;
}

function collectionJson(row: CollectionRow): CollectionJson {
  const reason = row.state === 'failed' ? collectionReason(row.reason) : null;
  return {
    id: row.id, state: collectionState(row.state, reason), reason, msisdn: row.msisdn, amount: row.amount, currency: row.currency,
    created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString(),
  };
}

function latestCollection(db: Db | Tx, transferId: string): Promise<CollectionRow | undefined> {
  return db.select().from(collectionAttempts).where(eq(collectionAttempts.transfer_id, transferId))
    .orderBy(desc(collectionAttempts.seq)).limit(1).then((rows) => rows[0]);
}

/** GET /api/transfer-requests/{id}/collection (its sender): whether they may approve on their phone now, and the latest request. */
export async function collectionStatus(ctx: Ctx, caller: Parameters<typeof sendersTransfer>[1], transferId: string): Promise<CollectionStatus> {
  const row = await sendersTransfer(ctx.db, caller, transferId);
  const [available, latest] = await Promise.all([collectsFrom(ctx, row), latestCollection(ctx.db, row.id)]);
  return { available: available && (latest?.seq ?? 0) < REQUESTS_PER_TRANSFER, collection: latest ? collectionJson(latest) : null };
}

/**
 * POST /api/transfer-requests/{id}/collect (its sender): asks the operator to take the transfer's
 * total from the wallet `typed`, once no earlier request is still open. The attempt, its
 * reference and its send job are committed together and the answer is the attempt in
 * `submitting`: the operator is called by the job, never inside the sender's request.
 */
export async function startCollection(ctx: SenderCtx, caller: Parameters<typeof sendersTransfer>[1], transferId: string, typed: string): Promise<CollectionJson> {
  const row = await awaitingSendersPayment(ctx.db, caller, transferId);
  if (!isMobileChannel(row.source_provider)) throw new AppError('collection_unavailable');
  const msisdn = await payoutNumber(ctx, row.source_provider, typed, 'msisdn');
  const rail = await railOf(ctx, row.source_provider, msisdn);
  if (!rail || !await collectingOperator(ctx, rail)) throw new AppError('collection_unavailable');

  const attempt = await ctx.db.transaction(async (tx) => {
    const locked = await lockAwaitingPayment(tx, transferId);
    const sent = await latestCollection(tx, transferId);
    if ((sent?.seq ?? 0) >= REQUESTS_PER_TRANSFER) throw new AppError('collection_limit', { vars: { count: REQUESTS_PER_TRANSFER } });
    const [opened] = await tx.insert(collectionAttempts).values({
      transfer_id: transferId,
      seq: sql`(select coalesce(max(seq), 0) + 1 from collection_attempts where transfer_id = ${transferId})`,
      rail, reference: randomUUID(), msisdn, amount: locked.total, currency: locked.currency as 'XAF' | 'RWF',
    }).onConflictDoNothing().returning();
    // The unique index keeps one open (or succeeded) request per transfer, whoever races.
    if (!opened) throw new AppError('collection_in_progress');
    await enqueue(tx, 'collection_send', { attempt_id: opened.id }, ENQUIRY_JOB_ATTEMPTS, `collection-send:${opened.id}`);
    // Should the send job never run, the operator is still asked, and an attempt left unknown reaches staff.
    await scheduleEnquiry(tx, opened.id, new Date(Date.now() + AFTER_A_LOST_ANSWER_MS));
    return opened;
  });
  return collectionJson(attempt);
}

/**
 * Marks the attempt as leaving, committed before the operator is called: 'send' the first time,
 * 'ask' when an earlier run already marked it (it may have reached the operator: a crash, a lost
 * answer, a retried job), null when there is nothing to do (settled, or never sent and failed since).
 */
async function markSending(ctx: Ctx, attemptId: string): Promise<{ then: 'send' | 'ask'; attempt: CollectionRow } | null> {
  return ctx.db.transaction(async (tx) => {
    const [attempt] = await tx.select().from(collectionAttempts).where(eq(collectionAttempts.id, attemptId)).for('update');
    if (!attempt || !['submitting', 'pending', 'unknown'].includes(attempt.state)) return null;
    if (attempt.sent_at) return { then: 'ask' as const, attempt };
    const now = new Date();
    const [marked] = await tx.update(collectionAttempts).set({ sent_at: now }).where(eq(collectionAttempts.id, attemptId)).returning();
    // The answer to the send may never be written: the operator is asked then.
    await scheduleEnquiry(tx, attemptId, new Date(now.getTime() + AFTER_A_LOST_ANSWER_MS));
    return { then: 'send' as const, attempt: marked! };
  });
}

/**
 * The collection_send job: the one call that asks the payer's wallet, made once per attempt. Run
 * again for the same attempt, it asks the operator about the reference instead of sending it again.
 */
export async function sendCollection(ctx: Ctx, attemptId: string): Promise<void> {
  const marked = await markSending(ctx, attemptId);
  if (!marked) return;
  if (marked.then === 'ask') return enquireCollection(ctx, attemptId);
  const { attempt } = marked;
  const operator = railOperator(ctx.config, attempt.rail);
  // The rail's credentials were removed since the sender asked: nothing left, so nothing can be asked about.
  if (!operator) {
    await applyOutcome(ctx, attemptId, { state: 'failed', reason: 'failed', step: { at: new Date().toISOString(), call: 'collect', http_status: null, operator_code: null, message: 'rail not configured' } });
    return;
  }
  const [transfer] = await ctx.db.select({ reference: transferRequests.reference, channel: transferRequests.source_provider })
    .from(transferRequests).where(eq(transferRequests.id, attempt.transfer_id));
  const currency = attempt.currency as 'XAF' | 'RWF';
  const outcome = await operator.collect({
    reference: attempt.reference, msisdn: attempt.msisdn, amount: operatorAmount(attempt.amount, currency), currency,
    country: SOURCE_COUNTRY[transfer!.channel as MobileChannelId], note: `Transfer ${transfer!.reference}`,
  });
  await applyOutcome(ctx, attemptId, outcome);
}

/** Asks the operator where an open collection stands, and writes the answer. */
export async function enquireCollection(ctx: Ctx, attemptId: string): Promise<void> {
  const [attempt] = await ctx.db.select().from(collectionAttempts).where(eq(collectionAttempts.id, attemptId));
  if (!attempt || !['submitting', 'pending', 'unknown'].includes(attempt.state)) return;
  const operator = railOperator(ctx.config, attempt.rail);
  await applyOutcome(ctx, attemptId, operator ? await operator.collection(attempt.reference) : notConfigured('collection'));
}

/**
 * Writes an answer in one transaction: the attempt; when it succeeded, the payment recorded
 * received (or, for a transfer whose payment was recorded otherwise meanwhile, the money came
 * twice: booked as owed back, and the attempt put before staff); the next enquiry while it is open.
 */
async function applyOutcome(ctx: Ctx, attemptId: string, outcome: MoneyOutcome): Promise<CollectionRow | null> {
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(collectionAttempts).where(eq(collectionAttempts.id, attemptId)).for('update');
    if (!current) return null;
    const now = new Date();
    // Its age counts from when the request left (the send job may run long after the sender
    // asked): a request still on its way is not yet "never created".
    const answer = answered({ ...current, created_at: current.sent_at ?? current.created_at }, outcome, ctx.config.payoutUnknownAfterMs, now);
    const reference = answer.set.operator_id ?? current.reference;
    const recorded = answer.succeeded ? await recordCollectedPayment(ctx, tx, current.transfer_id, current.amount, reference) : true;
    if (!recorded) await bookReceivedTwice(tx, current, reference);
    const [written] = await tx.update(collectionAttempts).set({
      ...answer.set,
      needs_attention_at: recorded ? answer.set.needs_attention_at : now,
      reason: answer.reason ?? current.reason,
      steps: sql`${collectionAttempts.steps} || ${answer.step}::jsonb`,
    }).where(eq(collectionAttempts.id, attemptId)).returning();
    if (answer.askAgainAt) await scheduleEnquiry(tx, attemptId, answer.askAgainAt);
    else await removeJob(tx, enquiryKey(attemptId));
    if (outcome.step.http_status !== null && outcome.step.http_status < 500) {
      await tx.update(payoutRails).set({ last_ok_at: now }).where(eq(payoutRails.id, current.rail));
    }
    return written!;
  });
}

/** The money came twice: the books hold it, owed back to the sender until staff record its refund. */
async function bookReceivedTwice(tx: Tx, attempt: CollectionRow, reference: string): Promise<void> {
  const [transfer] = await tx.select({ source: transferRequests.source_provider }).from(transferRequests).where(eq(transferRequests.id, attempt.transfer_id));
  await postDuplicatePayment(tx, { transferId: attempt.transfer_id, source: transfer!.source as MobileChannelId, currency: attempt.currency, amount: attempt.amount }, reference);
}

/** One enquiry job per collection: a later schedule replaces the waiting one. */
const enquiryKey = (attemptId: string) => `collection-enquire:${attemptId}`;

function scheduleEnquiry(tx: Tx, attemptId: string, at: Date): Promise<void> {
  return enqueue(tx, 'collection_enquire', { attempt_id: attemptId }, ENQUIRY_JOB_ATTEMPTS, enquiryKey(attemptId), at);
}

/** An operator's callback named this reference: when it is a collection of ours, it is asked about now. */
export async function enquireCollectionSoon(tx: Tx, reference: string): Promise<boolean> {
  const [attempt] = await tx.select({ id: collectionAttempts.id }).from(collectionAttempts).where(eq(collectionAttempts.reference, reference));
  if (attempt) await scheduleEnquiry(tx, attempt.id, new Date());
  return !!attempt;
}

const AttemptJobSchema = z.object({ attempt_id: z.uuid() });

/** The collection_send job: a sender's request sent to the operator (or, sent before, asked about). */
export async function runCollectionSendJob(ctx: Ctx, payload: unknown): Promise<void> {
  await sendCollection(ctx, AttemptJobSchema.parse(payload).attempt_id);
}

/** The collection_enquire job: an open collection asked about. */
export async function runCollectionEnquireJob(ctx: Ctx, payload: unknown): Promise<void> {
  await enquireCollection(ctx, AttemptJobSchema.parse(payload).attempt_id);
}
