import type { HistoryStep, TransactionJson, TransferRequestJson } from '@core/api/transfers.js';
import { normalizeDecimal } from '@core/money.js';
import type { AnsweredRequestRow, HistoryRow, OwnTransactionRow } from './repo.js';

// Rows as the API answers them. Channel, currency and direction columns are text written only
// from validated input, so they hold the core's ids: the answer's types say so, and the response
// schemas check it as each answer is sent.

/** A stored rate as the API writes it: its 20 decimals without the trailing zeros ("610", "0.00152449016627735080"). */
const rateText = (rate: string) => normalizeDecimal(rate) ?? rate;

/** The recipient's tracking page for a token (docs/rules/transfers.md#tracking-link); none once the sender revoked it. */
export const trackingUrl = (publicUrl: string, token: string | null) => (token ? `${publicUrl}/t/${token}` : null);

/**
 * A transfer request as every API answer shows it: amounts stay the exact decimal strings the
 * database holds; the idempotency columns and who did what stay internal, and the tracking token
 * leaves only as its link (publicUrl: the app's, ctx.config.publicUrl). Field by field, the answer's
 * own list: a column added to the table reaches no answer until it is named here (and spreading a
 * whole row was the list's costliest step).
 */
export function transferRequestToJson(row: AnsweredRequestRow, publicUrl: string): TransferRequestJson {
  return {
    id: row.id,
    reference: row.reference,
    profile_id: row.profile_id,
    direction: row.direction,
    source_provider: row.source_provider,
    source_details: row.source_details,
    destination_provider: row.destination_provider,
    destination_details: row.destination_details,
    amount: row.amount,
    currency: row.currency,
    fee: row.fee,
    total: row.total,
    rate: rateText(row.rate),
    payout_amount: row.payout_amount,
    payout_currency: row.payout_currency,
    fee_tier_id: row.fee_tier_id,
    quote_id: row.quote_id,
    status: row.status,
    payment_status: row.payment_status,
    provider_order_id: row.provider_order_id,
    provider_txn_id: row.provider_txn_id,
    payment_amount: row.payment_amount,
    payment_reference: row.payment_reference,
    payment_flagged: row.payment_flagged,
    payment_recorded_at: row.payment_recorded_at?.toISOString() ?? null,
    payout_status: row.payout_status,
    payout_reference: row.payout_reference,
    payout_sent_at: row.payout_sent_at?.toISOString() ?? null,
    refund_reference: row.refund_reference,
    refunded_at: row.refunded_at?.toISOString() ?? null,
    tracking_url: trackingUrl(publicUrl, row.tracking_token),
    action_needed: row.action_needed,
    action_message: row.action_needed ? row.action_message ?? null : null,
    version: row.version,
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
 * the screens and the receipt (reference, fee, rate, payout, channels). Field by field, as above.
 */
export function transactionToJson(row: OwnTransactionRow, publicUrl: string): TransactionJson {
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
    reference: row.reference,
    source_provider: row.source_provider,
    destination_provider: row.destination_provider,
    fee: row.fee,
    total: row.total,
    rate: rateText(row.rate),
    payout_amount: row.payout_amount,
    payout_currency: row.payout_currency,
    payout_reference: row.payout_reference,
    payment_status: row.payment_status,
    payment_amount: row.payment_amount,
    payment_reference: row.payment_reference,
    payout_status: row.payout_status,
    refund_reference: row.refund_reference,
    tracking_url: trackingUrl(publicUrl, row.tracking_token),
    action_needed: row.action_needed,
    action_message: row.action_needed ? row.action_message : null,
    // When the delivery clock started (src/core/delivery.ts), as the detail gives it.
    payment_recorded_at: row.payment_recorded_at?.toISOString() ?? null,
    has_proof: row.has_proof,
    // Held: the sender is told only that it is being checked.
    ...(row.on_hold ? { on_hold: true } : {}),
  } as TransactionJson;
}
