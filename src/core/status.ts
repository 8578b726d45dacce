// Transfer statuses and who may move them, payment states, and roles. See docs/rules/transfers.md,
// docs/rules/money-states.md and docs/rules/accounts.md.

export const TRANSFER_STATUSES = ['pending', 'processing', 'completed', 'rejected', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Nothing moves out of these. */
export const FINAL_STATUSES = ['completed', 'rejected', 'cancelled'] as const satisfies readonly TransferStatus[];

/** Still in progress (the dashboard's open requests): every status but the final ones. */
export const OPEN_STATUSES: readonly TransferStatus[] = TRANSFER_STATUSES.filter((s) => !(FINAL_STATUSES as readonly string[]).includes(s));

/** The history screen's filter choices besides "all". */
export const HISTORY_FILTER_STATUSES = ['pending', 'processing', 'completed', 'rejected'] as const satisfies readonly TransferStatus[];

/**
 * Where the sender's money stands (docs/rules/money-states.md): awaiting → authorized (PayPal only) → received;
 * authorized → voided; received → refund_due → refunded. See src/core/money-states.ts.
 */
export const PAYMENT_STATUSES = ['awaiting', 'authorized', 'received', 'voided', 'refund_due', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Money out to the recipient: not_sent → sent (operator or bank reference). */
export const PAYOUT_STATUSES = ['not_sent', 'sent'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Steps of a transfer's timeline that move its money, not its status. */
export const HISTORY_EVENTS = [
  'payment_authorized', 'payment_received', 'payment_voided', 'payout_sent', 'refund_due', 'refunded', 'payout_returned',
] as const;
export type HistoryEvent = (typeof HISTORY_EVENTS)[number];

/** Who may read a transfer note: staff only, or the sender too (docs/rules/back-office.md#notes-and-action-needed). */
export const NOTE_VISIBILITIES = ['internal', 'sender'] as const;
export type NoteVisibility = (typeof NOTE_VISIBILITIES)[number];

export type StatusActor = 'staff' | 'owner';
export type StatusColor = 'yellow' | 'green' | 'red' | 'blue';

function isTransferStatus(value: unknown): value is TransferStatus {
  return typeof value === 'string' && (TRANSFER_STATUSES as readonly string[]).includes(value);
}

export function isFinalStatus(status: string): boolean {
  return (FINAL_STATUSES as readonly string[]).includes(status);
}

const ALLOWED: Record<StatusActor, Partial<Record<TransferStatus, readonly TransferStatus[]>>> = {
  staff: { pending: ['processing', 'completed', 'rejected'], processing: ['completed', 'rejected'] },
  owner: { pending: ['cancelled'] },
};

/** Staff pending → processing|completed|rejected, processing → completed|rejected; owner pending → cancelled. */
export function canTransition(from: string, to: string, actor: StatusActor): boolean {
  if (!isTransferStatus(from) || !isTransferStatus(to)) return false;
  return ALLOWED[actor]?.[from]?.includes(to) ?? false;
}

/** Why a move is refused, as a validation message key; null when it is allowed. */
export function transitionError(from: string, to: string, actor: StatusActor): string | null {
  if (canTransition(from, to, actor)) return null;
  if (!isTransferStatus(from) || !isTransferStatus(to)) return 'validation.statusInvalid';
  if (from === to) return 'validation.statusUnchanged';
  if (isFinalStatus(from)) return 'validation.statusFinal';
  if (actor === 'owner') return 'validation.statusCancelOnlyPending';
  return 'validation.statusTransitionNotAllowed';
}

/** Yellow pending, green completed, red rejected, blue otherwise (docs/rules/transfers.md#statuses). */
export function statusColor(status: string): StatusColor {
  switch (status) {
    case 'pending': return 'yellow';
    case 'completed': return 'green';
    case 'rejected': return 'red';
    default: return 'blue';
  }
}

// Admin buttons. The interface rules ("Process disabled if completed, rejected or processing",
// ...) match the staff transitions once cancelled is final too.
export function canProcess(status: string): boolean {
  return canTransition(status, 'processing', 'staff');
}

export function canComplete(status: string): boolean {
  return canTransition(status, 'completed', 'staff');
}

export function canReject(status: string): boolean {
  return canTransition(status, 'rejected', 'staff');
}

/** The sender may cancel only while pending (the payout check is the server's). */
export function canCancel(status: string): boolean {
  return canTransition(status, 'cancelled', 'owner');
}

export const ROLES = ['user', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Admins and managers process transfers. */
export function isStaff(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'manager';
}

/** Users, roles, fee tiers and rates are the admin's alone. */
export function isAdmin(role: string | null | undefined): boolean {
  return role === 'admin';
}
