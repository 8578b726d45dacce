import type { AttemptState } from './rails.js';

// A sender's payment approved on their phone (docs/rules/payout-rails.md#collections): what the
// sender reads of the collection under way, and the operator's reason in words they understand.

/**
 * Where the sender's approval stands: asked on their phone (while the operator has not said),
 * received, or failed / expired with a reason; then they may try again or pay by hand.
 */
export const COLLECTION_STATES = ['approve_on_phone', 'received', 'failed', 'expired'] as const;
export type CollectionState = (typeof COLLECTION_STATES)[number];

/** Why a collection failed, as the sender is told (each has its sentence in both languages). */
export const COLLECTION_REASONS = ['refused', 'expired', 'insufficient_funds', 'incorrect_pin', 'limit_reached', 'payer_not_found', 'not_allowed', 'failed'] as const;
export type CollectionReason = (typeof COLLECTION_REASONS)[number];

/** The operators' own reasons (Airtel's as the client names its DP codes, MTN's reason codes), in the sender's terms. */
const REASONS: Record<string, CollectionReason> = {
  refused: 'refused', do_not_honor: 'refused', APPROVAL_REJECTED: 'refused', TRANSACTION_CANCELED: 'refused', PAYMENT_NOT_APPROVED: 'refused',
  expired: 'expired', pin_not_entered: 'expired', EXPIRED: 'expired', COULD_NOT_PERFORM_TRANSACTION: 'expired',
  insufficient_balance: 'insufficient_funds', NOT_ENOUGH_FUNDS: 'insufficient_funds',
  incorrect_pin: 'incorrect_pin',
  limit_reached: 'limit_reached', PAYER_LIMIT_REACHED: 'limit_reached',
  invalid_number: 'payer_not_found', PAYER_NOT_FOUND: 'payer_not_found',
  payer_not_permitted: 'not_allowed', NOT_ALLOWED: 'not_allowed',
};

/** The sender's reason for an operator's; anything else is a plain failure. */
export function collectionReason(operatorReason: string | null): CollectionReason {
  return (operatorReason && REASONS[operatorReason]) || 'failed';
}

/** What the sender reads of an attempt: open (even while its answer is unknown) is still theirs to approve. */
export function collectionState(state: AttemptState, reason: CollectionReason | null): CollectionState {
  if (state === 'succeeded' || state === 'reversed') return 'received';
  if (state === 'failed') return reason === 'expired' ? 'expired' : 'failed';
  return 'approve_on_phone';
}
