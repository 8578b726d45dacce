import { sameStaffError, unapprovedError } from '@core/approval.js';
import { moneyActionError } from '@core/money-states.js';
import type { PayoutRecord } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import { railPayoutBlock } from '@server/db/shared-sql/rail-payout-block.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { assertNotHeld } from '../holds/service.js';
import { moneyStep, refuseIf, type StaffActor } from './money-step.js';
import type { TransferRequestRow } from './repo.js';

/**
 * The payout went out to the recipient: the operator's or bank's reference is kept. At or above
 * its threshold, only once a second staff member approved the transfer, and not by that approver.
 * Never while the transfer's rail may still pay it (docs/rules/payout-rails.md#needs-attention).
 */
export function recordPayout(ctx: AppContext, actor: StaffActor, id: string, body: PayoutRecord): Promise<TransferRequestRow> {
  return moneyStep(ctx, actor, id, async (row, tx) => {
    refuseIf(moneyActionError(row, 'payout'));
    const fourEyes = unapprovedError(row, await approvalRequiredFor(tx, row), 'payout') ?? sameStaffError(row, actor.profile_id);
    if (fourEyes) throw new AppError(fourEyes);
    await assertNotHeld(tx, row.id);
    // Paid by hand while the operator's rail may still pay, or before staff chose to, it could be paid twice.
    const railBlock = await railPayoutBlock(tx, row.id);
    if (railBlock) throw new AppError(railBlock);
    return {
      set: { payout_status: 'sent', payout_reference: body.reference, payout_sent_by: actor.profile_id, payout_sent_at: new Date() },
      events: ['payout_sent'],
      entries: ['payout'],
      reference: body.reference,
      mail: 'payout',
      audit: 'transfer_request.payout',
    };
  });
}
