import { z } from 'zod';
import { STATEMENT_STATES } from '../operator-statements.js';
import { ATTEMPT_STATES, MOBILE_RAIL_IDS } from '../rails.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// Operators' statements (docs/rules/payout-rails.md#operator-statements): an operator's export
// imported for a rail, its rows matched with our payout attempts, the differences listed.

export const OperatorStatementParamsSchema = z.object({ id: z.uuid({ error: 'errors.notFound' }) });
export const StatementRailParamsSchema = z.object({ id: z.enum(MOBILE_RAIL_IDS, { error: 'errors.notFound' }) });
/** A file sent as the request body itself (scripts) names itself here. */
export const OperatorStatementImportQuerySchema = z.object({ filename: z.string().max(255).optional() });

const StatementSchema = z.object({
  id: z.uuid(),
  rail: z.enum(MOBILE_RAIL_IDS),
  filename: z.string().nullable(),
  /** The days it covers: from the first row's day to the last row's (UTC). */
  period_from: isoDateTime(),
  period_to: isoDateTime(),
  rows: z.number().int(),
  imported_at: isoDateTime(),
});
export type OperatorStatementJson = z.infer<typeof StatementSchema>;

const DIFFERENCE_KINDS = ['not_ours', 'not_on_statement', 'amount_differs', 'state_differs'] as const;

const DifferenceSchema = z.object({
  /**
   * not_ours: on the statement, no attempt of ours; not_on_statement: ours succeeded in the period,
   * not on the statement; amount_differs, state_differs: matched, and the two sides disagree.
   */
  kind: z.enum(DIFFERENCE_KINDS),
  /** Our reference (the operator's idempotency key) or the operator's transaction id, whichever is known. */
  reference: z.string().nullable(),
  operator_id: z.string().nullable(),
  transfer_id: z.uuid().nullable(),
  transfer_reference: z.string().nullable(),
  ours: z.object({ amount: decimalText(), state: z.enum(ATTEMPT_STATES), at: isoDateTime() }).nullable(),
  theirs: z.object({ amount: decimalText(), state: z.enum(STATEMENT_STATES), at: isoDateTime(), line: z.number().int() }).nullable(),
});
export type StatementDifference = z.infer<typeof DifferenceSchema>;

const StatementResultSchema = z.object({
  statement: StatementSchema,
  /** The same file was imported before: nothing changed. */
  already_imported: z.boolean(),
  /** Rows matched with an attempt of ours, differences or not. */
  matched: z.number().int(),
  currency: z.string(),
  differences: z.array(DifferenceSchema),
});
export type OperatorStatementResult = z.infer<typeof StatementResultSchema>;
export const OperatorStatementResultResponseSchema = dataOf(StatementResultSchema);
export const OperatorStatementListSchema = dataOf(z.array(StatementSchema));
