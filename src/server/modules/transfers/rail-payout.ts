import { unapprovedError } from '@core/approval.js';
import { AppError } from '@core/errors.js';
import { moneyActionError } from '@core/money-states.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { approvalRequiredFor, approvalsRequiredFor } from '../approvals/service.js';
import { activeHolds } from '../holds/service.js';
import { postTransferEntries, postTransferEntry } from '../ledger/service.js';
import { ledgerView } from './money-step.js';
import { notifyPayoutSent, notifyPayoutsSent, notifyReturn, notifyReversal, notifyStatusChange, notifyStatusChanges, notifyUnclaimed, type DeferredSteps } from './notifications.js';
import { findRequest, findRequests, lockRailPayoutRows, lockRequest, lockRequests, writeMoney, writeRailPayoutSent, writeRailPayoutsSent, writeStatus, writeSystemStatuses, type TransferRequestRow } from './repo.js';

// The transfer's side of a payout through an operator's rail (docs/rules/payout-rails.md): it
// starts only once every control has cleared, and a succeeded attempt posts what a manual
// payout posts.

/** Why a transfer's payout cannot start by itself now; null when every control has cleared. */
export type PayoutWait = 'closed' | 'not_paid' | 'already_sent' | 'held' | 'payment_flagged' | 'needs_approval';

/**
 * Locks the transfer and says whether its payout may start now: open, paid the amount due (a
 * payment recorded with another amount is flagged, for staff), not yet paid out, no compliance
 * hold, and approved by a second staff member when its amount needs it.
 */
export async function lockForRailPayout(tx: Tx, transferId: string): Promise<{ row: TransferRequestRow; wait: PayoutWait | null } | null> {
  const row = await lockRequest(tx, transferId);
  if (!row) return null;
  if (moneyActionError(row, 'payout')) return { row, wait: payoutWait(row, false, false) };
  const held = !!(await activeHolds(tx, [row.id])).get(row.id)?.length;
  return { row, wait: payoutWait(row, held, !held && await approvalRequiredFor(tx, row)) };
}

/**
 * `lockForRailPayout`'s answer read without a lock or a transaction: whether the payout is worth
 * preparing now (its name asked of the operator). Whatever it says is checked again, locked, before
 * anything is written.
 */
export async function railPayoutWait(db: Db, transferId: string): Promise<{ row: TransferRequestRow; wait: PayoutWait | null } | null> {
  const row = await findRequest(db, transferId);
  if (!row) return null;
  if (moneyActionError(row, 'payout')) return { row, wait: payoutWait(row, false, false) };
  const held = !!(await activeHolds(db, [row.id])).get(row.id)?.length;
  return { row, wait: payoutWait(row, held, !held && await approvalRequiredFor(db, row)) };
}

function payoutWait(row: TransferRequestRow, held: boolean, approvalRequired: boolean): PayoutWait | null {
  const refusal = moneyActionError(row, 'payout');
  return refusal === 'transfer_closed' ? 'closed'
    : refusal === 'payout_already_sent' ? 'already_sent'
      : refusal ? 'not_paid'
        : held ? 'held'
          : row.payment_flagged ? 'payment_flagged'
            : unapprovedError(row, approvalRequired, 'payout') ? 'needs_approval' : null;
}

/** `railPayoutWait` for many transfers (a worker's batch of payouts), nothing locked, each check one query for all. */
export async function railPayoutWaits(db: Db, transferIds: readonly string[]): Promise<{ row: TransferRequestRow; wait: PayoutWait | null }[]> {
  const rows = await findRequests(db, transferIds);
  const held = await activeHolds(db, rows.map((r) => r.id));
  const required = await approvalsRequiredFor(db, rows);
  return rows.map((row, i) => ({ row, wait: payoutWait(row, !!held.get(row.id)?.length, required[i]!) }));
}

/** `lockForRailPayout` for many transfers (a bank file's), oldest first, each check one query for all. */
export async function lockManyForRailPayout(tx: Tx, transferIds: readonly string[]): Promise<{ row: TransferRequestRow; wait: PayoutWait | null }[]> {
  const rows = await lockRequests(tx, transferIds);
  const held = await activeHolds(tx, rows.map((r) => r.id));
  const required = await approvalsRequiredFor(tx, rows);
  return rows.map((row, i) => ({ row, wait: payoutWait(row, !!held.get(row.id)?.length, required[i]!) }));
}

/**
 * The transfer whose payout leaves through a rail is processing (a system move, in its timeline
 * and the sender's e-mail); `note` names where it went (a bank file's name).
 */
export async function markRailProcessing(ctx: Pick<AppContext, 'config'>, tx: Tx, row: TransferRequestRow, note: string | null = null): Promise<void> {
  if (row.status === 'pending') await moveBySystem(ctx, tx, row, 'processing', note);
}

/** `markRailProcessing` for many transfers at once (a bank file's): set-wise, their e-mails queued in one statement. */
export async function markManyRailProcessing(ctx: Pick<AppContext, 'config'>, tx: Tx, rows: readonly TransferRequestRow[], note: string | null): Promise<void> {
  const written = await writeSystemStatuses(tx, rows.filter((r) => r.status === 'pending'), 'processing', note);
  await notifyStatusChanges(ctx, tx, written, null);
}

/**
 * A succeeded attempt: the payout is recorded as staff record one (state, timeline, books,
 * e-mail), by no one, and the transfer, paid in and out, is completed (its fee earned). The
 * transfer's writes are set-wise (writeRailPayoutSent) and its two e-mail steps join in one go:
 * every payout through a rail comes here, and the books it posts hold their running balances
 * until the commit.
 */
export async function recordRailPayout(ctx: Pick<AppContext, 'config' | 'db'>, tx: Tx, transferId: string, reference: string): Promise<TransferRequestRow> {
  const current = await lockRequest(tx, transferId);
  if (!current) throw new AppError('not_found');
  const set = { payout_status: 'sent' as const, payout_reference: reference, payout_sent_at: new Date() };
  const completes = current.status !== 'completed' && !moneyActionError({ ...current, ...set }, 'complete');
  const written = await writeRailPayoutSent(tx, current, set, completes);
  await notifyPayoutSent(ctx, tx, written, current.status, completes);
  // The books last: their running balances stay locked from here to the commit.
  await postTransferEntry(tx, 'payout', ledgerView(written), { actorId: null, reference });
  if (completes) await postTransferEntry(tx, 'fee', ledgerView(written), { actorId: null, reference: null });
  return written;
}

/**
 * `recordRailPayout` for many succeeded attempts at once (a bank statement's settled payouts),
 * each transfer at most once: every write set-wise, the e-mails in one statement (or kept in
 * `keep`, see notifications.ts), the books last.
 */
export async function recordRailPayouts(ctx: Pick<AppContext, 'config'>, tx: Tx, payouts: readonly { transferId: string; reference: string }[], keep?: DeferredSteps): Promise<void> {
  if (payouts.length === 0) return;
  const referenceOf = new Map(payouts.map((p) => [p.transferId, p.reference]));
  const rows = await lockRailPayoutRows(tx, [...referenceOf.keys()]);
  if (rows.length !== referenceOf.size) throw new AppError('not_found');
  const at = new Date();
  const sent = rows.map((from) => {
    const reference = referenceOf.get(from.id)!;
    const set = { payout_status: 'sent' as const, payout_reference: reference, payout_sent_at: at };
    return { from, reference, complete: from.status !== 'completed' && !moneyActionError({ ...from, ...set }, 'complete') };
  });
  const written = new Map((await writeRailPayoutsSent(tx, sent, at)).map((r) => [r.id, r]));
  await notifyPayoutsSent(ctx, tx, sent.map(({ from, complete }) => ({ request: written.get(from.id)!, statusWhenSent: from.status, completed: complete })), keep);
  await postTransferEntries(tx, sent.flatMap(({ from, reference, complete }) => {
    const view = ledgerView(written.get(from.id)!);
    return [{ kind: 'payout' as const, transfer: view, reference }, ...(complete ? [{ kind: 'fee' as const, transfer: view, reference: null }] : [])];
  }));
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
