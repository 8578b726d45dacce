// What may happen to a transfer's money, by its status, payment and payout states
// (docs/rules/money-states.md). The server refuses with these codes (409); the screens hide the
// buttons the server would refuse.
import type { ErrorCode } from './errors.js';
import { isFinalStatus, type PaymentStatus, type PayoutStatus, type TransferStatus } from './status.js';

export interface MoneyState {
  status: TransferStatus;
  payment_status: PaymentStatus;
  payout_status: PayoutStatus;
}

export type MoneyAction = 'payment' | 'payout' | 'refund' | 'complete';

/** Why staff cannot record this now, as an error code; null when they can. */
export function moneyActionError(state: MoneyState, action: MoneyAction): ErrorCode | null {
  switch (action) {
    case 'payment':
      // Money that arrives for a cancelled or rejected transfer is recorded too: it is owed back.
      if (state.payment_status !== 'awaiting') return 'payment_already_recorded';
      if (state.status === 'completed') return 'transfer_closed';
      return null;
    case 'payout':
      if (isFinalStatus(state.status)) return 'transfer_closed';
      if (state.payout_status === 'sent') return 'payout_already_sent';
      if (state.payment_status !== 'received') return 'payout_needs_payment';
      return null;
    case 'refund':
      if (state.payment_status === 'refunded') return 'refund_already_made';
      if (state.payment_status !== 'refund_due') return 'refund_not_due';
      return null;
    case 'complete':
      if (state.payment_status !== 'received' && state.payout_status !== 'sent') return 'complete_needs_both';
      if (state.payment_status !== 'received') return 'complete_needs_payment';
      if (state.payout_status !== 'sent') return 'complete_needs_payout';
      return null;
  }
}

/** Staff cannot reject a transfer whose money has gone out to the recipient. */
export function rejectError(state: Pick<MoneyState, 'payout_status'>): ErrorCode | null {
  return state.payout_status === 'sent' ? 'reject_after_payout' : null;
}

/**
 * What a cancel or reject leaves the payment as: received money is owed back. A PayPal
 * authorization stays `authorized` while its void is queued (it can no longer be captured: a
 * closed transfer never moves to processing), and becomes `voided` once PayPal confirms.
 */
export function paymentAfterClosing(payment: PaymentStatus): PaymentStatus {
  if (payment === 'received') return 'refund_due';
  return payment;
}

/**
 * The sender still has to pay: the transfer is open and nothing was received or authorized yet.
 * Only then does anything (payment page, API, e-mail) tell them how to pay.
 */
export function awaitsPayment(state: Pick<MoneyState, 'status' | 'payment_status'>): boolean {
  return state.payment_status === 'awaiting' && !isFinalStatus(state.status);
}

/** A hand-recorded amount other than the total due is kept as it is and flagged. */
export function paymentMismatch(receivedMinor: number, dueMinor: number): boolean {
  return receivedMinor !== dueMinor;
}
