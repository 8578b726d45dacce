// Operator statements (docs/rules/payout-rails.md#operator-statements): an operator's transaction
// export read from CSV, each row's state in our words. Pure: the server reads and matches.

/** A statement row's state, from the operator's own words (Airtel TS/TF/TIP, MTN SUCCESSFUL/FAILED/PENDING…). */
export const STATEMENT_STATES = ['succeeded', 'failed', 'pending', 'reversed'] as const;
export type StatementState = (typeof STATEMENT_STATES)[number];
