import { moneyActionError } from '@core/money-states.js';
import type { RefundRecord } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import { assertNotHeld } from '../holds/service.js';
import { moneyStep, refuseIf, type StaffActor } from './money-step.js';
import type { TransferRequestRow } from './repo.js';

/** Staff paid the money back by hand (bank transfer, mobile money): its reference closes what was owed. */
export function recordRefund(ctx: AppContext, actor: StaffActor, id: string, body: RefundRecord): Promise<TransferRequestRow> {
  return moneyStep(ctx, actor, id, async (row, tx) => {
    refuseIf(moneyActionError(row, 'refund'));
    await assertNotHeld(tx, row.id);
    if (!body.reference) {
      throw new AppError('validation_failed', { fields: { reference: 'validation.refundReferenceRequired' } });
    }
    return {
      set: { payment_status: 'refunded', refund_reference: body.reference, refunded_by: actor.profile_id, refunded_at: new Date() },
      events: ['refunded'],
      entries: ['refund'],
      reference: body.reference,
      mail: 'refunded',
      audit: 'transfer_request.refund',
    };
  });
}
