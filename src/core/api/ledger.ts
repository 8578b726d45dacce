import { z } from 'zod';
import { ENTRY_KINDS, LEDGER_ACCOUNTS } from '../ledger.js';
import { CURRENCIES } from '../money.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// The books for the admin (docs/rules/money-states.md): balances per account and currency, and a transfer's entries.
// A balance is debits minus credits: positive for money held (provider accounts), negative for
// what the business owes or earned (customer funds, refunds payable, fee revenue).

const LedgerBalanceSchema = z.object({
  account: z.enum(LEDGER_ACCOUNTS),
  currency: z.enum(CURRENCIES),
  debits: decimalText(),
  credits: decimalText(),
  balance: decimalText(),
});

const LedgerBalancesSchema = z.object({
  balances: z.array(LedgerBalanceSchema),
  /** Per currency, the sum of every account's balance: zero when the books balance. */
  totals: z.array(z.object({ currency: z.enum(CURRENCIES), sum: decimalText() })),
});
export type LedgerBalances = z.infer<typeof LedgerBalancesSchema>;
export const LedgerBalancesResponseSchema = dataOf(LedgerBalancesSchema);

const LedgerLineSchema = z.object({
  id: z.number().int(),
  account: z.enum(LEDGER_ACCOUNTS),
  currency: z.enum(CURRENCIES),
  /** Signed: a debit is positive, a credit negative. */
  amount: decimalText(),
});

const LedgerEntrySchema = z.object({
  id: z.number().int(),
  transfer_request_id: z.uuid().nullable(),
  kind: z.enum(ENTRY_KINDS),
  /** 1, or the number of a payout (fee, their reversals, a duplicate payment) paid again after a return. */
  sequence: z.number().int().min(1),
  reference: z.string().nullable(),
  actor_profile_id: z.uuid().nullable(),
  created_at: isoDateTime(),
  lines: z.array(LedgerLineSchema),
});
export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;
export const LedgerEntriesResponseSchema = dataOf(z.array(LedgerEntrySchema));

export const LedgerEntriesQuerySchema = z.object({
  transfer_id: z.uuid({ error: 'validation.checkInput' }),
});
