import { unapprovedError } from '@core/approval.js';
import { moneyActionError } from '@core/money-states.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { activeHolds } from '../holds/service.js';
import { postTransferEntry } from '../ledger/service.js';
import { ledgerView, moneyStep } from './money-step.js';
import { notifyReturn, notifyReversal, notifyStatusChange, notifyUnclaimed } from './notifications.js';
import { lockRequest, writeMoney, writeStatus, type TransferRequestRow } from './repo.js';

// The transfer's side of a payout through an operator's rail (docs/rules/payout-rails.md): it
// starts only once every control has cleared, and a succeeded attempt posts what a manual
// payout posts.

/** Why a transfer's payout cannot start by itself now; null when every control has cleared. */
export type PayoutWait = 'closed' | 'not_paid' | 'already_sent' | 'held' | 'needs_approval';

/**
 * Locks the transfer and says whether its payout may start now: open, paid, not yet paid out,
 * no compliance hold, and approved by a second staff member when its amount needs it.
 */
export async function lockForRailPayout(tx: Tx, transferId: string): Promise<{ row: TransferRequestRow; wait: PayoutWait | null } | null> {
  const row = await lockRequest(tx, transferId);
  if (!row) return null;
  const refusal = moneyActionError(row, 'payout');
  const wait: PayoutWait | null = refusal === 'transfer_closed' ? 'closed'
    : refusal === 'payout_already_sent' ? 'already_sent'
      : refusal ? 'not_paid'
        : (await activeHolds(tx, [row.id])).get(row.id)?.length ? 'held'
          : unapprovedError(row, await approvalRequiredFor(tx, row), 'payout') ? 'needs_approval' : null;
  return { row, wait };
}

/**
 * The transfer whose payout leaves through a rail is processing (a system move, in its timeline
 * and the sender's e-mail); `note` names where it went (a bank file's name).
 */
export async function markRailProcessing(ctx: Pick<AppContext, 'config'>, tx: Tx, row: TransferRequestRow, note: string | null = null): Promise<void> {
  if (row.status === 'pending') await moveBySystem(ctx, tx, row, 'processing', note);
}

/**
 * A succeeded attempt: the payout is recorded as staff record one (state, timeline, books,
 * e-mail), by no one, and the transfer, paid in and out, is completed (its fee earned).
 */
export async function recordRailPayout(ctx: Pick<AppContext, 'config' | 'db'>, tx: Tx, transferId: string, reference: string): Promise<TransferRequestRow> {
  const paidOut = await moneyStep(ctx, null, transferId, () => ({
    set: { payout_status: 'sent', payout_reference: reference, payout_sent_at: new Date() },
    events: ['payout_sent'],
    entries: ['payout'],
    reference,
    mail: 'payout',
  }), tx);
  return moneyActionError(paidOut, 'complete') || paidOut.status === 'completed' ? paidOut : moveBySystem(ctx, tx, paidOut, 'completed');
}

async function moveBySystem(ctx: Pick<AppContext, 'config'>, tx: Tx, row: TransferRequestRow, to: 'processing' | 'completed', note: string | null = null): Promise<TransferRequestRow> {
  const written = await writeStatus(tx, { from: row, to, actor: null, note, paymentStatus: row.payment_status });
  if (to === 'completed') await postTransferEntry(tx, 'fee', ledgerView(written), { actorId: null, reference: null });
  await notifyStatusChange(ctx, tx, written, null);
  return written;
}

/**
 * A paid payout sent back, by the bank (docs/rules/bank-rail.md#returns) or by the mobile-money
 * operator (`operator`, its name: docs/rules/payout-rails.md#reversals): the payout is no longer
 * sent, its entries (and the fee earned on completion) are reversed, a completed transfer is
 * open again (processing) for staff to pay again or refund, and the sender is told why and what
 * happens next. `reason` is the bank's return code (AC04…) or the operator's. Null when the
 * payout was not sent.
 */
export async function recordRailReturn(
  ctx: Pick<AppContext, 'config'>, tx: Tx, transferId: string, reference: string, reason: string | null, operator: string | null = null,
): Promise<TransferRequestRow | null> {
  const row = await lockRequest(tx, transferId);
  if (!row || row.payout_status !== 'sent') return null;
  const feeEarned = row.status === 'completed';
  const returned = await writeMoney(tx, {
    from: row, set: { payout_status: 'not_sent', payout_reference: null, payout_sent_by: null, payout_sent_at: null },
    events: ['payout_returned'], actor: null, note: reason,
  });
  await postTransferEntry(tx, 'payout_reversal', ledgerView(returned), { actorId: null, reference });
  if (feeEarned) await postTransferEntry(tx, 'fee_reversal', ledgerView(returned), { actorId: null, reference });
  const reopened = returned.status === 'completed'
    ? await writeStatus(tx, { from: returned, to: 'processing', actor: null, note: null, paymentStatus: returned.payment_status })
    : returned;
  await (operator ? notifyReversal(ctx, tx, reopened, operator) : notifyReturn(ctx, tx, reopened, reason));
  return reopened;
}

/**
 * A PayPal payout its recipient has not claimed (docs/rules/payout-rails.md#paypal-payouts): the
 * sender is told the recipient must claim it, or that PayPal sent it back unclaimed and what
 * happens next.
 */
export async function tellSenderUnclaimed(ctx: Pick<AppContext, 'config'>, tx: Tx, transferId: string, event: 'unclaimed' | 'unclaimed_returned'): Promise<void> {
  const row = await lockRequest(tx, transferId);
  if (row) await notifyUnclaimed(ctx, tx, row, event);
}
