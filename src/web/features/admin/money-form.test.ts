import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MoneyState } from '@core/money-states';
import { approveBlocked, dueAmount, MAX_MONEY_REFERENCE, paymentFormSchema, payoutFormSchema, refundFormSchema, staffActions } from './money-form';

/** What a form would send, or the message under each field that is refused. */
function check(schema: z.ZodType, values: unknown) {
  const result = schema.safeParse(values);
  if (result.success) return { sent: result.data };
  return { errors: Object.fromEntries(result.error.issues.map((issue) => [String(issue.path[0]), issue.message])) };
}

describe('the money forms of the details dialog', () => {
  it('records a payment with the amount and the statement reference, trimmed', () => {
    expect(check(paymentFormSchema('USD', 'en'), { amount: ' 104.50 ', reference: ' STMT-42 ' })).toEqual({ sent: { amount: '104.5', reference: 'STMT-42' } });
    expect(check(paymentFormSchema('XAF', 'en'), { amount: '60000', reference: 'AIRTEL-1' })).toEqual({ sent: { amount: '60000', reference: 'AIRTEL-1' } });
  });

  it('reads the amount as the staff member\'s language writes it, with the one amount reader', () => {
    expect(check(paymentFormSchema('EUR', 'fr'), { amount: '1 234,56 €', reference: 'R' })).toEqual({ sent: { amount: '1234.56', reference: 'R' } });
    expect(check(paymentFormSchema('XAF', 'fr'), { amount: '60 000', reference: 'R' })).toEqual({ sent: { amount: '60000', reference: 'R' } });
    expect(check(paymentFormSchema('USD', 'en'), { amount: '$1,234.50', reference: 'R' })).toEqual({ sent: { amount: '1234.5', reference: 'R' } });
    // Never a guess: a pasted figure it cannot read is refused, not read as something else.
    expect(check(paymentFormSchema('XAF', 'en'), { amount: '100.01', reference: 'R' })).toEqual({ errors: { amount: 'validation.paymentAmountInvalid' } });
    expect(check(paymentFormSchema('EUR', 'en'), { amount: '250 USD', reference: 'R' })).toEqual({ errors: { amount: 'validation.paymentAmountInvalid' } });
  });

  it('refuses an amount that is not money in the currency, and a missing reference, on their fields', () => {
    expect(check(paymentFormSchema('USD', 'en'), { amount: 'abc', reference: '' })).toEqual({
      errors: { amount: 'validation.paymentAmountInvalid', reference: 'validation.paymentReferenceRequired' },
    });
    expect(check(paymentFormSchema('XAF', 'en'), { amount: '60000.50', reference: 'R' })).toEqual({ errors: { amount: 'validation.paymentAmountInvalid' } });
    expect(check(paymentFormSchema('USD', 'en'), { amount: '0', reference: 'R' })).toEqual({ errors: { amount: 'validation.paymentAmountInvalid' } });
  });

  it('fills in the total due as the currency writes it', () => {
    expect(dueAmount('62520.00', 'XAF', 'en')).toBe('62,520');
    expect(dueAmount('62520.00', 'XAF', 'fr')).toBe('62\u202f520');
    expect(dueAmount('104.50', 'USD', 'en')).toBe('104.50');
    expect(dueAmount('104.5', 'EUR', 'fr')).toBe('104,50');
  });

  it('asks the payout reference, held to the API limit', () => {
    expect(MAX_MONEY_REFERENCE).toBe(120);
    expect(check(payoutFormSchema, { reference: ' AIRTEL-778899 ' })).toEqual({ sent: { reference: 'AIRTEL-778899' } });
    expect(check(payoutFormSchema, { reference: '  ' })).toEqual({ errors: { reference: 'validation.payoutReferenceRequired' } });
    expect(check(payoutFormSchema, { reference: 'R'.repeat(121) })).toEqual({ errors: { reference: 'validation.referenceTooLong' } });
  });

  it('asks the refund reference, except for a transfer PayPal refunds', () => {
    expect(check(refundFormSchema(false), { reference: '' })).toEqual({ errors: { reference: 'validation.refundReferenceRequired' } });
    expect(check(refundFormSchema(false), { reference: 'BANK-9' })).toEqual({ sent: { reference: 'BANK-9' } });
    expect(check(refundFormSchema(true), { reference: ' ' })).toEqual({ sent: {} });
  });
});

describe('which staff actions the dialog offers', () => {
  const state = (s: Partial<MoneyState & { paypal_checkout: boolean; needs_approval: boolean; on_hold: boolean }>) => ({ status: 'pending', payment_status: 'awaiting', payout_status: 'not_sent', ...s } as const);

  it('offers the payment first, then the payout, and Complete only with both', () => {
    expect(staffActions(state({}))).toMatchObject({ payment: true, payout: false, refund: false, complete: false, completeBlocked: 'transfer.money.completeNeedsBoth', reject: true });
    expect(staffActions(state({ status: 'processing', payment_status: 'received' }))).toMatchObject({
      payment: false, payout: true, complete: false, completeBlocked: 'transfer.money.completeNeedsPayout',
    });
    expect(staffActions(state({ status: 'processing', payment_status: 'received', payout_status: 'sent' }))).toMatchObject({
      payment: false, payout: false, complete: true, completeBlocked: null, reject: false, rejectBlocked: 'transfer.money.rejectAfterPayout',
    });
  });

  it('leaves a PayPal payment to PayPal, and offers the refund only when one is owed', () => {
    expect(staffActions(state({ paypal_checkout: true })).payment).toBe(false);
    expect(staffActions(state({ status: 'rejected', payment_status: 'refund_due' }))).toMatchObject({ refund: true, payment: false, complete: false, completeBlocked: null, reject: false });
    expect(staffActions(state({ status: 'rejected', payment_status: 'refunded' })).refund).toBe(false);
  });

  it('waits for a second staff member\'s approval when the amount needs one, after the money', () => {
    const paidOut = { status: 'processing', payment_status: 'received', payout_status: 'sent' } as const;
    expect(staffActions(state({ ...paidOut, needs_approval: true }))).toMatchObject({
      approve: true, complete: false, completeBlocked: 'admin.approval.completeNeedsApproval',
    });
    expect(staffActions(state({ needs_approval: true }))).toMatchObject({ approve: true, completeBlocked: 'transfer.money.completeNeedsBoth' });
    expect(staffActions(state({ ...paidOut, needs_approval: false }))).toMatchObject({ approve: false, complete: true });
    expect(staffActions(state({ status: 'rejected', needs_approval: true })).approve).toBe(false);
  });

  it('holds the payout, and the processing that captures a PayPal payment, until the approval', () => {
    const paidIn = { status: 'processing', payment_status: 'received' } as const;
    expect(staffActions(state({ ...paidIn, needs_approval: true }))).toMatchObject({ payout: false, payoutBlocked: 'admin.approval.payoutNeedsApproval' });
    expect(staffActions(state({ ...paidIn, needs_approval: false }))).toMatchObject({ payout: true, payoutBlocked: null });
    // Unpaid, the payout waits for the payment first: no approval reason then.
    expect(staffActions(state({ needs_approval: true }))).toMatchObject({ payout: false, payoutBlocked: null });
    expect(staffActions(state({ payment_status: 'authorized', needs_approval: true }))).toMatchObject({
      process: false, processBlocked: 'admin.approval.captureNeedsApproval',
    });
    expect(staffActions(state({ payment_status: 'authorized', needs_approval: false }))).toMatchObject({ process: true, processBlocked: null });
    // Paid by hand, processing moves no money: it may come before the approval.
    expect(staffActions(state({ needs_approval: true }))).toMatchObject({ process: true, processBlocked: null });
  });

  it('greys every move of a held transfer with the hold as its reason, and still takes the payment', () => {
    const held = 'errors.screening.complianceHold';
    expect(staffActions(state({ on_hold: true }))).toMatchObject({
      held, payment: true, process: false, processBlocked: held, reject: false, rejectBlocked: held, complete: false, completeBlocked: held,
    });
    expect(staffActions(state({ status: 'processing', payment_status: 'received', on_hold: true }))).toMatchObject({ payout: false, payoutBlocked: held, refund: false });
    expect(staffActions(state({ on_hold: false })).held).toBeNull();
  });
});

describe('who may approve, as the approve button says', () => {
  const row = { profile_id: 'sender', status: 'processing', approval_required: true, processed_by: 'mia', payout_sent_by: null, approved_by: null } as const;

  it('names why the sender, the one who processed it or the one who paid it out may not', () => {
    expect(approveBlocked({ ...row, profile_id: 'max' }, 'max')).toBe('admin.approval.blockedOwn');
    expect(approveBlocked(row, 'mia')).toBe('admin.approval.blockedProcessed');
    expect(approveBlocked({ ...row, processed_by: null, payout_sent_by: 'max' }, 'max')).toBe('admin.approval.blockedPaidOut');
    expect(approveBlocked({ ...row, approved_by: 'ada' }, 'max')).toBe('transfer.approval.alreadyApproved');
  });

  it('lets any other staff member approve', () => {
    expect(approveBlocked(row, 'max')).toBeNull();
  });
});
