import { isFinalStatus } from '@core/status.js';
import { lockRequest, writeMoney, type TransferRequestRow } from './repo.js';
import type { MoneyContext } from './money-step.js';
import { queueVoid } from './void-paypal-authorization.js';

// A PayPal transfer's money (docs/rules/money-states.md#paypal): the sender's approval is
// authorized (PayPal holds the money), staff capture it as they take the transfer into
// processing, and a closed transfer's authorization is voided, a refund made, by queued jobs.

/**
 * The payer approved and PayPal authorized the order: the payment is `authorized`, nothing
 * charged. A transfer cancelled or rejected meanwhile keeps nothing: its void is queued at once.
 * Null for an unknown transfer; the row as it was when its payment was no longer awaiting.
 */
export function recordAuthorization(ctx: MoneyContext, id: string, authorizationId: string): Promise<TransferRequestRow | null> {
  return ctx.db.transaction(async (tx) => {
    const row = await lockRequest(tx, id);
    if (!row || row.payment_status !== 'awaiting') return row;
    const written = await writeMoney(tx, {
      from: row, set: { payment_status: 'authorized', provider_authorization_id: authorizationId },
      events: ['payment_authorized'], actor: null, note: null,
    });
    if (isFinalStatus(written.status)) await queueVoid(ctx, tx, written);
    return written;
  });
}
