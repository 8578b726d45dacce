import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL_THRESHOLDS, needsApproval } from './approval.js';

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
