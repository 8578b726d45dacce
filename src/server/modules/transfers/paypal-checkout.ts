import { parseAmount, type Currency } from '@core/money.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import type { AuthUser } from '../auth/service.js';
import { PayPalError, approvalLink, authorizeOrder, createOrder, getOrder, orderAuthorization, type PayPalOrder, type PayPalPayment } from './paypal-client.js';
import { usesPayPal } from './money-step.js';
import { recordAuthorization } from './record-paypal-authorization.js';
import { findByOrder, findRequest, setOrderId, type TransferRequestRow } from './repo.js';

// The sender pays a PayPal transfer: PayPal's approval page (an order for the total), and the
// payer's return, where the order is authorized server-side (docs/rules/money-states.md).

/** The PayPal approval page again, for the sender of a transfer who left PayPal before paying. */
export async function paypalCheckout(ctx: AppContext, user: Pick<AuthUser, 'profile_id'>, id: string): Promise<string> {
  const row = await findRequest(ctx.db, id);
  if (!row || row.profile_id !== user.profile_id) throw new AppError('not_found');
  if (!usesPayPal(ctx, row) || row.payment_status !== 'awaiting' || row.status !== 'pending') throw new AppError('paypal_not_payable');
  return paypalApproval(ctx, row);
}

/** A PayPal order for the total in the source currency; its approval page is where the sender pays. */
export async function paypalApproval(ctx: AppContext, row: TransferRequestRow): Promise<string> {
  try {
    const order = row.provider_order_id
      ? await getOrder(ctx.config, row.provider_order_id)
      : await createOrder(ctx.config, {
        requestId: row.id, reference: row.reference, currency: row.currency, total: row.total,
        description: `Transfer ${row.reference}`,
        returnUrl: `${ctx.config.publicUrl}/api/payments/paypal/return`,
        cancelUrl: `${ctx.config.publicUrl}/api/payments/paypal/cancel`,
      });
    if (!row.provider_order_id) {
      await setOrderId(ctx.db, row.id, order.id);
    }
    const link = approvalLink(order);
    if (!link) throw new PayPalError(502, null, 'PayPal order without an approval link');
    return link;
  } catch (err) {
    ctx.log.error({ err, requestId: row.id }, 'PayPal order creation failed');
    throw new AppError('paypal_unavailable');
  }
}

/**
 * The payer is back from PayPal: the order is authorized server-side (PayPal holds the money,
 * nothing is charged until staff move the transfer to processing) and the payment `authorized`;
 * a transfer cancelled or rejected meanwhile has the authorization voided by a queued job.
 * Returns the transfer, or null for an unknown order.
 */
export async function authorizePayPalReturn(ctx: AppContext, orderId: string): Promise<TransferRequestRow | null> {
  const row = await findByOrder(ctx.db, orderId);
  if (!row) return null;
  if (row.payment_status !== 'awaiting') return row;
  let order: PayPalOrder;
  try {
    order = await authorizeOrder(ctx.config, orderId);
  } catch (err) {
    // A repeated return after an authorization that already happened: read the order instead.
    const again = err instanceof PayPalError && err.issue === 'ORDER_ALREADY_AUTHORIZED'
      ? await getOrder(ctx.config, orderId).catch(() => null) : null;
    if (!again) {
      ctx.log.warn({ err, requestId: row.id }, 'PayPal authorization failed');
      return row;
    }
    order = again;
  }
  const authorization = orderAuthorization(order);
  if (!authorization || !holdsTheTotal(authorization, row)) {
    ctx.log.error({ requestId: row.id, orderId }, 'PayPal authorization missing or for another amount');
    return row;
  }
  return (await recordAuthorization(ctx, row.id, authorization.id)) ?? row;
}

/** An authorization PayPal holds (created, or pending review) for the transfer's total, when it says its amount. */
function holdsTheTotal(authorization: PayPalPayment, row: TransferRequestRow): boolean {
  if (authorization.status !== 'CREATED' && authorization.status !== 'PENDING') return false;
  const amount = authorization.amount;
  const currency = row.currency as Currency;
  return !amount || (amount.currency_code === row.currency && parseAmount(amount.value, currency) === parseAmount(row.total, currency));
}

/** The transfer a PayPal order pays, if any. */
export const transferOfOrder = (ctx: Pick<AppContext, 'db'>, orderId: string): Promise<TransferRequestRow | null> => findByOrder(ctx.db, orderId);
