import { moneyActionError, paymentMismatch } from '@core/money-states.js';
import { parseAmount, toDecimal, type Currency } from '@core/money.js';
import type { PaymentRecord } from '@core/schemas.js';
import { isFinalStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { moneyStep, refuseIf, usesPayPal, type StaffActor } from './money-step.js';
import type { TransferRequestRow } from './repo.js';

/**
 * Money paid by hand, checked against the statement: recorded as received (the amount as it
 * is, flagged when it differs from the total due). Money that arrives for a transfer already
 * cancelled or rejected is recorded too, and owed back at once. With no staff member (`actor`
 * null), the operator confirmed a collection from the sender's wallet: the same step, by no one
 * (docs/rules/payout-rails.md#collections), in the caller's transaction.
 */
export function recordPayment(ctx: Pick<AppContext, 'config' | 'db'>, actor: StaffActor | null, id: string, body: PaymentRecord, tx?: Tx): Promise<TransferRequestRow> {
  return moneyStep(ctx, actor, id, (row) => {
    refuseIf(moneyActionError(row, 'payment'));
    if (usesPayPal(ctx, row)) throw new AppError('payment_through_pay_pal');
    const currency = row.currency as Currency;
    const received = parseAmount(body.amount, currency);
    if (received === null || received <= 0) {
      throw new AppError('validation_failed', { fields: { amount: 'validation.paymentAmountInvalid' } });
    }
    const owedBack = isFinalStatus(row.status);
    return {
      set: {
        payment_status: owedBack ? 'refund_due' : 'received',
        payment_amount: toDecimal(received, currency),
        payment_reference: body.reference,
        payment_flagged: paymentMismatch(received, parseAmount(row.total, currency) ?? 0),
        payment_recorded_by: actor?.profile_id ?? null,
        payment_recorded_at: new Date(),
      },
      events: owedBack ? ['payment_received', 'refund_due'] : ['payment_received'],
      entries: owedBack ? ['payment', 'refund_due'] : ['payment'],
      reference: body.reference,
      mail: 'paid',
      audit: 'transfer_request.payment',
    };
  }, tx);
}
