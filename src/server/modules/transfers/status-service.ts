import { eq, sql } from 'drizzle-orm';
import { transitionError, type StatusActor, type TransferStatus } from '../../../core/status.js';
import type { AppContext } from '../../context.js';
import { transactions, transferRequests, transferStatusHistory } from '../../db/schema.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { AuthUser } from '../auth/tokens.js';
import { notifyStatusChange } from './notifications.js';

export type TransferRequestRow = typeof transferRequests.$inferSelect;

export interface StatusChange {
  requestId: string;
  to: TransferStatus;
  actor: Pick<AuthUser, 'profile_id' | 'role'>;
  /** staff act on any request; an owner only on their own (others' are "not found"). */
  as: StatusActor;
  note?: string | null;
  /** A payout reference recorded when staff complete a payout (shown on the receipt). */
  payoutReference?: string | null;
  /**
   * The status the caller saw; a request changed since answers 409 instead of being overwritten.
   * Without it, the status read as the request arrives stands in for it.
   */
  expectedStatus?: TransferStatus;
}

const statusFailed = (reasonKey: string) => new HttpError(409, 'errors.statusUpdateFailed', {}, { reason: reasonKey });

/**
 * The one way a transfer's status moves (D5): locked row, legal move for that actor, stale
 * reads refused, transaction mirrored, history appended, and the sender e-mailed afterwards.
 */
export async function changeStatus(ctx: AppContext, change: StatusChange): Promise<TransferRequestRow> {
  // Compare-and-set whatever the body says: two moves racing on one request both read it before
  // either commits, so the second finds it changed and gets 409 rather than stacking its move
  // on top (pending → processing, then processing → completed, both "won").
  const expected = change.expectedStatus ?? (await ctx.db.select({ status: transferRequests.status })
    .from(transferRequests).where(eq(transferRequests.id, change.requestId)))[0]?.status;
  const updated = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(transferRequests).where(eq(transferRequests.id, change.requestId)).for('update');
    if (!current || (change.as === 'owner' && current.profile_id !== change.actor.profile_id)) throw notFound();
    if (expected !== current.status) throw statusFailed('validation.statusConflict');
    const refusal = transitionError(current.status, change.to, change.as);
    if (refusal) throw statusFailed(refusal);
    if (change.as === 'owner' && current.payout_reference) throw statusFailed('validation.statusCancelOnlyPending');

    const refundDue = (change.to === 'rejected' || change.to === 'cancelled') && current.payment_status === 'received';
    const [row] = await tx.update(transferRequests).set({
      status: change.to,
      version: sql`${transferRequests.version} + 1`,
      updated_at: new Date(),
      ...(change.payoutReference ? { payout_reference: change.payoutReference } : {}),
      ...(refundDue ? { payment_status: 'refund_due' as const } : {}),
    }).where(eq(transferRequests.id, current.id)).returning();
    await tx.update(transactions).set({ status: change.to, updated_at: new Date() })
      .where(eq(transactions.transfer_request_id, current.id));
    await tx.insert(transferStatusHistory).values({
      transfer_request_id: current.id, from_status: current.status, to_status: change.to,
      actor_profile_id: change.actor.profile_id, actor_role: change.actor.role, note: change.note ?? null,
    });
    return row!;
  });
  await notifyStatusChange(ctx, updated).catch((err) => ctx.log.error({ err, requestId: updated.id }, 'status e-mail failed'));
  return updated;
}
