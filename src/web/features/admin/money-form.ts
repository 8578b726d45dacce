import { z } from 'zod';
import { moneyActionError, rejectError, type MoneyState } from '@core/money-states';
import { isCurrency, parseAmount, toDecimal } from '@core/money';
import { PaymentRecordSchema, PayoutRecordSchema, RefundRecordSchema } from '@core/schemas';
import { canComplete, canProcess, canReject, isFinalStatus } from '@core/status';
import { parseInto, reportIssues } from '@web/components/ui/form';

// The details dialog's money forms (D11, docs/rules/money-states.md): each checked with the API's
// schema, so what the dialog refuses is what the server would refuse.

/** The longest statement, payout or refund reference the API takes. */
export const MAX_MONEY_REFERENCE = PayoutRecordSchema.shape.reference.maxLength ?? undefined;

/** "Record payment": the amount as the statement shows it (whole units for XAF and RWF) and its reference. */
export function paymentFormSchema(currency: string) {
  return z.object({ amount: z.string(), reference: z.string() }).transform((v, ctx) => {
    const result = PaymentRecordSchema.safeParse({ amount: v.amount.trim(), reference: v.reference });
    if (!result.success) {
      reportIssues(result.error.issues, ctx);
      return z.NEVER;
    }
    const body = result.data;
    const minor = isCurrency(currency) ? parseAmount(body.amount, currency) : null;
    if (minor === null || minor <= 0) {
      ctx.addIssue({ code: 'custom', message: 'validation.paymentAmountInvalid', path: ['amount'] });
      return z.NEVER;
    }
    return body;
  });
}

/** The total due as the amount field shows it: "62520" for XAF (stored "62520.00"), "104.50" for USD. */
export function dueAmount(total: string, currency: string): string {
  const minor = isCurrency(currency) ? parseAmount(total, currency) : null;
  return minor === null || !isCurrency(currency) ? total : toDecimal(minor, currency);
}

/** "Record payout": the operator's or bank's reference. */
export const payoutFormSchema = z.object({ reference: z.string() }).transform((v, ctx) => parseInto(PayoutRecordSchema, v, ctx));

/** "Record refund": its reference; a transfer paid through PayPal is refunded by PayPal, which gives it. */
export function refundFormSchema(throughPayPal: boolean) {
  return z.object({ reference: z.string() }).transform((v, ctx) =>
    parseInto(RefundRecordSchema, throughPayPal && !v.reference.trim() ? {} : v, ctx));
}

/**
 * What staff may do with a transfer now, with why Complete and Reject are refused (message keys).
 * Completing also waits for a second staff member's approval when the amount needs one (D12).
 */
export function staffActions(state: MoneyState & { paypal_checkout?: boolean; needs_approval?: boolean }) {
  const completeBlocked = canComplete(state.status)
    ? moneyActionError(state, 'complete') ?? (state.needs_approval ? 'admin.approval.completeNeedsApproval' : null)
    : null;
  const rejectBlocked = canReject(state.status) ? rejectError(state) : null;
  return {
    // PayPal records its own payment when it captures it.
    payment: !state.paypal_checkout && moneyActionError(state, 'payment') === null,
    payout: moneyActionError(state, 'payout') === null,
    refund: moneyActionError(state, 'refund') === null,
    process: canProcess(state.status),
    approve: Boolean(state.needs_approval) && !isFinalStatus(state.status),
    complete: canComplete(state.status) && completeBlocked === null,
    completeBlocked,
    reject: canReject(state.status) && rejectBlocked === null,
    rejectBlocked,
  };
}
