// The bank rail's words (docs/rules/bank-rail.md): why a bank sends a SEPA payout back, as the
// ISO 20022 external return reason codes name it, said in the sender's and staff's language.

/** The return reasons a SEPA credit transfer comes back with, each with its message key in the transfer catalog (EN/FR). */
export const RETURN_REASONS = {
  AC01: 'bankReturn.AC01',
  AC04: 'bankReturn.AC04',
  AC06: 'bankReturn.AC06',
  AG01: 'bankReturn.AG01',
  AM05: 'bankReturn.AM05',
  BE04: 'bankReturn.BE04',
  MD07: 'bankReturn.MD07',
  MS02: 'bankReturn.MS02',
  MS03: 'bankReturn.MS03',
  RC01: 'bankReturn.RC01',
  RR01: 'bankReturn.RR01',
  FOCR: 'bankReturn.FOCR',
} as const;
export type ReturnReason = keyof typeof RETURN_REASONS;

/** The message key of a return reason; a code not listed reads as "another reason" with the code shown. */
export function returnReasonKey(code: string | null): string {
  return code && code in RETURN_REASONS ? RETURN_REASONS[code as ReturnReason] : 'bankReturn.other';
}

/** What a statement's entry did. */
export const STATEMENT_OUTCOMES = ['settled', 'returned', 'payment', 'unmatched'] as const;
export type StatementOutcome = (typeof STATEMENT_OUTCOMES)[number];
