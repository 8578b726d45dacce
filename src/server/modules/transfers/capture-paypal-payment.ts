import { unapprovedError } from '@core/approval.js';
import { paymentMismatch } from '@core/money-states.js';
import { parseAmount, toDecimal, type Currency } from '@core/money.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { PayPalError, captureAuthorization } from './paypal-client.js';
import { moneyStep, usesPayPal, type StaffActor } from './money-step.js';
import type { TransferRequestRow } from './repo.js';

// Staff capture a PayPal transfer's authorization as they take it into processing
// (docs/rules/money-states.md#paypal).

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
  if (unapproved) throw new AppError(unapproved);
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
