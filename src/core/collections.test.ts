import { describe, expect, it } from 'vitest';
import { collectionReason, collectionState } from './collections.js';

// What a sender reads of "approve on my phone" (docs/rules/payout-rails.md#collections).

describe('the operator\'s reason in the sender\'s words', () => {
  it('reads MTN\'s reason codes and the Airtel client\'s names alike', () => {
    expect(collectionReason('APPROVAL_REJECTED')).toBe('refused');
    expect(collectionReason('refused')).toBe('refused');
    expect(collectionReason('EXPIRED')).toBe('expired');
    expect(collectionReason('expired')).toBe('expired');
    expect(collectionReason('pin_not_entered')).toBe('expired');
    expect(collectionReason('NOT_ENOUGH_FUNDS')).toBe('insufficient_funds');
    expect(collectionReason('insufficient_balance')).toBe('insufficient_funds');
    expect(collectionReason('PAYER_NOT_FOUND')).toBe('payer_not_found');
  });

  it('says a plain failure for anything it does not know, or nothing at all', () => {
    expect(collectionReason('INTERNAL_PROCESSING_ERROR')).toBe('failed');
    expect(collectionReason('never_created')).toBe('failed');
    expect(collectionReason(null)).toBe('failed');
  });
});

describe('where the approval stands', () => {
  it('is to approve on the phone while the request is open, even while its answer is unknown', () => {
    for (const state of ['submitting', 'pending', 'unknown'] as const) expect(collectionState(state, null)).toBe('approve_on_phone');
  });

  it('is received once the operator took the money, and expired or failed after a failure', () => {
    expect(collectionState('succeeded', null)).toBe('received');
    expect(collectionState('failed', 'expired')).toBe('expired');
    expect(collectionState('failed', 'refused')).toBe('failed');
  });
});
