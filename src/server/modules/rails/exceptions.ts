import { and, desc, eq, inArray, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import type { PayoutAttemptJson } from '@core/api/rails.js';
import type { PayoutExceptionJson } from '@core/api/payout-exceptions.js';
import { AppError } from '@core/errors.js';
import { FINAL_STATUSES, isFinalStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { payoutAttempts, payoutNameHolds, transferRequests } from '@server/db/schema.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { lockTransfer, queueRailPayout, type TransferRequestRow } from '../transfers/service.js';
import type { AttemptRow } from './attempts.js';
import { holdJson } from './name-holds.js';
import { enquireSoon } from './payouts.js';
import { attemptJson } from './service.js';

// Payouts that need a person (docs/rules/payout-rails.md#needs-attention): what staff see, and
// what they may do about a failed attempt (retry through the rail, or send it by hand) or one
// still unknown (ask the operator again now; nothing else while it may still pay). An attempt a
// mobile or PayPal operator or the bank sent back is listed too, for staff to pay again
// (pay-again.ts) or refund.

type Ctx = Pick<AppContext, 'config' | 'db'>;

const TRANSFER = {
  id: transferRequests.id, reference: transferRequests.reference, status: transferRequests.status, sender_id: transferRequests.profile_id,
  amount: transferRequests.amount, currency: transferRequests.currency, payout_amount: transferRequests.payout_amount,
  payout_currency: transferRequests.payout_currency, details: transferRequests.destination_details,
};
const open = notInArray(transferRequests.status, [...FINAL_STATUSES]);

function transferJson(t: { details: unknown } & Omit<PayoutExceptionJson['transfer'], 'recipient_name' | 'recipient_phone'>): PayoutExceptionJson['transfer'] {
  const { details, ...rest } = t;
  const d = details as { recipient_name?: string; recipient_phone?: string };
  return { ...rest, recipient_name: d.recipient_name ?? null, recipient_phone: d.recipient_phone ?? null };
}

/** When the operator's answer took the payout back: its step that says so. */
const reversedAt = (attempt: AttemptRow) => attempt.steps.findLast((s) => s.state === 'reversed')?.at ?? attempt.updated_at.toISOString();

/**
 * GET /api/payout-exceptions (staff): name checks no one decided yet, attempts still unknown past
 * PAYOUT_UNKNOWN_AFTER or open on a rail whose credentials were removed, and failed or reversed
 * attempts with nothing after them, oldest first.
 */
export async function payoutExceptions(ctx: Ctx): Promise<PayoutExceptionJson[]> {
  const holds = await ctx.db.select({ hold: payoutNameHolds, transfer: TRANSFER }).from(payoutNameHolds)
    .innerJoin(transferRequests, eq(transferRequests.id, payoutNameHolds.transfer_id))
    .where(and(isNull(payoutNameHolds.closed_at), isNull(payoutNameHolds.decision), open));
  const settledForStaff = inArray(payoutAttempts.state, ['failed', 'reversed']);
  const latest = sql`${payoutAttempts.seq} = (select max(later.seq) from payout_attempts later where later.transfer_id = ${payoutAttempts.transfer_id})`;
  const attempts = await ctx.db.select({ attempt: payoutAttempts, transfer: TRANSFER }).from(payoutAttempts)
    .innerJoin(transferRequests, eq(transferRequests.id, payoutAttempts.transfer_id))
    .where(and(open, latest, sql`(${and(inArray(payoutAttempts.state, ['submitting', 'pending', 'unknown']), isNotNull(payoutAttempts.needs_attention_at))}
      or ${and(settledForStaff, isNull(payoutAttempts.resolution), eq(transferRequests.payout_status, 'not_sent'))})`));
  const fourEyes = await ctx.db.transaction(async (tx) => new Map(await Promise.all(holds.map(async ({ transfer }) =>
    [transfer.id, await approvalRequiredFor(tx, transfer)] as const))));
  const list: PayoutExceptionJson[] = [
    ...holds.map(({ hold, transfer }) => ({
      kind: 'name_hold' as const, since: hold.created_at.toISOString(), transfer: transferJson(transfer),
      hold: holdJson(hold, fourEyes.get(transfer.id) ?? false), attempt: null, collection: null,
    })),
    ...attempts.map(({ attempt, transfer }) => ({
      kind: attempt.state === 'failed' || attempt.state === 'reversed' ? attempt.state : 'unknown' as const,
      since: attempt.state === 'reversed' ? reversedAt(attempt) : (attempt.state === 'failed' ? attempt.settled_at ?? attempt.updated_at
        : attempt.needs_attention_at ?? attempt.updated_at).toISOString(),
      transfer: transferJson(transfer), hold: null, attempt: attemptJson(attempt), collection: null,
    })),
  ];
  return list.sort((a, b) => a.since.localeCompare(b.since));
}

/** The transfer's latest attempt and the transfer, locked, for staff: never on their own transfer. */
export async function latestForStaff(tx: Tx, actor: Actor, transferId: string): Promise<{ attempt: AttemptRow | undefined; row: TransferRequestRow }> {
  const row = await lockTransfer(tx, transferId);
  if (!row) throw new AppError('not_found');
  if (row.profile_id === actor.profile_id) throw new AppError('own_transfer');
  const [attempt] = await tx.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transferId)).orderBy(desc(payoutAttempts.seq)).limit(1).for('update');
  return { attempt, row };
}

/** A failed attempt staff may act on: the latest, failed, no one decided, the transfer still to pay. */
function failedToDecide(attempt: AttemptRow | undefined, row: TransferRequestRow): AttemptRow {
  if (attempt && ['submitting', 'pending', 'unknown'].includes(attempt.state)) throw new AppError('payout_attempt_open');
  if (isFinalStatus(row.status)) throw new AppError('transfer_closed');
  if (!attempt || attempt.state !== 'failed' || attempt.resolution || row.payout_status === 'sent') throw new AppError('payout_not_failed');
  return attempt;
}

/**
 * POST /api/transfer-requests/{id}/payouts/retry or …/by-hand (staff): after a confirmed failure,
 * a new attempt through the rail (started by the payout's job, every control checked again) or
 * the payout left to staff's "Record payout". Audited.
 */
export async function resolveFailure(ctx: Ctx, actor: Actor, transferId: string, resolution: 'retried' | 'by_hand'): Promise<PayoutAttemptJson> {
  return ctx.db.transaction(async (tx) => {
    const { attempt, row } = await latestForStaff(tx, actor, transferId);
    const failed = failedToDecide(attempt, row);
    const [resolved] = await tx.update(payoutAttempts).set({ resolution, resolved_by: actor.profile_id, resolved_at: new Date() })
      .where(eq(payoutAttempts.id, failed.id)).returning();
    await recordAudit(tx, actor, {
      action: resolution === 'retried' ? 'payout_attempt.retry' : 'payout_attempt.by_hand', target: 'payout_attempt', id: failed.id,
      before: { transfer_id: transferId, state: 'failed', resolution: null }, after: { transfer_id: transferId, state: 'failed', resolution },
    });
    if (resolution === 'retried') await queueRailPayout(tx, row, ctx.config.JOB_MAX_ATTEMPTS);
    return attemptJson(resolved!);
  });
}

/** POST /api/transfer-requests/{id}/payouts/enquire (staff): an attempt the operator has not settled is asked about now. */
export async function askAgain(ctx: Ctx, actor: Actor, transferId: string): Promise<PayoutAttemptJson> {
  return ctx.db.transaction(async (tx) => {
    const { attempt } = await latestForStaff(tx, actor, transferId);
    if (!attempt || !['submitting', 'pending', 'unknown'].includes(attempt.state)) throw new AppError('payout_not_open');
    await enquireSoon(tx, attempt.id);
    return attemptJson(attempt);
  });
}
