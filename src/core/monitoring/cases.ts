// A monitoring case (docs/rules/monitoring.md#cases): one open case per sender gathers their
// alerts; staff move it open → investigating → closed, closing with an outcome.

export const CASE_STATUSES = ['open', 'investigating', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const CASE_OUTCOMES = ['false_positive', 'risk_accepted', 'reported'] as const;
export type CaseOutcome = (typeof CASE_OUTCOMES)[number];

/**
 * Why moving a case from `from` to `to` (with `outcome`) is refused, or null: a closed case stays
 * closed; investigating is reached from open only; closing (from open or investigating) needs an
 * outcome, and only closing takes one.
 */
export function caseTransitionRefusal(from: CaseStatus, to: 'investigating' | 'closed', outcome: CaseOutcome | undefined):
  'case_closed' | 'case_transition_invalid' | 'case_outcome_required' | null {
  if (from === 'closed') return 'case_closed';
  if (to === 'investigating') return from === 'open' && !outcome ? null : 'case_transition_invalid';
  return outcome ? null : 'case_outcome_required';
}
