import type { HistoryStep, TransactionJson, TransferRequestJson } from '@core/api/transfers.js';
import type { HistoryRow, TransactionRow, TransferRequestRow } from './repo.js';

// Rows as the API answers them. Channel, currency and direction columns are text written only
// from validated input, so they hold the core's ids: the answer's types say so, and the response
// schemas check it as each answer is sent.

/** The recipient's tracking page for a token (D15); none once the sender revoked it. */
export const trackingUrl = (publicUrl: string, token: string | null) => (token ? `${publicUrl}/t/${token}` : null);

/**
 * A transfer request as every API answer shows it: amounts stay the exact decimal strings the
 * database holds; the idempotency columns are internal and never leave the server, and the
 * tracking token leaves only as its link (publicUrl: the app's, ctx.config.publicUrl).
 */
export function transferRequestToJson(row: TransferRequestRow, publicUrl: string): TransferRequestJson {
  const { idempotency_key: _key, idempotency_hash: _hash, tracking_token: token, ...rest } = row;
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    ...rest,
    tracking_url: trackingUrl(publicUrl, token),
    action_message: row.action_needed ? row.action_message ?? null : null,
    payment_recorded_at: iso(row.payment_recorded_at),
    payout_sent_at: iso(row.payout_sent_at),
    refunded_at: iso(row.refunded_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  } as TransferRequestJson;
}

/** One step of the timeline the sender sees (who acted is given by role only). */
export function historyToJson(row: HistoryRow): HistoryStep {
  return {
    from_status: row.from_status,
    to_status: row.to_status,
    event: row.event,
    note: row.note,
    actor_role: row.actor_role,
    created_at: row.created_at.toISOString(),
  };
}

/**
 * A transaction as the history and dashboard list it, plus what its transfer request adds for
 * the screens and the receipt (reference, fee, rate, payout, channels).
 */
export function transactionToJson(row: TransactionRow, request: Pick<TransferRequestRow,
  'reference' | 'source_provider' | 'destination_provider' | 'fee' | 'total' | 'rate' | 'payout_amount' |
  'payout_currency' | 'payout_reference' | 'payment_status' | 'payment_amount' | 'payment_reference' | 'payout_status' |
  'refund_reference' | 'tracking_token' | 'action_needed' | 'action_message' | 'payment_recorded_at'>, publicUrl: string): TransactionJson {
  const { tracking_token: token, ...fields } = request;
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
    ...fields,
    tracking_url: trackingUrl(publicUrl, token),
    action_message: fields.action_needed ? fields.action_message ?? null : null,
    // When the delivery clock started (src/core/delivery.ts), as the detail gives it.
    payment_recorded_at: fields.payment_recorded_at?.toISOString() ?? null,
  } as TransactionJson;
}
