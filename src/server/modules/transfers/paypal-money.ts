import { z } from 'zod';
import { unapprovedError } from '@core/approval.js';
import { paymentMismatch } from '@core/money-states.js';
import { parseAmount, toDecimal, type Currency } from '@core/money.js';
import { ROLES, isFinalStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { approvalRequiredFor, refused } from '../approvals/service.js';
import { recordAudit } from '../audit/service.js';
import { enqueue, pendingJob } from '../jobs/service.js';
import { PayPalError, captureAuthorization, refundCapture, voidAuthorization } from '../payments/paypal.js';
import { auditSnapshot, moneyStep, usesPayPal, type StaffActor } from './money.js';
import { lockRequest, writeMoney, type TransferRequestRow } from './repo.js';

// A PayPal transfer's money (D11, D17, docs/rules/money-states.md#paypal): the sender's approval
// is authorized (PayPal holds the money), staff capture it as they take the transfer into
// processing, and a closed transfer's authorization is voided, a refund made, by queued jobs.
// Each PayPal call carries a PayPal-Request-Id fixed by the transfer, so a retry does it once.

/** What the PayPal jobs need: no request, no session. */
export type MoneyContext = Pick<AppContext, 'config' | 'db' | 'log'>;

// One void and one refund per transfer at most: the job key is also PayPal's request id.
const voidKey = (transferId: string) => `paypal_void:${transferId}`;
const refundKey = (transferId: string) => `paypal_refund:${transferId}`;

// ---- approval ----

/**
 * The payer approved and PayPal authorized the order: the payment is `authorized`, nothing
 * charged. A transfer cancelled or rejected meanwhile keeps nothing: its void is queued at once.
 * Null for an unknown transfer; the row as it was when its payment was no longer awaiting.
 */
export function recordAuthorization(ctx: MoneyContext, id: string, authorizationId: string): Promise<TransferRequestRow | null> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockRequest(tx, id);
    if (!row || row.payment_status !== 'awaiting') return row;
    const written = await writeMoney(tx, {
      from: row, set: { payment_status: 'authorized', provider_authorization_id: authorizationId },
      events: ['payment_authorized'], actor: null, note: null,
    });
    if (isFinalStatus(written.status)) await queueVoid(ctx, tx, written);
    return written;
  });
}

// ---- capture, as staff move the transfer to processing ----

const captureRefused = (reason: string) => new AppError('paypal_capture_refused', { vars: { reason } });

/**
 * Captures a PayPal transfer's authorization inside the status move's transaction, the row
 * locked while PayPal answers: the payment `received` for the amount PayPal captured, the capture
 * id as provider reference, the ledger's payment entry and the timeline step. PayPal refusing
 * fails the move with its reason (409), PayPal unreachable with 502: the transaction rolls back
 * and nothing changes. A transfer that needs a second staff member's approval and has none is
 * refused (409) before PayPal is called. Other transfers pass through as they are.
 */
export async function captureForProcessing(ctx: AppContext, tx: Tx, row: TransferRequestRow, actor: StaffActor): Promise<TransferRequestRow> {
  if (!usesPayPal(ctx, row)) return row;
  if (row.payment_status === 'awaiting') throw new AppError('processing_needs_approval');
  if (row.payment_status !== 'authorized' || !row.provider_authorization_id) return row;
  // Capturing takes the sender's money: at or above its threshold, only once a second staff member approved.
  const unapproved = unapprovedError(row, await approvalRequiredFor(tx, row), 'capture');
  if (unapproved) throw refused(unapproved);
  let capture;
  try {
    capture = await captureAuthorization(ctx.config, row.provider_authorization_id);
  } catch (err) {
    ctx.log.warn({ err, requestId: row.id }, 'PayPal capture failed');
    if (err instanceof PayPalError && err.refused) throw captureRefused(err.reason);
    throw new AppError('paypal_capture_unavailable');
  }
  // PENDING (held for review) is not money in: the move waits until PayPal completes it.
  if (capture.status !== 'COMPLETED') throw captureRefused(capture.status);
  const currency = row.currency as Currency;
  const due = parseAmount(row.total, currency) ?? 0;
  // What PayPal says it captured is recorded as it is (flagged if it differs from the total).
  const captured = capture.amount?.currency_code === row.currency ? parseAmount(capture.amount.value, currency) : null;
  if (captured === null) ctx.log.error({ requestId: row.id, captureId: capture.id }, 'PayPal capture without a readable amount: recorded as the total, flagged');
  const received = captured ?? due;
  return moneyStep(ctx, actor, row.id, () => ({
    set: {
      payment_status: 'received', payment_amount: toDecimal(received, currency), payment_reference: capture.id,
      provider_txn_id: capture.id, payment_flagged: captured === null || paymentMismatch(received, due),
      payment_recorded_by: actor.profile_id, payment_recorded_at: new Date(),
    },
    events: ['payment_received'],
    entries: ['payment'],
    reference: capture.id,
    // The status e-mail of the move tells the sender; no second e-mail.
    mail: null,
  }), tx);
}

// ---- void, when a transfer closes with its payment authorized ----

const VoidJobSchema = z.object({ transfer_id: z.uuid(), authorization_id: z.string().min(1), request_id: z.string().min(1) });

/**
 * Queues the release of the authorization of a transfer just closed (or closed before its
 * approval came back), in the caller's transaction. The payment stays `authorized` until PayPal
 * confirms the void: it can no longer be captured (a closed transfer never moves to processing).
 */
export async function queueVoid(ctx: Pick<AppContext, 'config'>, tx: Tx, row: TransferRequestRow): Promise<void> {
  if (row.payment_status !== 'authorized' || !row.provider_authorization_id) return;
  const key = voidKey(row.id);
  const payload: z.infer<typeof VoidJobSchema> = { transfer_id: row.id, authorization_id: row.provider_authorization_id, request_id: key };
  await enqueue(tx, 'paypal_void', payload, ctx.config.JOB_MAX_ATTEMPTS, key);
}

/** The void job: PayPal releases the money (once, by its request id), then the payment is `voided`. */
export async function runVoidJob(ctx: MoneyContext, payload: unknown): Promise<void> {
  const job = VoidJobSchema.parse(payload);
  try {
    await voidAuthorization(ctx.config, job.authorization_id, job.request_id);
  } catch (err) {
    // Voided already (by an earlier run whose answer was lost, or at PayPal): the same outcome.
    if (!(err instanceof PayPalError && (err.issue === 'PREVIOUSLY_VOIDED' || err.issue === 'AUTHORIZATION_VOIDED'))) throw err;
  }
  await ctx.db.transaction(async (tx) => {
    const row = await lockRequest(tx, job.transfer_id);
    if (!row || row.payment_status !== 'authorized' || row.provider_authorization_id !== job.authorization_id) return;
    await writeMoney(tx, { from: row, set: { payment_status: 'voided' }, events: ['payment_voided'], actor: null, note: null });
  });
}

// ---- refund of a captured PayPal payment ----

const RefundJobSchema = z.object({
  transfer_id: z.uuid(),
  capture_id: z.string().min(1),
  request_id: z.string().min(1),
  actor: z.object({ profile_id: z.uuid(), role: z.enum(ROLES) }),
});

/** A transfer whose money PayPal captured: its refund goes through PayPal's API. */
export function refundsThroughPayPal(ctx: AppContext, row: TransferRequestRow): boolean {
  return usesPayPal(ctx, row) && row.provider_txn_id !== null;
}

/**
 * Staff ask for the refund of a PayPal transfer: the job is queued in this transaction and the
 * transfer answered as it stands (`refund_due`, refund requested). Null when the transfer's
 * refund is not PayPal's (then staff record it by hand); the state's refusals as 409.
 */
export async function requestPayPalRefund(ctx: AppContext, actor: StaffActor, id: string, refuse: (row: TransferRequestRow) => void): Promise<TransferRequestRow | null> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockRequest(tx, id);
    if (!row) throw new AppError('not_found');
    if (!refundsThroughPayPal(ctx, row)) return null;
    refuse(row);
    const key = refundKey(row.id);
    if (await pendingJob(tx, key)) throw new AppError('refund_already_requested');
    const payload: z.infer<typeof RefundJobSchema> = {
      transfer_id: row.id, capture_id: row.provider_txn_id!, request_id: key, actor: { profile_id: actor.profile_id, role: actor.role },
    };
    await enqueue(tx, 'paypal_refund', payload, ctx.config.JOB_MAX_ATTEMPTS, key);
    await recordAudit(tx, { ...actor, ip: actor.ip ?? null }, {
      action: 'transfer_request.refund_request', target: 'transfer', id: row.id, before: auditSnapshot(row), after: { refund_requested: true },
    });
    return row;
  });
}

/** When staff asked PayPal for this transfer's refund, while it is not done (waiting, retried or parked). */
export async function refundRequestedAt(db: Db | Tx, transferId: string): Promise<Date | null> {
  const job = await pendingJob(db, refundKey(transferId));
  return job ? new Date(job.created_at) : null;
}

/**
 * The refund job: PayPal refunds the capture in full (once, by its request id), then in one
 * transaction the payment is `refunded` with PayPal's refund id as its reference, the ledger's
 * refund entry, the timeline step (by the staff member who asked) and the sender's e-mail.
 */
export async function runRefundJob(ctx: MoneyContext, payload: unknown): Promise<void> {
  const job = RefundJobSchema.parse(payload);
  const refund = await refundCapture(ctx.config, job.capture_id, job.request_id);
  // PENDING: PayPal accepted the refund and is sending it; FAILED or CANCELLED is retried, then parked.
  if (refund.status !== 'COMPLETED' && refund.status !== 'PENDING') throw new Error(`PayPal refund ${refund.id} is ${refund.status}`);
  await ctx.db.transaction(async (tx) => {
    const row = await lockRequest(tx, job.transfer_id);
    if (!row || row.payment_status !== 'refund_due') return;
    await moneyStep(ctx, job.actor, row.id, () => ({
      set: { payment_status: 'refunded', refund_reference: refund.id, refunded_by: job.actor.profile_id, refunded_at: new Date() },
      events: ['refunded'],
      entries: ['refund'],
      reference: refund.id,
      mail: 'refunded',
    }), tx);
  });
}
