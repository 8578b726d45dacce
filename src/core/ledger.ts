// The books (docs/rules/money-states.md#ledger): every movement of money is one balanced
// double-entry entry. A line's amount is signed: positive is a debit, negative a credit; in each
// entry the lines of each currency sum to zero (the database refuses an entry that does not).
import { CHANNELS, CHANNEL_IDS, type ChannelId } from './channels.js';
import { parseAmount, toDecimal, type Currency, type Decimal } from './money.js';

/** One account per provider channel (money held there), and the business's own accounts. */
export const LEDGER_ACCOUNTS = [...CHANNEL_IDS, 'customer_funds', 'fee_revenue', 'refunds_payable', 'fx'] as const;
type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** The accounts a provider's statement is reconciled against, each in its channel's currency. */
export const PROVIDER_ACCOUNTS: readonly ChannelId[] = CHANNEL_IDS;

/** Movements of a transfer's own money, built from its figures by entryLines. */
const TRANSFER_ENTRY_KINDS = ['payment', 'payout', 'fee', 'refund_due', 'refund', 'payout_reversal', 'fee_reversal'] as const;
/** Money a sender paid a second time for one transfer, and its refund: built from the collection's amount by duplicateLines. */
export const DUPLICATE_ENTRY_KINDS = ['duplicate_payment', 'duplicate_refund'] as const;
export const ENTRY_KINDS = [...TRANSFER_ENTRY_KINDS, ...DUPLICATE_ENTRY_KINDS] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];
export type TransferEntryKind = (typeof TRANSFER_ENTRY_KINDS)[number];
export type DuplicateEntryKind = (typeof DUPLICATE_ENTRY_KINDS)[number];
/** Kinds a transfer may hold more than once, each numbered (its `sequence`). */
export const NUMBERED_ENTRY_KINDS: readonly EntryKind[] = ['payout', 'payout_reversal', 'fee', 'fee_reversal', ...DUPLICATE_ENTRY_KINDS];

export interface LedgerLine {
  account: LedgerAccount;
  currency: Currency;
  /** Signed exact decimal: debit positive, credit negative. */
  amount: Decimal;
}

/** The transfer's figures an entry is made from (the database's decimal strings). */
export interface TransferMoney {
  source_provider: ChannelId;
  destination_provider: ChannelId;
  currency: Currency;
  amount: Decimal;
  fee: Decimal;
  payout_amount: Decimal;
  payout_currency: Currency;
  /** What was actually received (may differ from the total due); null before it was. */
  payment_amount: Decimal | null;
}

function line(account: LedgerAccount, currency: Currency, minor: number): LedgerLine {
  return { account, currency, amount: toDecimal(minor, currency) };
}

function minor(value: Decimal, currency: Currency): number {
  const parsed = parseAmount(value, currency);
  if (parsed === null) throw new RangeError(`ledger: unreadable amount ${value} ${currency}`);
  return parsed;
}

/** Debit `to` and credit `from` by one amount in one currency. */
function move(to: LedgerAccount, from: LedgerAccount, currency: Currency, amount: number): LedgerLine[] {
  return [line(to, currency, amount), line(from, currency, -amount)];
}

function received(t: TransferMoney): number {
  if (t.payment_amount === null) throw new RangeError('ledger: no payment received');
  return minor(t.payment_amount, t.currency);
}

/**
 * The lines of one movement of a transfer's money:
 * - payment: the money arrives at the source channel and is held for the customer;
 * - payout: the amount (without the fee) leaves customer funds, is exchanged through FX and goes
 *   out of the destination channel;
 * - fee: the fee leaves customer funds and becomes revenue (on completion);
 * - refund_due: what was received is owed back to the sender;
 * - refund: it leaves the source channel;
 * - payout_reversal, fee_reversal: a payout the bank sent back, the exact reverse of the payout
 *   (and of the fee earned when the transfer was completed).
 */
export function entryLines(kind: TransferEntryKind, t: TransferMoney): LedgerLine[] {
  const source = t.source_provider;
  switch (kind) {
    case 'payment':
      return move(source, 'customer_funds', t.currency, received(t));
    case 'payout':
      return [
        ...move('customer_funds', 'fx', t.currency, minor(t.amount, t.currency)),
        ...move('fx', t.destination_provider, t.payout_currency, minor(t.payout_amount, t.payout_currency)),
      ];
    case 'fee':
      return move('customer_funds', 'fee_revenue', t.currency, minor(t.fee, t.currency));
    case 'refund_due':
      return move('customer_funds', 'refunds_payable', t.currency, received(t));
    case 'refund':
      return move('refunds_payable', source, t.currency, received(t));
    case 'payout_reversal':
      return [
        ...move(t.destination_provider, 'fx', t.payout_currency, minor(t.payout_amount, t.payout_currency)),
        ...move('fx', 'customer_funds', t.currency, minor(t.amount, t.currency)),
      ];
    case 'fee_reversal':
      return move('fee_revenue', 'customer_funds', t.currency, minor(t.fee, t.currency));
  }
}

/**
 * The lines of money received twice (a second payment for a transfer already paid): it arrives at
 * the source channel and is owed back to the sender at once (duplicate_payment); giving it back
 * takes it out of the channel again (duplicate_refund).
 */
export function duplicateLines(kind: DuplicateEntryKind, source: ChannelId, currency: Currency, amount: Decimal): LedgerLine[] {
  const owed = minor(amount, currency);
  return kind === 'duplicate_payment'
    ? move(source, 'refunds_payable', currency, owed)
    : move('refunds_payable', source, currency, owed);
}

/** The currency each provider account holds. */
export const providerCurrency = (account: ChannelId): Currency => CHANNELS[account].currency;
