import type { StaffTransferDetail, TransactionJson, TransferDetail, TransferRequestJson, TransferSummary } from '@core/api/transfers.js';
import { CHANNELS } from '@core/channels.js';
import { TRANSFER_STATUSES, isStaff, type TransferStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { type Cursor, decodeCursor, encodeCursor } from '@server/lib/cursor.js';
import { AppError } from '@core/errors.js';
import { lockSenders } from '@server/db/shared-sql/sender-usage.js';
import { activeHolds } from '../holds/service.js';
import { refundRequestedAt } from './refund-paypal-payment.js';
import {
  countOwnByStatus, historyOf, listProofs, ownRequestRows, ownTransactionRows, transactionIdOf, type TransferRequestRow,
} from './repo.js';
import { historyToJson, transactionToJson, transferRequestToJson } from './serialize.js';
import { proofToJson } from './payment-proofs.js';
import { staffDetailExtras } from './staff-view.js';
import { senderMessages } from './thread-json.js';
import { type Caller, visibleRequest } from './visible-transfer.js';

// A transfer as its sender and staff read it: the sender's lists and summary, one transfer's
// detail, how to pay it. Each change has its own file (initiate-transfer.ts, change-status.ts,
// refund-transfer.ts, payment-proofs.ts, …). See docs/rules/transfers.md.

export { usesPayPal } from './money-step.js';
export { authorizePayPalReturn, paypalCheckout, transferOfOrder } from './paypal-checkout.js';
export { transferRequestToJson } from './serialize.js';
export { lockForPayments, recordPayment, recordPayments, type PayableTransfer } from './record-payment.js';
export { recordRailReturns } from './rail-returns.js';
export { DeferredStepsSchema, queueSteps, type DeferredSteps } from './notifications.js';
export { moveManyToProcessing, tellProcessing } from './rail-processing.js';
export { lockForRailPayout, lockManyForRailPayout, markManyRailProcessing, markRailProcessing, railPayoutWait, railPayoutWaits, recordRailPayout, recordRailPayouts, recordRailReturn, tellSenderUnclaimed } from './rail-payout.js';
export { queueRailPayout } from './queue-rail-payout.js';
export { askRecipientCorrection, correctRecipient } from './recipient-correction.js';
/** A transfer's row, locked, for a change another module makes with it (its payout rail's decisions). */
export { lockRequest as lockTransfer } from './repo.js';
export { awaitingSendersPayment, lockAwaitingPayment, recordCollectedPayment, sendersTransfer } from './collected-payment.js';
export type { TransferRequestRow } from './repo.js';

// ---- the sender's lists ----

export interface OwnListQuery {
  cursor?: string | undefined;
  limit: number;
  status?: TransferStatus | undefined;
  open?: boolean | undefined;
  q?: string | undefined;
}

function decodedCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  const cursor = decodeCursor(raw);
  if (!cursor) throw new AppError('cursor_invalid');
  return cursor;
}

/** Shows `limit` of the `limit + 1` rows read; the extra one says a next page exists. */
function page<R extends { cursor_at: string; id: string }, T>(rows: R[], limit: number, toJson: (row: R) => T) {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    data: shown.map(toJson),
    next_cursor: rows.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/** The sender's own transfer requests, newest first. */
export async function listOwnRequests(ctx: AppContext, caller: Caller, query: OwnListQuery): Promise<{ data: TransferRequestJson[]; next_cursor: string | null }> {
  const rows = await ownRequestRows(ctx.db, caller.profile_id, { ...query, open: Boolean(query.open), cursor: decodedCursor(query.cursor) });
  // Held ones say only that they are being checked.
  return page(rows, query.limit, (r) => {
    const json = transferRequestToJson(r, ctx.config.publicUrl);
    if (r.on_hold) json.on_hold = true;
    return json;
  });
}

/** The sender's own transactions with the request fields the screens and receipts show, newest first. */
export async function listOwnTransactions(ctx: AppContext, caller: Caller, query: OwnListQuery): Promise<{ data: TransactionJson[]; next_cursor: string | null }> {
  const rows = await ownTransactionRows(ctx.db, caller.profile_id, { ...query, open: Boolean(query.open), cursor: decodedCursor(query.cursor) });
  return page(rows, query.limit, (r) => transactionToJson(r, ctx.config.publicUrl));
}

/** The dashboard's counts of the sender's transactions per status. */
export async function ownSummary(db: Db, caller: Caller): Promise<TransferSummary> {
  const counts = await countOwnByStatus(db, caller.profile_id);
  const perStatus = Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<TransferStatus, number>;
  return { total: Object.values(perStatus).reduce((a, b) => a + b, 0), ...perStatus };
}

/** How to pay a request: added to the detail while a payment is awaited (routes.ts). */

/** Waits for the sender's initiations under way, and holds new ones until `tx` ends (an account closing). */
export async function holdInitiations(tx: Tx, profileId: string): Promise<void> {
  await lockSenders(tx, [profileId]);
}

export type PaymentFields = 'payment_instructions' | 'paypal_checkout';

/** One request with its timeline and proofs: its sender's, or any for staff. */
export async function transferDetail(ctx: AppContext, caller: Caller, id: string): Promise<{
  row: TransferRequestRow; detail: Omit<TransferDetail, PaymentFields> | Omit<StaffTransferDetail, PaymentFields>;
}> {
  const { db } = ctx;
  const row = await visibleRequest(db, caller, id, true);
  // Staff get who did what and the whole thread; the sender only what is addressed to them.
  const [history, proofs, transactionId, refundRequested, thread, holds] = await Promise.all([
    historyOf(db, row.id), listProofs(db, row.id), transactionIdOf(db, row.id),
    row.payment_status === 'refund_due' ? refundRequestedAt(db, row.id) : null,
    isStaff(caller.role) ? staffDetailExtras(db, row) : senderMessages(db, row.id).then((messages) => ({ messages })),
    activeHolds(db, [row.id]),
  ]);
  return {
    row,
    detail: {
      ...transferRequestToJson(row, ctx.config.publicUrl),
      // The sender learns only that it is being checked; staff read the holds themselves.
      on_hold: holds.has(row.id),
      history: history.map(historyToJson),
      has_proof: proofs.length > 0,
      proofs: proofs.map(proofToJson),
      transaction_id: transactionId,
      refund_requested_at: refundRequested?.toISOString() ?? null,
      ...thread,
    },
  };
}

/** Where the sender pays a manual transfer: configuration, not code. */
export function paymentInstructions(ctx: AppContext, sourceProvider: string): string {
  switch (CHANNELS[sourceProvider as keyof typeof CHANNELS]?.kind === 'paypal' ? 'paypal' : sourceProvider) {
    case 'paypal': return ctx.config.PAYMENT_INSTRUCTIONS_PAYPAL;
    case 'airtel_gabon': return ctx.config.PAYMENT_INSTRUCTIONS_AIRTEL;
    case 'mobile_rwanda': return ctx.config.PAYMENT_INSTRUCTIONS_RWANDA;
    default: return ctx.config.PAYMENT_INSTRUCTIONS_BANK;
  }
}
