import { awaitsPayment, moneyActionError } from '@core/money-states.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { recordPayment } from './record-payment.js';
import { lockRequest, type TransferRequestRow } from './repo.js';
import { type Caller, visibleRequest } from './visible-transfer.js';

// The transfer's side of a payment collected from the sender's own wallet through an operator
// (docs/rules/payout-rails.md#collections): only its sender asks for it, only while it waits for
// their payment, and the operator's confirmation records the payment received as staff do.

/** The caller's own transfer (anyone else's is "not found"), refused with the reason when nothing is to be paid for it. */
export async function awaitingSendersPayment(db: Db, caller: Caller, id: string): Promise<TransferRequestRow> {
  const row = await visibleRequest(db, caller, id, false);
  if (!awaitsPayment(row)) throw new AppError(moneyActionError(row, 'payment') ?? 'transfer_closed');
  return row;
}

/** The caller's own transfer, whatever its state; "not found" for anyone else's. */
export function sendersTransfer(db: Db, caller: Caller, id: string): Promise<TransferRequestRow> {
  return visibleRequest(db, caller, id, false);
}

/** Locks the transfer until `tx` ends, refused with the reason when it no longer waits for its payment. */
export async function lockAwaitingPayment(tx: Tx, id: string): Promise<TransferRequestRow> {
  const row = await lockRequest(tx, id);
  if (!row) throw new AppError('not_found');
  if (!awaitsPayment(row)) throw new AppError(moneyActionError(row, 'payment') ?? 'transfer_closed');
  return row;
}

/**
 * The operator confirmed the money left the sender's wallet: the payment is recorded received
 * exactly as staff record it (state, timeline, books, e-mail, the payout's start), by no one.
 * False when the transfer's payment was recorded otherwise meanwhile: the money came twice, and
 * the caller hands it to staff.
 */
export async function recordCollectedPayment(ctx: Pick<AppContext, 'config' | 'db'>, tx: Tx, id: string, amount: string, reference: string): Promise<boolean> {
  const row = await lockRequest(tx, id);
  if (!row || moneyActionError(row, 'payment')) return false;
  await recordPayment(ctx, null, id, { amount, reference }, tx);
  return true;
}
