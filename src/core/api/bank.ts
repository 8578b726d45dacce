import { z } from 'zod';
import { STATEMENT_OUTCOMES } from '../bank.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// The bank rail (docs/rules/bank-rail.md): SEPA payout files for the business's bank, and the
// bank's statements read back.

/** A payment file's identity, its size and its control sum (the exact sum of its amounts). */
const BankFileSchema = z.object({
  id: z.uuid(),
  /** GrpHdr/MsgId, the name the bank knows the file by. */
  msg_id: z.string(),
  count: z.number().int(),
  control_sum: decimalText(),
  created_at: isoDateTime(),
  cancelled_at: isoDateTime().nullable(),
  cancel_reason: z.string().nullable(),
  /** Its payouts the bank confirmed, sent back, or not yet reported on. */
  settled: z.number().int(),
  returned: z.number().int(),
  waiting: z.number().int(),
});
export type BankFileJson = z.infer<typeof BankFileSchema>;
export const BankFileListSchema = dataOf(z.array(BankFileSchema));

/** POST /api/bank/files: the new file's id, count and control sum. */
export const BankFileCreatedSchema = z.object({ id: z.uuid(), count: z.number().int(), control_sum: decimalText() });

/** POST /api/bank/files/{id}/cancel: why (the bank never received it, or the order was withdrawn there). */
export const BankFileCancelSchema = z.object({
  reason: z.string({ error: 'admin.bank.cancelReasonRequired' }).trim().min(3, { error: 'admin.bank.cancelReasonRequired' }).max(500, { error: 'admin.bank.cancelReasonTooLong' }),
});
export type BankFileCancel = z.infer<typeof BankFileCancelSchema>;
export const BankFileResponseSchema = dataOf(BankFileSchema);

/** One entry of a statement as it was matched. */
const StatementEntrySchema = z.object({
  outcome: z.enum(STATEMENT_OUTCOMES),
  /** Money in (true) or out (false) of the business's account. */
  credit: z.boolean(),
  amount: decimalText(),
  currency: z.string(),
  booked_on: z.string().nullable(),
  end_to_end_id: z.string().nullable(),
  remittance: z.string().nullable(),
  return_reason: z.string().nullable(),
  /** The transfer it settled, returned or paid; null when it matched none. */
  transfer_reference: z.string().nullable(),
  /** A payment of another amount than due, or a line staff must look at. */
  flagged: z.boolean(),
  note: z.string().nullable(),
});
export type StatementEntryJson = z.infer<typeof StatementEntrySchema>;

/** POST /api/bank/statements: what this statement did; entries read before (in it or another) are counted apart and change nothing. */
export const BankStatementResultSchema = dataOf(z.object({
  id: z.uuid(),
  msg_id: z.string(),
  kind: z.enum(['camt.053', 'camt.054']),
  settled: z.number().int(),
  returned: z.number().int(),
  payments: z.number().int(),
  unmatched: z.number().int(),
  /** Entries already read from an earlier import: nothing done again. */
  already_imported: z.number().int(),
  entries: z.array(StatementEntrySchema),
}));
export type BankStatementResult = z.infer<typeof BankStatementResultSchema>['data'];

const BankStatementSchema = z.object({
  id: z.uuid(),
  msg_id: z.string(),
  kind: z.enum(['camt.053', 'camt.054']),
  filename: z.string().nullable(),
  imported_at: isoDateTime(),
  settled: z.number().int(),
  returned: z.number().int(),
  payments: z.number().int(),
  unmatched: z.number().int(),
});
export type BankStatementJson = z.infer<typeof BankStatementSchema>;
export const BankStatementListSchema = dataOf(z.array(BankStatementSchema));
export const BankStatementEntriesSchema = dataOf(z.array(StatementEntrySchema));

/**
 * A booked line of an imported bank statement that matched nothing, as the reconciliation board
 * lists it beside the lines of CSV statements (docs/rules/bank-rail.md#statements).
 */
const UnmatchedBankLineSchema = z.object({
  id: z.number().int(),
  statement_id: z.uuid(),
  /** The statement's own id (GrpHdr/MsgId). */
  msg_id: z.string(),
  booked_on: z.string().nullable(),
  /** The EndToEndId the bank gave, if any. */
  reference: z.string().nullable(),
  /** The remittance text. */
  description: z.string().nullable(),
  /** Signed: money into the business's account positive. */
  amount: decimalText(),
  currency: z.string(),
  /** Why nothing matched, and whether staff must look. */
  note: z.string().nullable(),
  flagged: z.boolean(),
});
export type UnmatchedBankLine = z.infer<typeof UnmatchedBankLineSchema>;
export const UnmatchedBankLinesSchema = dataOf(z.object({ count: z.number().int(), lines: z.array(UnmatchedBankLineSchema) }));
export type UnmatchedBankLines = z.infer<typeof UnmatchedBankLinesSchema>['data'];
/** How many unmatched lines to read, newest first. */
export const UnmatchedBankLinesQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });
