// The bank rail's words (docs/rules/bank-rail.md): why a bank sends a SEPA payout back, as the
// ISO 20022 external return reason codes name it, said in the sender's and staff's language.

/** The return reasons a SEPA credit transfer comes back with, each with its message key (EN/FR). */
export const RETURN_REASONS = {
  AC01: 'transfer.bankReturn.AC01',
  AC04: 'transfer.bankReturn.AC04',
  AC06: 'transfer.bankReturn.AC06',
  AG01: 'transfer.bankReturn.AG01',
  AM05: 'transfer.bankReturn.AM05',
  BE04: 'transfer.bankReturn.BE04',
  MD07: 'transfer.bankReturn.MD07',
  MS02: 'transfer.bankReturn.MS02',
  MS03: 'transfer.bankReturn.MS03',
  RC01: 'transfer.bankReturn.RC01',
  RR01: 'transfer.bankReturn.RR01',
  FOCR: 'transfer.bankReturn.FOCR',
} as const;
export type ReturnReason = keyof typeof RETURN_REASONS;

/** The message key of a return reason; a code not listed reads as "another reason" with the code shown. */
export function returnReasonKey(code: string | null): string {
  return code && code in RETURN_REASONS ? RETURN_REASONS[code as ReturnReason] : 'transfer.bankReturn.other';
}

/** What a statement's entry did. */
export const STATEMENT_OUTCOMES = ['settled', 'returned', 'payment', 'unmatched'] as const;
export type StatementOutcome = (typeof STATEMENT_OUTCOMES)[number];
