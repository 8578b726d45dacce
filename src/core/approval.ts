import { type Currency, type Decimal, compareDecimal, parseDecimal } from './money.js';
import type { ErrorCode } from './errors.js';

// Four-eyes: from a threshold per source currency, a second staff member approves a transfer
// before its money goes out (docs/rules/back-office.md#four-eyes). The admin edits the
// thresholds; these are the defaults.

export const DEFAULT_APPROVAL_THRESHOLDS: Record<Currency, Decimal> = {
  USD: '1000', EUR: '1000', XAF: '600000', RWF: '1300000',
};

/** True when an amount is at or above its currency's threshold (an unknown threshold counts as the default). */
export function needsApproval(amount: Decimal, currency: Currency, thresholds: Partial<Record<Currency, Decimal>>): boolean {
  const a = parseDecimal(amount);
  const t = parseDecimal(thresholds[currency] ?? DEFAULT_APPROVAL_THRESHOLDS[currency]);
  return a !== null && t !== null && compareDecimal(a, t) >= 0;
}

/** What the four-eyes rules read of a transfer: who sent it, who processed it, paid it out and approved it. */
export interface FourEyesView {
  profile_id: string;
  status: string;
  processed_by: string | null;
  payout_sent_by: string | null;
  approved_by: string | null;
}

/** A four-eyes refusal: its error code (errors.ts says its status and message). */
export type FourEyesRefusal = Extract<ErrorCode, 'own_transfer' | 'approval_same_staff' | 'status_final' | 'approval_not_needed'
  | 'already_approved' | 'capture_needs_approval' | 'payout_needs_approval' | 'complete_needs_approval'>;

/** No staff member acts as staff on a transfer they sent themselves (docs/rules/back-office.md). */
export function ownTransferError(transfer: Pick<FourEyesView, 'profile_id'>, staffId: string): FourEyesRefusal | null {
  return transfer.profile_id === staffId ? 'own_transfer' : null;
}

/**
 * Why `staffId` may not approve the transfer, or null: not their own, still open, needing it
 * (`required`: at or above its threshold), not approved yet, and neither processed nor paid out by them.
 */
export function approvalError(transfer: FourEyesView, staffId: string, required: boolean): FourEyesRefusal | null {
  if (transfer.profile_id === staffId) return 'own_transfer';
  if (transfer.status === 'completed' || transfer.status === 'rejected' || transfer.status === 'cancelled') return 'status_final';
  if (!required) return 'approval_not_needed';
  if (transfer.approved_by) return 'already_approved';
  if (transfer.processed_by === staffId || transfer.payout_sent_by === staffId) return 'approval_same_staff';
  return null;
}

/** The approver does not also process the transfer or record its payout. */
export function sameStaffError(transfer: Pick<FourEyesView, 'approved_by'>, staffId: string): FourEyesRefusal | null {
  return transfer.approved_by === staffId ? 'approval_same_staff' : null;
}

/** The steps that wait for the approval of a transfer that needs one: money goes out (or is taken) only once approved. */
export type ApprovalGatedStep = 'capture' | 'payout' | 'complete';

const WAITS_FOR_APPROVAL: Record<ApprovalGatedStep, FourEyesRefusal> = {
  capture: 'capture_needs_approval',
  payout: 'payout_needs_approval',
  complete: 'complete_needs_approval',
};

/**
 * A transfer that needs an approval (`required`) has it before its PayPal payment is captured,
 * its payout recorded or it is completed: the second pair of eyes comes before the money moves.
 */
export function unapprovedError(transfer: Pick<FourEyesView, 'approved_by'>, required: boolean, step: ApprovalGatedStep): FourEyesRefusal | null {
  return required && !transfer.approved_by ? WAITS_FOR_APPROVAL[step] : null;
}
