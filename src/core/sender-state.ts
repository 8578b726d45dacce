// One sentence of state for the sender (docs/rules/money-states.md#the-senders-sentence): where their
// transfer and their money stand, derived from the transfer's status, payment and payout (and a
// compliance hold), so the sender never reads three badges that seem to disagree. Staff keep the
// three badges. The sentence's words are the web's (transfer.json, senderState.*).
import { isFinalStatus, type PaymentStatus, type PayoutStatus, type TransferStatus } from './status.js';

export const SENDER_STATES = [
  'awaitingPayment', 'proofReceived', 'checkingPayment', 'checkingTransfer', 'preparing', 'onItsWay', 'delivered',
  'cancelledNothingCharged', 'cancelledReleasing', 'cancelledRefundDue', 'cancelledRefunded',
  'rejectedNothingCharged', 'rejectedReleasing', 'rejectedRefundDue', 'rejectedRefunded',
  'cancelledHeld', 'rejectedHeld',
  'released', 'refundDue', 'refunded',
] as const;
export type SenderStateKey = (typeof SENDER_STATES)[number];

/**
 * What the sender is to do while a compliance check holds the transfer (transfer.json,
 * senderAdvice.*), shown under the sentence wherever it is: not to pay yet when paying would
 * otherwise be their next step, nothing when it is not, and, once closed with the money frozen,
 * whom to ask. Never why it is held (docs/rules/screening.md#what-the-sender-sees).
 */
export const SENDER_ADVICE = ['heldDontPay', 'heldNothingToDo', 'frozen'] as const;
export type SenderAdvice = (typeof SENDER_ADVICE)[number];

/** How the sentence is shown: waiting on the sender, in our hands, done, or stopped. */
export type SenderTone = 'action' | 'progress' | 'done' | 'stopped';

export interface SenderStateInput {
  status: TransferStatus;
  payment_status: PaymentStatus;
  payout_status: PayoutStatus;
  /** The sender uploaded a proof of payment (a payment by hand). */
  has_proof?: boolean;
  /** A compliance hold (the transfer is being checked, or its money frozen once closed); absent means none. */
  on_hold?: boolean | undefined;
}

export interface SenderState {
  key: SenderStateKey;
  tone: SenderTone;
  /** The sentence names the refunded amount (what was paid). */
  names_refund: boolean;
  /** Held: what the sender is to do, said under the sentence; null when not held. */
  advice: SenderAdvice | null;
}

const state = (key: SenderStateKey, tone: SenderTone, names_refund = false, advice: SenderAdvice | null = null): SenderState =>
  ({ key, tone, names_refund, advice });

/** A closed (rejected or cancelled) transfer: what became of the money, never "awaiting payment". */
function closed(kind: 'cancelled' | 'rejected', payment: PaymentStatus, held: boolean): SenderState {
  // Paid, then closed while held (a confirmed match closed out): the money stays frozen, no refund is promised.
  if (held && (payment === 'received' || payment === 'refund_due')) return state(`${kind}Held`, 'stopped', false, 'frozen');
  switch (payment) {
    case 'awaiting':
    case 'voided': return state(`${kind}NothingCharged`, 'stopped');
    case 'authorized': return state(`${kind}Releasing`, 'stopped');
    // Received money on a closed transfer is owed back (paymentAfterClosing): the same sentence.
    case 'received':
    case 'refund_due': return state(`${kind}RefundDue`, 'stopped', true);
    case 'refunded': return state(`${kind}Refunded`, 'stopped', true);
  }
}

/**
 * The sender's sentence for any status × payment × payout (and proof, hold). Completed is
 * delivered; a closed transfer says what became of the money; an open one says whose move it is:
 * the sender's payment (awaited, or a proof received), our check (payment, or a hold), our
 * preparing the payout, or the money on its way.
 */
export function senderState(t: SenderStateInput): SenderState {
  if (t.status === 'completed') return state('delivered', 'done');
  if (t.status === 'cancelled' || t.status === 'rejected') return closed(t.status, t.payment_status, t.on_hold === true);
  // Open (pending or processing) from here.
  if (t.payout_status === 'sent') return state('onItsWay', 'progress');
  // Held: one sentence, and not to pay yet when paying would be the next step.
  if (t.on_hold) return state('checkingTransfer', 'progress', false, t.payment_status === 'awaiting' && !t.has_proof ? 'heldDontPay' : 'heldNothingToDo');
  switch (t.payment_status) {
    case 'awaiting': return t.has_proof ? state('proofReceived', 'progress') : state('awaitingPayment', 'action');
    case 'authorized': return state('checkingPayment', 'progress');
    case 'received': return t.status === 'processing' ? state('onItsWay', 'progress') : state('preparing', 'progress');
    // Money released or going back while the transfer is still open: say so plainly, never "awaiting payment".
    case 'voided': return state('released', 'stopped');
    case 'refund_due': return state('refundDue', 'stopped', true);
    case 'refunded': return state('refunded', 'stopped', true);
  }
}

/** The sender still has something to do (pay): the dashboard offers "Pay now". */
export function senderMustPay(t: SenderStateInput): boolean {
  return !isFinalStatus(t.status) && senderState(t).key === 'awaitingPayment';
}

/**
 * The tracking page's state for the recipient: a held transfer reads as the sender's screens say it
 * (the same sentence and "nothing to do"); otherwise null, and the page says its status.
 */
export function recipientHeldState(t: { status: TransferStatus; on_hold: boolean }): SenderState | null {
  return t.on_hold && !isFinalStatus(t.status) ? state('checkingTransfer', 'progress', false, 'heldNothingToDo') : null;
}
