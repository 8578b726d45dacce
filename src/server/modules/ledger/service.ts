import type { Stats } from '@core/api/admin.js';
import type { LedgerBalances, LedgerEntry } from '@core/api/ledger.js';
import type { ChannelId } from '@core/channels.js';
import { duplicateLines, entryLines, type TransferEntryKind, type TransferMoney } from '@core/ledger.js';
import type { Currency, Decimal } from '@core/money.js';
import type { Db, Tx } from '@server/db/client.js';
import { balanceRows, currencyTotals, entriesOfTransfer, entrySequence, insertEntries, insertEntry, moneyTotalRows } from './repo.js';

// The books (docs/rules/money-states.md#ledger): each movement of a transfer's money is
// posted in the transaction that records it, so the books and the transfer never disagree.

/** Posts one movement of a transfer's money; the caller's transaction commits both or neither. */
export function postTransferEntry(tx: Tx, kind: TransferEntryKind, transfer: TransferMoney & { id: string }, by: { actorId: string | null; reference: string | null }): Promise<number> {
  return insertEntry(tx, { transferId: transfer.id, kind, reference: by.reference, actorId: by.actorId, lines: entryLines(kind, transfer) });
}

/** `postTransferEntry` for many movements at once, at most one of a kind per transfer; by no one unless `actorId` says who. */
export function postTransferEntries(tx: Tx, posts: readonly { kind: TransferEntryKind; transfer: TransferMoney & { id: string }; reference: string | null; actorId?: string | null }[]): Promise<void> {
  return insertEntries(tx, posts.map(({ kind, transfer, reference, actorId }) => ({ transferId: transfer.id, kind, reference, actorId: actorId ?? null, lines: entryLines(kind, transfer) })));
}

/** A second payment for one transfer: where it came from, and how much. */
export interface DuplicateMoney {
  transferId: string;
  source: ChannelId;
  currency: Currency;
  amount: Decimal;
}

/**
 * Money received twice for a transfer: into the source channel and owed back to the sender at once
 * (refunds payable), with the collection's reference. Each one on a transfer takes the next number.
 */
export function postDuplicatePayment(tx: Tx, money: DuplicateMoney, reference: string): Promise<number> {
  return insertEntry(tx, {
    transferId: money.transferId, kind: 'duplicate_payment', reference, actorId: null,
    lines: duplicateLines('duplicate_payment', money.source, money.currency, money.amount),
  });
}

/**
 * Its refund, made by staff: out of refunds payable and the source channel, numbered as the
 * duplicate payment carrying `paymentReference` (the database keeps one refund for each).
 */
export async function postDuplicateRefund(tx: Tx, money: DuplicateMoney, by: { paymentReference: string; reference: string; actorId: string }): Promise<number> {
  const sequence = await entrySequence(tx, money.transferId, 'duplicate_payment', by.paymentReference);
  if (sequence === null) throw new Error(`ledger: transfer ${money.transferId} has no duplicate payment ${by.paymentReference}`);
  return insertEntry(tx, {
    transferId: money.transferId, kind: 'duplicate_refund', reference: by.reference, actorId: by.actorId, sequence,
    lines: duplicateLines('duplicate_refund', money.source, money.currency, money.amount),
  });
}

export async function balances(db: Db): Promise<LedgerBalances> {
  const [rows, totals] = await Promise.all([balanceRows(db), currencyTotals(db)]);
  return { balances: rows, totals };
}

export async function transferEntries(db: Db, transferId: string): Promise<LedgerEntry[]> {
  const entries = await entriesOfTransfer(db, transferId);
  return entries.map((e) => ({
    id: e.id, transfer_request_id: e.transfer_request_id, kind: e.kind, sequence: e.sequence, reference: e.reference,
    actor_profile_id: e.actor_profile_id, created_at: e.created_at.toISOString(),
    lines: e.lines.map((l) => ({ id: l.id, account: l.account, currency: l.currency, amount: l.amount })),
  }));
}

/** The admin's money figures per currency, read from the running balances (docs/rules/money-states.md: totals come from the ledger). */
export async function moneyTotals(db: Db): Promise<NonNullable<Stats['money']>> {
  return moneyTotalRows(db);
}
