// How the screens show a transfer's money (docs/rules/money-states.md): the colour of a
// payment or payout state, and which state a timeline step's money event names.
import type { HistoryEvent, PaymentStatus, PayoutStatus } from '@core/status';

export type MoneyBadgeVariant = 'yellow' | 'green' | 'red' | 'blue' | 'gray';

/** Yellow while the money is awaited, green once in, red while it is owed back, grey once settled. */
export function paymentVariant(state: PaymentStatus): MoneyBadgeVariant {
  switch (state) {
    case 'awaiting': return 'yellow';
    case 'authorized': return 'blue';
    case 'received': return 'green';
    case 'refund_due': return 'red';
    case 'voided':
    case 'refunded': return 'gray';
  }
}

export function payoutVariant(state: PayoutStatus): MoneyBadgeVariant {
  return state === 'sent' ? 'green' : 'gray';
}

/** The payment or payout state a timeline step's event brought, whose label names the step. */
function eventState(event: HistoryEvent): { kind: 'payment'; state: PaymentStatus } | { kind: 'payout'; state: PayoutStatus } {
  switch (event) {
    case 'payment_authorized': return { kind: 'payment', state: 'authorized' };
    case 'payment_received': return { kind: 'payment', state: 'received' };
    case 'payment_voided': return { kind: 'payment', state: 'voided' };
    case 'refund_due': return { kind: 'payment', state: 'refund_due' };
    case 'refunded': return { kind: 'payment', state: 'refunded' };
    case 'payout_sent': return { kind: 'payout', state: 'sent' };
    case 'payout_returned': return { kind: 'payout', state: 'not_sent' };
  }
}

/** The i18n key of a step's event: `payment.received`, `payout.sent`, … */
export function eventKey(event: HistoryEvent): string {
  const { kind, state } = eventState(event);
  return `${kind}.${state}`;
}

/** A money step's colour: that of the state it brought. */
export function eventVariant(event: HistoryEvent): MoneyBadgeVariant {
  const step = eventState(event);
  return step.kind === 'payment' ? paymentVariant(step.state) : payoutVariant(step.state);
}

/** Money has come in (and may have gone back): the receipt says "Total paid", not "Total to pay". */
export function paymentWasReceived(state: PaymentStatus): boolean {
  return state === 'received' || state === 'refund_due' || state === 'refunded';
}
