import type { TransferRequestRow } from './status-service.js';
import type { transactions, transferStatusHistory } from '../../db/schema.js';

/**
 * A transfer request as every API answer shows it: amounts stay the exact decimal strings the
 * database holds; the idempotency columns are internal and never leave the server.
 */
export function transferRequestToJson(row: TransferRequestRow) {
  const { idempotency_key: _key, idempotency_hash: _hash, ...rest } = row;
  return {
    ...rest,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type TransferRequestJson = ReturnType<typeof transferRequestToJson>;

type HistoryRow = typeof transferStatusHistory.$inferSelect;

/** One step of the timeline the sender sees (who acted is given by role only). */
export function historyToJson(row: HistoryRow) {
  return {
    from_status: row.from_status,
    to_status: row.to_status,
    note: row.note,
    actor_role: row.actor_role,
    created_at: row.created_at.toISOString(),
  };
}

type TransactionRow = typeof transactions.$inferSelect;

/**
 * A transaction as the history and dashboard list it: the spec §3 fields plus what its transfer
 * request adds for the screens and the receipt (reference, fee, rate, payout, channels).
 */
export function transactionToJson(row: TransactionRow, request: Pick<TransferRequestRow,
  'reference' | 'source_provider' | 'destination_provider' | 'fee' | 'total' | 'rate' | 'payout_amount' |
  'payout_currency' | 'payout_reference' | 'payment_status'>) {
  return {
    id: row.id,
    transfer_request_id: row.transfer_request_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    direction: row.direction,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    provider_txn_id: row.provider_txn_id,
    destination_details: row.destination_details,
    metadata: row.metadata,
    ...request,
  };
}

export type TransactionJson = ReturnType<typeof transactionToJson>;
