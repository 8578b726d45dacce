import { z } from 'zod';
import { ROLES } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { recordAudit } from '../audit/service.js';
import { assertNotHeld } from '../holds/service.js';
import { enqueue, pendingJob } from '../jobs/service.js';
import { refundCapture } from './paypal-client.js';
import { auditSnapshot, moneyStep, usesPayPal, type MoneyContext, type StaffActor } from './money-step.js';
import { lockRequest, type TransferRequestRow } from './repo.js';

// A captured PayPal payment is refunded through PayPal's API by a queued job
// (docs/rules/money-states.md#paypal). The job key is also PayPal's request id, so a retry
// refunds once: one refund per transfer at most.
const refundKey = (transferId: string) => `paypal_refund:${transferId}`;

const RefundJobSchema = z.object({
  transfer_id: z.uuid(),
  capture_id: z.string().min(1),
  request_id: z.string().min(1),
  actor: z.object({ profile_id: z.uuid(), role: z.enum(ROLES) }),
});

/** A transfer whose money PayPal captured: its refund goes through PayPal's API. */
function refundsThroughPayPal(ctx: AppContext, row: TransferRequestRow): boolean {
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
    await assertNotHeld(tx, row.id);
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
