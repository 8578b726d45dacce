import { sql } from 'drizzle-orm';
import type { CloseOutJson } from '@core/api/transfers.js';
import { AppError } from '@core/errors.js';
import { isOwnCase } from '@core/own-case.js';
import { OPEN_STATUSES } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { railPayoutBlock } from '@server/db/shared-sql/rail-payout-block.js';
import { recordAudit } from '../audit/service.js';
import { auditSnapshot, type StaffActor } from './money-step.js';
import { notifyStatusChange } from './notifications.js';
import { lockRequest, writeStatus, type TransferRequestRow } from './repo.js';
import { queueVoid } from './void-paypal-authorization.js';

// Closing out a transfer after a confirmed sanctions match (docs/rules/screening.md#closing-out-a-confirmed-match):
// one staff member proposes it with a reason that stays internal, a second one confirms it; the
// transfer is then rejected, its holds kept (the money frozen: no payout, no refund), and its
// sender told only that it cannot go ahead. Neither step is taken on one's own case, both audited.

type CloseOutRow = {
  alert_id: string; reason: string; proposed_by: string | null; proposed_name: string | null; proposed_at: string;
  confirmed_by: string | null; confirmed_name: string | null; confirmed_at: string | null;
};

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** The confirmed screening alert behind an unreleased hold of the transfer (its own or its sender's), or null. */
async function confirmedMatch(db: Db | Tx, transfer: Pick<TransferRequestRow, 'id' | 'profile_id'>): Promise<string | null> {
  const result = await db.execute<{ id: string }>(sql`select a.id from compliance_holds h
    join screening_alerts a on a.id = h.source_id and a.status = 'confirmed'
    where h.released_at is null and h.reason = 'screening'
      and (h.transfer_request_id = ${transfer.id}::uuid or (h.transfer_request_id is null and h.profile_id = ${transfer.profile_id}::uuid))
    order by a.second_at limit 1`);
  return result.rows[0]?.id ?? null;
}

async function closeOutRow(db: Db | Tx, transferId: string): Promise<CloseOutRow | null> {
  const result = await db.execute<CloseOutRow>(sql`select c.alert_id, c.reason, c.proposed_by, p.full_name as proposed_name,
      c.proposed_at::text, c.confirmed_by, f.full_name as confirmed_name, c.confirmed_at::text
    from compliance_close_outs c left join profiles p on p.id = c.proposed_by left join profiles f on f.id = c.confirmed_by
    where c.transfer_request_id = ${transferId}::uuid`);
  return result.rows[0] ?? null;
}

/** What staff read of a transfer's close-out: whether one may be proposed now, and the proposal or decision. */
export async function closeOutOf(db: Db, transfer: TransferRequestRow): Promise<CloseOutJson> {
  const [match, row] = await Promise.all([confirmedMatch(db, transfer), closeOutRow(db, transfer.id)]);
  const open = (OPEN_STATUSES as readonly string[]).includes(transfer.status) && transfer.payout_status === 'not_sent';
  return {
    allowed: open && match !== null,
    proposal: row ? {
      reason: row.reason, proposed_by: row.proposed_by ? { profile_id: row.proposed_by, full_name: row.proposed_name } : null,
      proposed_at: iso(row.proposed_at)!,
      confirmed_by: row.confirmed_by ? { profile_id: row.confirmed_by, full_name: row.confirmed_name } : null,
      confirmed_at: iso(row.confirmed_at),
    } : null,
  };
}

/** The transfer locked, and refused unless open, not paid out, held by a confirmed match, and not the staff member's own. */
async function lockCloseable(tx: Tx, id: string, actor: StaffActor): Promise<{ row: TransferRequestRow; alertId: string }> {
  const row = await lockRequest(tx, id);
  if (!row) throw new AppError('not_found');
  if (isOwnCase([row.profile_id], actor.profile_id)) throw new AppError('own_case');
  const alertId = await confirmedMatch(tx, row);
  if (!(OPEN_STATUSES as readonly string[]).includes(row.status) || row.payout_status !== 'not_sent' || !alertId) {
    throw new AppError('close_out_not_allowed');
  }
  // Rejected while the operator's rail may still pay it, the payout would go out all the same.
  if (await railPayoutBlock(tx, row.id) === 'payout_attempt_open') throw new AppError('payout_attempt_open');
  return { row, alertId };
}

/** POST /api/transfer-requests/{id}/close-out: any staff member proposes it, with the reason kept internal (audited). */
export async function proposeCloseOut(ctx: AppContext, actor: StaffActor, id: string, reason: string): Promise<CloseOutJson> {
  const row = await ctx.db.transaction(async (tx) => {
    const { row: locked, alertId } = await lockCloseable(tx, id, actor);
    if (await closeOutRow(tx, id)) throw new AppError('close_out_proposed');
    await tx.execute(sql`insert into compliance_close_outs (transfer_request_id, alert_id, reason, proposed_by)
      values (${id}::uuid, ${alertId}::uuid, ${reason}, ${actor.profile_id}::uuid)`);
    await recordAudit(tx, { ...actor, ip: actor.ip ?? null }, {
      action: 'transfer_request.close_out_propose', target: 'transfer', id, after: { alert_id: alertId, reason },
    });
    return locked;
  });
  return closeOutOf(ctx.db, row);
}

/**
 * POST /api/transfer-requests/{id}/close-out/confirm: a second staff member (not the proposer)
 * confirms; the transfer is rejected with no note the sender reads, its holds stay, and the sender's
 * e-mail says only that it was rejected (audited, the proposer named).
 */
export async function confirmCloseOut(ctx: AppContext, actor: StaffActor, id: string): Promise<CloseOutJson> {
  const closed = await ctx.db.transaction(async (tx) => {
    const { row } = await lockCloseable(tx, id, actor);
    const proposal = await closeOutRow(tx, id);
    if (!proposal || proposal.confirmed_at) throw new AppError('close_out_not_proposed');
    if (proposal.proposed_by === actor.profile_id) throw new AppError('close_out_same_staff');
    await tx.execute(sql`update compliance_close_outs set confirmed_by = ${actor.profile_id}::uuid, confirmed_at = now()
      where transfer_request_id = ${id}::uuid`);
    // The payment as it stands: received money stays, frozen (never refund_due); an authorization
    // never captured is released by the void job; an unpaid transfer stays unpaid.
    const written = await writeStatus(tx, { from: row, to: 'rejected', actor, note: null, paymentStatus: row.payment_status });
    await queueVoid(ctx, tx, written);
    await notifyStatusChange(ctx, tx, written, null);
    await recordAudit(tx, { ...actor, ip: actor.ip ?? null }, {
      action: 'transfer_request.close_out', target: 'transfer', id, before: auditSnapshot(row),
      after: { ...auditSnapshot(written), alert_id: proposal.alert_id, reason: proposal.reason, proposed_by: proposal.proposed_by },
    });
    return written;
  });
  return closeOutOf(ctx.db, closed);
}
