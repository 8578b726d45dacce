import type { StaffRequestJson } from '@core/api/transfers.js';
import { approvalError } from '@core/approval.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { assertNotHeld } from '../holds/service.js';
import { queueRailPayout } from './queue-rail-payout.js';
import { lockRequest, writeApproval } from './repo.js';
import { staffRequest } from './staff-view.js';

/**
 * A second staff member approves a transfer at or above its currency's threshold
 * (docs/rules/back-office.md#four-eyes): never the sender, never who processes it; audited.
 */
export async function approveTransfer(ctx: AppContext, actor: Actor, id: string): Promise<StaffRequestJson> {
  await ctx.db.transaction(async (tx) => {
    const current = await lockRequest(tx, id);
    if (!current) throw new AppError('not_found');
    const refusal = approvalError(current, actor.profile_id, await approvalRequiredFor(tx, current));
    if (refusal) throw new AppError(refusal);
    await assertNotHeld(tx, id);
    const approval = await writeApproval(tx, id, actor.profile_id);
    await recordAudit(tx, actor, {
      action: 'transfer_request.approve', target: 'transfer', id,
      before: { status: current.status, approved_by: null, approved_at: null },
      after: { status: current.status, approved_by: approval.approved_by, approved_at: approval.approved_at?.toISOString() ?? null },
    });
    // The approval may clear the payout's last control.
    await queueRailPayout(tx, current, ctx.config.JOB_MAX_ATTEMPTS);
  });
  const row = await staffRequest(ctx, id);
  if (!row) throw new AppError('not_found');
  return row;
}
