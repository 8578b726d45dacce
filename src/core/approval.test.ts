import { describe, expect, it } from 'vitest';
import {
  DEFAULT_APPROVAL_THRESHOLDS, approvalError, needsApproval, ownTransferError, sameStaffError, unapprovedError,
} from './approval.js';

describe('four-eyes threshold', () => {
  it('applies at the threshold and above, not under it', () => {
    expect(needsApproval('999.99', 'USD', DEFAULT_APPROVAL_THRESHOLDS)).toBe(false);
    expect(needsApproval('1000', 'USD', DEFAULT_APPROVAL_THRESHOLDS)).toBe(true);
    expect(needsApproval('1000.00', 'EUR', DEFAULT_APPROVAL_THRESHOLDS)).toBe(true);
    expect(needsApproval('599999', 'XAF', DEFAULT_APPROVAL_THRESHOLDS)).toBe(false);
    expect(needsApproval('1300000', 'RWF', DEFAULT_APPROVAL_THRESHOLDS)).toBe(true);
  });

  it('uses the edited threshold, and the default where none is stored', () => {
    expect(needsApproval('500', 'USD', { USD: '500' })).toBe(true);
    expect(needsApproval('500', 'EUR', { USD: '500' })).toBe(false);
  });
});

describe('four-eyes rules', () => {
  const A = 'staff-a';
  const B = 'staff-b';
  const transfer = { profile_id: 'sender', status: 'processing', processed_by: A, payout_sent_by: null, approved_by: null };

  it('lets a second staff member approve a transfer that needs it', () => {
    expect(approvalError(transfer, B, true)).toBeNull();
  });

  it('refuses the one who processed it or recorded its payout, and anyone approving their own transfer', () => {
    expect(approvalError(transfer, A, true)).toBe('approval_same_staff');
    expect(approvalError({ ...transfer, processed_by: null, payout_sent_by: B }, B, true)).toBe('approval_same_staff');
    expect(approvalError({ ...transfer, profile_id: B }, B, true)).toBe('own_transfer');
    expect(ownTransferError({ profile_id: B }, B)).toBe('own_transfer');
  });

  it('refuses an approval not needed, a second one, and one on a closed transfer', () => {
    expect(approvalError(transfer, B, false)).toBe('approval_not_needed');
    expect(approvalError({ ...transfer, approved_by: B }, B, true)).toBe('already_approved');
    expect(approvalError({ ...transfer, status: 'completed' }, B, true)).toBe('status_final');
  });

  it('keeps the approver from also paying out', () => {
    expect(sameStaffError({ approved_by: B }, B)).toBe('approval_same_staff');
    expect(sameStaffError({ approved_by: B }, A)).toBeNull();
  });

  it('lets no money go out before the approval a transfer needs: no PayPal capture, no payout, no completion', () => {
    expect(unapprovedError({ approved_by: null }, true, 'capture')).toBe('capture_needs_approval');
    expect(unapprovedError({ approved_by: null }, true, 'payout')).toBe('payout_needs_approval');
    expect(unapprovedError({ approved_by: null }, true, 'complete')).toBe('complete_needs_approval');
    for (const step of ['capture', 'payout', 'complete'] as const) {
      expect(unapprovedError({ approved_by: null }, false, step)).toBeNull();
      expect(unapprovedError({ approved_by: B }, true, step)).toBeNull();
    }
  });
});
