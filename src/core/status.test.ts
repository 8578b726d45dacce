import { describe, expect, it } from 'vitest';
import {
  FINAL_STATUSES, HISTORY_FILTER_STATUSES, OPEN_STATUSES, ROLES, TRANSFER_STATUSES, canCancel, canComplete, canProcess, canReject,
  canTransition, isAdmin, isStaff, statusColor, transitionError,
} from './status.js';

describe('statuses', () => {
  it('lists statuses, finals, open ones and history filters', () => {
    expect(TRANSFER_STATUSES).toEqual(['pending', 'processing', 'completed', 'rejected', 'cancelled']);
    expect(FINAL_STATUSES).toEqual(['completed', 'rejected', 'cancelled']);
    expect(HISTORY_FILTER_STATUSES).toEqual(['pending', 'processing', 'completed', 'rejected']);
    expect(OPEN_STATUSES).toEqual(['pending', 'processing']);
  });
});

describe('canTransition', () => {
  const allowed = (actor: 'staff' | 'owner') =>
    TRANSFER_STATUSES.flatMap((from) => TRANSFER_STATUSES.filter((to) => canTransition(from, to, actor)).map((to) => `${from}>${to}`));

  it('lets staff move pending and processing transfers forward', () => {
    expect(allowed('staff')).toEqual([
      'pending>processing', 'pending>completed', 'pending>rejected', 'processing>completed', 'processing>rejected',
    ]);
  });

  it('lets the owner only cancel a pending transfer', () => {
    expect(allowed('owner')).toEqual(['pending>cancelled']);
  });

  it('refuses unknown statuses', () => {
    expect(canTransition('approved', 'completed', 'staff')).toBe(false);
    expect(canTransition('pending', 'failed', 'staff')).toBe(false);
  });
});

describe('transitionError', () => {
  it('explains refused moves with message keys', () => {
    expect(transitionError('pending', 'processing', 'staff')).toBeNull();
    expect(transitionError('pending', 'cancelled', 'owner')).toBeNull();
    expect(transitionError('completed', 'rejected', 'staff')).toBe('validation.statusFinal');
    expect(transitionError('cancelled', 'pending', 'owner')).toBe('validation.statusFinal');
    expect(transitionError('processing', 'processing', 'staff')).toBe('validation.statusUnchanged');
    expect(transitionError('processing', 'cancelled', 'owner')).toBe('validation.statusCancelOnlyPending');
    expect(transitionError('pending', 'cancelled', 'staff')).toBe('validation.statusTransitionNotAllowed');
    expect(transitionError('processing', 'pending', 'staff')).toBe('validation.statusTransitionNotAllowed');
    expect(transitionError('pending', 'completed', 'owner')).toBe('validation.statusCancelOnlyPending');
    expect(transitionError('pending', 'approved', 'staff')).toBe('validation.statusInvalid');
  });
});

describe('statusColor', () => {
  it('is yellow, green, red, else blue', () => {
    expect(statusColor('pending')).toBe('yellow');
    expect(statusColor('completed')).toBe('green');
    expect(statusColor('rejected')).toBe('red');
    expect(statusColor('processing')).toBe('blue');
    expect(statusColor('cancelled')).toBe('blue');
    expect(statusColor('failed')).toBe('blue');
  });
});

describe('admin buttons', () => {
  it('Process is disabled when completed, rejected or processing (and cancelled)', () => {
    expect(TRANSFER_STATUSES.filter(canProcess)).toEqual(['pending']);
  });
  it('Completed and Reject are disabled when completed or rejected (and cancelled)', () => {
    expect(TRANSFER_STATUSES.filter(canComplete)).toEqual(['pending', 'processing']);
    expect(TRANSFER_STATUSES.filter(canReject)).toEqual(['pending', 'processing']);
  });
  it('the sender cancels only while pending', () => {
    expect(TRANSFER_STATUSES.filter(canCancel)).toEqual(['pending']);
  });
});

describe('roles', () => {
  it('knows staff and admins', () => {
    expect(ROLES).toEqual(['user', 'manager', 'admin']);
    expect(ROLES.filter(isStaff)).toEqual(['manager', 'admin']);
    expect(ROLES.filter(isAdmin)).toEqual(['admin']);
    expect(isStaff(undefined)).toBe(false);
    expect(isStaff(null)).toBe(false);
  });
});
