import type { TransferRefundJson } from '@core/api/transfers.js';
import { moneyActionError } from '@core/money-states.js';
import type { RefundRecord } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import { refuseIf, type StaffActor } from './money-step.js';
import { recordRefund } from './record-refund.js';
import { refundRequestedAt, requestPayPalRefund } from './refund-paypal-payment.js';
import { findRequest, type TransferRequestRow } from './repo.js';
import { transferRequestToJson } from './serialize.js';

// Staff give back what a transfer owes (docs/rules/money-states.md).

/**
 * Staff refund what a transfer owes back: a PayPal capture through PayPal's refund API (a job
 * queued now, `refunded` once PayPal confirms: the answer says when it was requested), anything
 * else recorded at once with the reference of the refund staff made by hand.
 */
export async function refundTransfer(ctx: AppContext, actor: StaffActor, id: string, body: RefundRecord): Promise<TransferRefundJson> {
  const refuse = (row: TransferRequestRow) => refuseIf(moneyActionError(row, 'refund'));
  if (await requestPayPalRefund(ctx, actor, id, refuse)) {
    // As it stands now: the worker may already have done the refund.
    const row = await findRequest(ctx.db, id);
    if (!row) throw new AppError('not_found');
    return { ...transferRequestToJson(row, ctx.config.publicUrl), refund_requested_at: (await refundRequestedAt(ctx.db, id))?.toISOString() ?? null };
  }
  return { ...transferRequestToJson(await recordRefund(ctx, actor, id, body), ctx.config.publicUrl), refund_requested_at: null };
}
