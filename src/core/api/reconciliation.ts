import { z } from 'zod';
import { CHANNEL_IDS } from '../channels.js';
import { ENTRY_KINDS } from '../ledger.js';
import { CURRENCIES } from '../money.js';
import { TRANSFER_STATUSES } from '../status.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// Reconciliation for the admin (docs/rules/money-states.md#reconciliation): each provider
// account's book balance beside its statement's, the lines matched and not, and the transfers
// behind what does not match. Amounts are signed like the ledger's: money in (a debit of the
// provider account) positive, money out negative.

// ---- requests ----

/** The provider account in the path: an unknown one names no account (404). */
export const ReconciliationParamsSchema = z.object({ account: z.enum(CHANNEL_IDS) });

const balanceInput = z.union([z.string(), z.number()], { error: 'admin.reconciliation.balanceInvalid' });
/** A day (YYYY-MM-DD, read as the end of that day in UTC) or an ISO time; checked by the service. */
const asOfInput = z.string({ error: 'admin.reconciliation.asOfInvalid' }).trim().max(40, { error: 'admin.reconciliation.asOfInvalid' });

/** A statement's closing balance as the provider shows it (signed, in the account's currency). */
export const StatementBalanceSchema = z.object({
  balance: balanceInput,
  as_of: asOfInput.optional(),
});
export type StatementBalanceInput = z.infer<typeof StatementBalanceSchema>;

/** A CSV import's optional closing balance and date, and the file's name when sent as text/csv. */
export const StatementImportQuerySchema = z.object({
  balance: z.string({ error: 'admin.reconciliation.balanceInvalid' }).max(40, { error: 'admin.reconciliation.balanceInvalid' }).optional(),
  as_of: asOfInput.optional(),
  filename: z.string({ error: 'validation.checkInput' }).trim().max(200, { error: 'validation.tooLong' }).optional(),
});
export type StatementImportQuery = z.infer<typeof StatementImportQuerySchema>;

/** How many lines of each list the view answers (the newest first); counts and totals cover all. */
export const ReconciliationViewQuerySchema = z.object({
  limit: z.coerce.number({ error: 'validation.limitRange' }).int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' }).max(200, { error: 'validation.limitRange' }).default(50),
});

// ---- answers ----

const StatementSchema = z.object({
  id: z.uuid(),
  account: z.enum(CHANNEL_IDS),
  currency: z.enum(CURRENCIES),
  as_of: isoDateTime(),
  /** The closing balance the provider shows; null for an import of lines alone. */
  balance: decimalText().nullable(),
  filename: z.string().nullable(),
  created_at: isoDateTime(),
});
export type Statement = z.infer<typeof StatementSchema>;

/** One provider account: the books against the latest statement balance. */
const ReconciliationSummarySchema = z.object({
  account: z.enum(CHANNEL_IDS),
  currency: z.enum(CURRENCIES),
  /** Debits minus credits of the account (money held at the provider), from the running balances. */
  book_balance: decimalText(),
  book_lines: z.number().int(),
  /** The latest statement that gives a balance, or null when none was entered. */
  statement: StatementSchema.nullable(),
  /** Book balance minus statement balance; null without a statement balance. */
  difference: decimalText().nullable(),
  statement_lines: z.number().int(),
  matched: z.number().int(),
  unmatched_statement_lines: z.number().int(),
  unmatched_book_lines: z.number().int(),
});
export type ReconciliationSummary = z.infer<typeof ReconciliationSummarySchema>;
export const ReconciliationSummariesResponseSchema = dataOf(z.array(ReconciliationSummarySchema));
export type ReconciliationSummariesResponse = z.infer<typeof ReconciliationSummariesResponseSchema>;

const StatementLineSchema = z.object({
  id: z.number().int(),
  statement_id: z.uuid(),
  /** The day the provider posted it (YYYY-MM-DD). */
  posted_on: z.string().nullable(),
  reference: z.string().nullable(),
  description: z.string().nullable(),
  amount: decimalText(),
});
export type StatementLine = z.infer<typeof StatementLineSchema>;

/** The transfer behind a book line: who sent what. */
const BookTransferSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  sender_name: z.string().nullable(),
  amount: decimalText(),
  total: decimalText(),
  currency: z.enum(CURRENCIES),
  payout_amount: decimalText(),
  payout_currency: z.enum(CURRENCIES),
  status: z.enum(TRANSFER_STATUSES),
});

/** A ledger line of the provider account, with its entry and transfer. */
const BookLineSchema = z.object({
  id: z.number().int(),
  entry_id: z.number().int(),
  kind: z.enum(ENTRY_KINDS),
  /** The entry's reference: what staff typed (statement, operator, bank) or PayPal's capture id. */
  reference: z.string().nullable(),
  amount: decimalText(),
  created_at: isoDateTime(),
  transfer: BookTransferSchema.nullable(),
});
export type BookLine = z.infer<typeof BookLineSchema>;

const MatchedLineSchema = z.object({ statement_line: StatementLineSchema, book_line: BookLineSchema });

/** One account in full: the summary, what explains the difference, and the newest lines of each list. */
const ReconciliationViewSchema = ReconciliationSummarySchema.extend({
  /** Sum of the book lines no statement line matched (in the books, not on a statement). */
  unmatched_book_total: decimalText(),
  /** Sum of the statement lines no book line matched (on a statement, not in the books). */
  unmatched_statement_total: decimalText(),
  /**
   * What the unmatched lines leave unexplained: difference − (unmatched book − unmatched
   * statement). Zero when the statements hold every movement and the lines explain it all; null
   * without a statement balance.
   */
  unexplained: decimalText().nullable(),
  limit: z.number().int(),
  unmatched_book: z.array(BookLineSchema),
  unmatched_statement: z.array(StatementLineSchema),
  matched_lines: z.array(MatchedLineSchema),
});
export type ReconciliationView = z.infer<typeof ReconciliationViewSchema>;
export const ReconciliationViewResponseSchema = dataOf(ReconciliationViewSchema);
export type ReconciliationViewResponse = z.infer<typeof ReconciliationViewResponseSchema>;

/** What a statement's recording did: the statement, its lines, and how many were matched. */
const StatementResultSchema = z.object({
  statement: StatementSchema,
  lines: z.number().int(),
  /** Statement lines of the account newly matched by this call (older unmatched ones included). */
  matched: z.number().int(),
});
export type StatementResult = z.infer<typeof StatementResultSchema>;
export const StatementResultResponseSchema = dataOf(StatementResultSchema);
export type StatementResultResponse = z.infer<typeof StatementResultResponseSchema>;

export const MatchResultResponseSchema = dataOf(z.object({ matched: z.number().int() }));
export type MatchResultResponse = z.infer<typeof MatchResultResponseSchema>;

// ---- money frozen by compliance ----

/**
 * A transfer closed out after a confirmed screening match whose received money stays frozen
 * (docs/rules/screening.md#closing-out-a-confirmed-match): in the books as received, owed to no
 * one until the rules release it, so the board names it.
 */
const FrozenTransferSchema = z.object({
  id: z.uuid(),
  reference: z.string(),
  /** The provider account the money came in through. */
  account: z.enum(CHANNEL_IDS),
  currency: z.enum(CURRENCIES),
  amount: decimalText(),
  sender_name: z.string().nullable(),
  closed_at: isoDateTime(),
});
export type FrozenTransfer = z.infer<typeof FrozenTransferSchema>;

const FrozenMoneySchema = z.object({
  /** Per currency: the money frozen and how many transfers hold it. */
  totals: z.array(z.object({ currency: z.enum(CURRENCIES), amount: decimalText(), count: z.number().int() })),
  /** Newest close-out first. */
  transfers: z.array(FrozenTransferSchema),
});
export type FrozenMoney = z.infer<typeof FrozenMoneySchema>;
export const FrozenMoneyResponseSchema = dataOf(FrozenMoneySchema);
