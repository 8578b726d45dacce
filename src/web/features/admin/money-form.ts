import { z } from 'zod';
import type { StaffRequestJson } from '@core/api/transfers';
import { approvalError } from '@core/approval';
import { ERRORS, type ErrorCode } from '@core/errors';
import { moneyActionError, rejectError, type MoneyState } from '@core/money-states';
import { readAmount } from '@core/amount-input';
import { isCurrency, localizeDecimal, parseAmount, toDecimal } from '@core/money';
import { PaymentRecordSchema, PayoutRecordSchema, RefundRecordSchema } from '@core/schemas';
import { canComplete, canProcess, canReject, isFinalStatus } from '@core/status';
import { parseInto, reportIssues } from '@web/components/ui/zod-form';

// The details dialog's money forms (docs/rules/money-states.md): each checked with the API's
// schema, so what the dialog refuses is what the server would refuse.

/** The longest statement, payout or refund reference the API takes. */
export const MAX_MONEY_REFERENCE = PayoutRecordSchema.shape.reference.maxLength ?? undefined;

/**
 * "Record payment": the amount as the statement shows it, typed in the staff member's language and
 * read by the one amount reader (docs/rules/amounts.md), and its reference.
 */
export function paymentFormSchema(currency: string, lng: string) {
  return z.object({ amount: z.string(), reference: z.string() }).transform((v, ctx) => {
    const reading = isCurrency(currency) ? readAmount(v.amount, currency, lng) : null;
    const amount = reading?.minor !== undefined && reading.minor > 0 && isCurrency(currency) ? toDecimal(reading.minor, currency) : null;
    const result = PaymentRecordSchema.safeParse({ amount: amount ?? '0', reference: v.reference });
    const issues = result.success ? [] : result.error.issues.filter((issue) => issue.path[0] !== 'amount');
    if (amount === null) ctx.addIssue({ code: 'custom', message: 'validation.paymentAmountInvalid', path: ['amount'] });
    if (issues.length) reportIssues(issues, ctx);
    if (amount === null || !result.success) return z.NEVER;
    return result.data;
  });
}

/** The total due as the amount field shows it, in the staff member's language: "62 520" (fr, XAF), "104.50" (en, USD). */
export function dueAmount(total: string, currency: string, lng: string): string {
  const minor = isCurrency(currency) ? parseAmount(total, currency) : null;
  return minor === null || !isCurrency(currency) ? total : localizeDecimal(toDecimal(minor, currency), lng);
}

/** "Record payout": the operator's or bank's reference. */
export const payoutFormSchema = z.object({ reference: z.string() }).transform((v, ctx) => parseInto(PayoutRecordSchema, v, ctx));

/** "Record refund": its reference; a transfer paid through PayPal is refunded by PayPal, which gives it. */
export function refundFormSchema(throughPayPal: boolean) {
  return z.object({ reference: z.string() }).transform((v, ctx) =>
    parseInto(RefundRecordSchema, throughPayPal && !v.reference.trim() ? {} : v, ctx));
}

/** Why a held transfer's moves are refused: the server's own 409 compliance_hold. */
const HELD = ERRORS.compliance_hold.key;

/** The message key of the server's refusal, as the dialog says it. */
const messageOf = (code: ErrorCode | null): string | null => (code ? ERRORS[code].key : null);

/**
 * What staff may do with a transfer now, with why Complete, Reject, Process and the payout are
 * refused (message keys). A transfer whose amount needs a second staff member's approval waits
 * for it before its payout, its completion, and (an authorized PayPal payment) the capture that
 * processing makes (docs/rules/back-office.md#four-eyes).
 */
export function staffActions(state: MoneyState & { paypal_checkout?: boolean; needs_approval?: boolean; on_hold?: boolean }) {
  const waits = Boolean(state.needs_approval);
  // A compliance hold stops every move but recording money in (docs/rules/screening.md#holds-and-alerts).
  const held = state.on_hold ? HELD : null;
  const completeBlocked = canComplete(state.status)
    ? held ?? messageOf(moneyActionError(state, 'complete')) ?? (waits ? 'admin.approval.completeNeedsApproval' : null)
    : null;
  const rejectBlocked = canReject(state.status) ? held ?? messageOf(rejectError(state)) : null;
  const payoutOpen = moneyActionError(state, 'payout') === null;
  // Only a PayPal payment is ever authorized: processing it captures the money.
  const processBlocked = !canProcess(state.status) ? null
    : held ?? (waits && state.payment_status === 'authorized' ? 'admin.approval.captureNeedsApproval' : null);
  return {
    // PayPal records its own payment when it captures it.
    payment: !state.paypal_checkout && moneyActionError(state, 'payment') === null,
    payout: payoutOpen && !waits && !held,
    payoutBlocked: payoutOpen ? held ?? (waits ? 'admin.approval.payoutNeedsApproval' : null) : null,
    refund: moneyActionError(state, 'refund') === null && !held,
    process: canProcess(state.status) && processBlocked === null,
    processBlocked,
    approve: waits && !isFinalStatus(state.status),
    /** Why nothing but the payment can be recorded now (one reason for every greyed button), or null. */
    held,
    complete: canComplete(state.status) && completeBlocked === null,
    completeBlocked,
    reject: canReject(state.status) && rejectBlocked === null,
    rejectBlocked,
  };
}

/** What the approve button reads of a transfer: its sender and the staff who processed, paid out and approved it. */
type FourEyesRow = Pick<StaffRequestJson, 'profile_id' | 'status' | 'approval_required' | 'processed_by' | 'payout_sent_by' | 'approved_by'>;

/**
 * Why this staff member may not approve the transfer (a message key naming their part in it), or
 * null: the server's own rule (core approvalError), so the button is disabled exactly when the
 * server would refuse.
 */
export function approveBlocked(row: FourEyesRow, staffId: string): string | null {
  const refusal = approvalError(row, staffId, row.approval_required);
  if (!refusal) return null;
  if (refusal === 'own_transfer') return 'admin.approval.blockedOwn';
  if (refusal === 'approval_same_staff') {
    return row.processed_by === staffId ? 'admin.approval.blockedProcessed' : 'admin.approval.blockedPaidOut';
  }
  return ERRORS[refusal].key;
}
