import type { TransferRequestJson } from '@core/api/transfers.js';
import { ownTransferError, sameStaffError, unapprovedError } from '@core/approval.js';
import { moneyActionError, paymentAfterClosing, rejectError } from '@core/money-states.js';
import type { StatusUpdate } from '@core/schemas.js';
import { transitionError, type StatusActor, type TransferStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { railPayoutBlock } from '@server/db/shared-sql/rail-payout-block.js';
import { AppError, Message } from '@core/errors.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { recordAudit } from '../audit/service.js';
import { assertNotHeld } from '../holds/service.js';
import { postTransferEntry } from '../ledger/service.js';
import { auditSnapshot, ledgerView, type StaffActor } from './money-step.js';
import { notifyStatusChange } from './notifications.js';
import { captureForProcessing } from './capture-paypal-payment.js';
import { queueVoid } from './void-paypal-authorization.js';
import { currentStatus, lockRequest, writeStatus, type TransferRequestRow } from './repo.js';
import { transferRequestToJson } from './serialize.js';
import { type Caller, visibleRequest } from './visible-transfer.js';

// How a transfer's status moves (docs/rules/transfers.md#statuses): the one way, the sender's
// cancel and staff's move.

interface StatusChange {
  requestId: string;
  to: TransferStatus;
  actor: StaffActor;
  /** Staff act on any request; an owner only on their own (others' are "not found"). */
  as: StatusActor;
  note?: string | null;
  /**
   * The status the caller saw; a request changed since answers 409 instead of being overwritten.
   * Without it, the status read as the request arrives stands in for it.
   */
  expectedStatus?: TransferStatus | undefined;
}

const statusFailed = (reasonKey: string) => new AppError('status_update_failed', { vars: { reason: new Message(reasonKey) } });

/**
 * Four-eyes on a staff move (docs/rules/back-office.md#four-eyes): never on one's own transfer; the approver does not also
 * process it; a transfer at or above its threshold is completed only once approved (its PayPal
 * capture at processing waits for the approval too: paypal-money.ts).
 */
async function checkFourEyes(tx: Tx, current: TransferRequestRow, change: StatusChange): Promise<void> {
  const refusal = ownTransferError(current, change.actor.profile_id)
    ?? (change.to === 'processing' ? sameStaffError(current, change.actor.profile_id) : null)
    ?? (change.to === 'completed' ? unapprovedError(current, await approvalRequiredFor(tx, current), 'complete') : null);
  if (refusal) throw new AppError(refusal);
}

/**
 * The one way a transfer's status moves: locked row, legal move for that actor, stale reads
 * refused, transaction mirrored, history appended, and the sender's e-mail queued with it.
 */
async function changeStatus(ctx: AppContext, change: StatusChange): Promise<TransferRequestRow> {
  // Compare-and-set whatever the body says: two moves racing on one request both read it before
  // either commits, so the second finds it changed and gets 409 rather than stacking its move
  // on top (pending → processing, then processing → completed, both "won").
  const expected = change.expectedStatus ?? await currentStatus(ctx.db, change.requestId);
  const updated = await ctx.db.transaction(async (tx) => {
    const current = await lockRequest(tx, change.requestId);
    if (!current || (change.as === 'owner' && current.profile_id !== change.actor.profile_id)) throw new AppError('not_found');
    if (expected !== current.status) throw statusFailed('validation.statusConflict');
    const refusal = transitionError(current.status, change.to, change.as);
    if (refusal) throw statusFailed(refusal);
    if (change.as === 'staff') await checkFourEyes(tx, current, change);
    // A compliance hold stops every staff move, the PayPal capture at processing included.
    if (change.as === 'staff') await assertNotHeld(tx, current.id);
    if (change.as === 'owner' && current.payout_status === 'sent') throw statusFailed('validation.statusCancelOnlyPending');
    // Money first (docs/rules/money-states.md): complete only once paid in and out; never reject what was paid out.
    const moneyRefusal = change.to === 'completed' ? moneyActionError(current, 'complete')
      : change.to === 'rejected' ? rejectError(current) : null;
    if (moneyRefusal) throw new AppError(moneyRefusal);
    const closing = change.to === 'rejected' || change.to === 'cancelled';
    // Closed while the operator's rail may still pay it, the sender would be refunded and the
    // recipient paid (docs/rules/payout-rails.md#needs-attention).
    if (closing && await railPayoutBlock(tx, current.id) === 'payout_attempt_open') throw new AppError('payout_attempt_open');
    // A PayPal payment is captured as staff take the transfer into processing: refused, the move fails.
    const paid = change.to === 'processing' ? await captureForProcessing(ctx, tx, current, change.actor) : current;
    const written = await writeStatus(tx, {
      from: paid, to: change.to, actor: change.actor, note: change.note ?? null,
      paymentStatus: closing ? paymentAfterClosing(paid.payment_status) : paid.payment_status,
    });
    // Received money that will not be paid out is owed back; a completed transfer earned its fee.
    const entry = closing && written.payment_status === 'refund_due' ? 'refund_due' as const
      : change.to === 'completed' ? 'fee' as const : null;
    if (entry) await postTransferEntry(tx, entry, ledgerView(written), { actorId: change.actor.profile_id, reference: null });
    // A PayPal authorization left on a closed transfer is released by a job queued with the close.
    if (closing) await queueVoid(ctx, tx, written);
    // The sender's e-mail is queued with the change: both or neither.
    await notifyStatusChange(ctx, tx, written, change.note ?? null);
    if (change.as === 'staff') {
      await recordAudit(tx, { ...change.actor, ip: change.actor.ip ?? null }, {
        action: 'transfer_request.status', target: 'transfer', id: written.id, before: auditSnapshot(current), after: { ...auditSnapshot(written), note: change.note ?? null },
      });
    }
    return written;
  });
  return updated;
}

/** The sender cancels their own request (only while pending and not paid out). */
export async function cancelOwn(ctx: AppContext, caller: Caller, id: string): Promise<TransferRequestJson> {
  await visibleRequest(ctx.db, caller, id, false);
  return transferRequestToJson(await changeStatus(ctx, { requestId: id, to: 'cancelled', actor: caller, as: 'owner' }), ctx.config.publicUrl);
}

/** Staff move a request; payment and payout are recorded by their own actions (money.ts). */
export async function changeStatusAsStaff(ctx: AppContext, actor: StaffActor, id: string, body: StatusUpdate): Promise<TransferRequestJson> {
  const row = await changeStatus(ctx, {
    requestId: id, to: body.status, actor, as: 'staff', note: body.note || null, expectedStatus: body.expected_status,
  });
  return transferRequestToJson(row, ctx.config.publicUrl);
}
