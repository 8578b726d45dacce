import type { Stats } from '@core/api/admin.js';
import type { LedgerBalances, LedgerEntry } from '@core/api/ledger.js';
import { entryLines, type EntryKind, type TransferMoney } from '@core/ledger.js';
import type { Db, Tx } from '@server/db/client.js';
import { balanceRows, currencyTotals, entriesOfTransfer, insertEntry, moneyTotalRows } from './repo.js';

// The books (docs/rules/money-states.md#ledger): each movement of a transfer's money is
// posted in the transaction that records it, so the books and the transfer never disagree.

/** Posts one movement of a transfer's money; the caller's transaction commits both or neither. */
export function postTransferEntry(tx: Tx, kind: EntryKind, transfer: TransferMoney & { id: string }, by: { actorId: string | null; reference: string | null }): Promise<number> {
  return insertEntry(tx, { transferId: transfer.id, kind, reference: by.reference, actorId: by.actorId, lines: entryLines(kind, transfer) });
}

export async function balances(db: Db): Promise<LedgerBalances> {
  const [rows, totals] = await Promise.all([balanceRows(db), currencyTotals(db)]);
  return { balances: rows, totals };
}

export async function transferEntries(db: Db, transferId: string): Promise<LedgerEntry[]> {
  const entries = await entriesOfTransfer(db, transferId);
  return entries.map((e) => ({
    id: e.id, transfer_request_id: e.transfer_request_id, kind: e.kind, reference: e.reference,
    actor_profile_id: e.actor_profile_id, created_at: e.created_at.toISOString(),
    lines: e.lines.map((l) => ({ id: l.id, account: l.account, currency: l.currency, amount: l.amount })),
  }));
}

/** The admin's money figures per currency, read from the running balances (docs/rules/money-states.md: totals come from the ledger). */
export async function moneyTotals(db: Db): Promise<NonNullable<Stats['money']>> {
  return moneyTotalRows(db);
}
