// Compliance holds (docs/rules/screening.md#holds-and-alerts): why a transfer waits, and what
// staff decide about a screening alert. One mechanism for screening and monitoring.

/**
 * Why a transfer (or every transfer of a sender) is held. `checking`: written with the transfer
 * itself and deleted once the initiation's checks have run, so a transfer whose checks a crash
 * interrupted waits, held, until they are run again (docs/decisions/035-compliance-holds.md).
 */
export const HOLD_REASONS = ['screening', 'monitoring', 'stale_lists', 'checking'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/** Who a screening alert is about. */
export const ALERT_SUBJECTS = ['sender', 'recipient'] as const;
export type AlertSubject = (typeof ALERT_SUBJECTS)[number];

/** Open until staff decide; confirmed only once an admin and a second staff member agree. */
export const ALERT_STATUSES = ['open', 'false_positive', 'confirmed'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_DECISIONS = ['false_positive', 'confirmed'] as const;
export type AlertDecision = (typeof ALERT_DECISIONS)[number];

/** When a name was screened. */
export const SCREENING_TRIGGERS = ['initiation', 'profile', 'rescreen'] as const;
export type ScreeningTrigger = (typeof SCREENING_TRIGGERS)[number];
