import { z } from 'zod';
import { moneyActionError, rejectError, type MoneyState } from '@core/money-states';
import { readAmount } from '@core/amount-input';
import { isCurrency, localizeDecimal, parseAmount, toDecimal } from '@core/money';
import { PaymentRecordSchema, PayoutRecordSchema, RefundRecordSchema } from '@core/schemas';
import { canComplete, canProcess, canReject, isFinalStatus } from '@core/status';
import { parseInto, reportIssues } from '@web/components/ui/form';

// The details dialog's money forms (D11, docs/rules/money-states.md): each checked with the API's
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
