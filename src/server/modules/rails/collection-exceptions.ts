import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { CollectionAttemptStaffJson } from '@core/api/collections.js';
import type { ChannelId } from '@core/channels.js';
import type { PayoutExceptionJson } from '@core/api/payout-exceptions.js';
import { AppError } from '@core/errors.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { collectionAttempts, transferRequests } from '@server/db/schema.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { postDuplicateRefund } from '../ledger/service.js';
import { lockTransfer } from '../transfers/service.js';
import { enquireCollectionSoon } from './collections.js';

// Collections that need a person (docs/rules/payout-rails.md#collections-that-need-a-person), in
// the same list as the payouts that do: a request the operator has not settled past
// PAYOUT_UNKNOWN_AFTER (staff ask again; nothing else while it may still take the money), and
// money received twice for one transfer (the operator confirmed a collection once the payment
// was already recorded otherwise), which staff give back by hand and record, audited.

type Ctx = Pick<AppContext, 'config' | 'db'>;
type CollectionRow = typeof collectionAttempts.$inferSelect;

const TRANSFER = {
  id: transferRequests.id, reference: transferRequests.reference, status: transferRequests.status, sender_id: transferRequests.profile_id,
  amount: transferRequests.amount, currency: transferRequests.currency, payout_amount: transferRequests.payout_amount,
  payout_currency: transferRequests.payout_currency, details: transferRequests.destination_details,
  payment_reference: transferRequests.payment_reference, payment_amount: transferRequests.payment_amount,
  payment_recorded_by: transferRequests.payment_recorded_by,
};

const needingAttention = (db: Db) => db.select({ attempt: collectionAttempts, transfer: TRANSFER }).from(collectionAttempts)
  .innerJoin(transferRequests, eq(transferRequests.id, collectionAttempts.transfer_id))
  .where(and(isNotNull(collectionAttempts.needs_attention_at), isNull(collectionAttempts.refunded_at)));
type TransferFields = Awaited<ReturnType<typeof needingAttention>>[number]['transfer'];

/** Money received twice: the operator confirmed the collection, and the transfer's payment was recorded otherwise. */
const isTwice = (attempt: CollectionRow) => attempt.state === 'succeeded' && attempt.needs_attention_at !== null;

function staffJson(attempt: CollectionRow, transfer: Pick<TransferFields, 'payment_reference' | 'payment_amount' | 'payment_recorded_by'> | null): CollectionAttemptStaffJson {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    id: attempt.id, transfer_id: attempt.transfer_id, seq: attempt.seq, rail: attempt.rail, state: attempt.state, reference: attempt.reference,
    operator_id: attempt.operator_id, msisdn: attempt.msisdn, amount: attempt.amount, currency: attempt.currency, steps: attempt.steps,
    enquiries: attempt.enquiries, created_at: attempt.created_at.toISOString(), sent_at: iso(attempt.sent_at), settled_at: iso(attempt.settled_at),
    needs_attention_at: iso(attempt.needs_attention_at),
    recorded_payment: transfer && isTwice(attempt)
      ? { reference: transfer.payment_reference, amount: transfer.payment_amount, recorded_by: transfer.payment_recorded_by } : null,
    refund_reference: attempt.refund_reference, refunded_by: attempt.refunded_by, refunded_at: iso(attempt.refunded_at),
  };
}

function exceptionOf(attempt: CollectionRow, transfer: TransferFields): PayoutExceptionJson {
  const d = (transfer.details ?? {}) as { recipient_name?: string; recipient_phone?: string };
  const twice = isTwice(attempt);
  return {
    kind: twice ? 'collection_twice' : 'collection_unknown',
    since: (attempt.needs_attention_at ?? attempt.updated_at).toISOString(),
    transfer: {
      id: transfer.id, reference: transfer.reference, status: transfer.status, sender_id: transfer.sender_id, amount: transfer.amount,
      currency: transfer.currency, payout_amount: transfer.payout_amount, payout_currency: transfer.payout_currency,
      recipient_name: d.recipient_name ?? null, recipient_phone: d.recipient_phone ?? null,
    },
    hold: null, attempt: null, collection: staffJson(attempt, transfer),
  };
}

/**
 * The collections for staff's "needs attention": still open past PAYOUT_UNKNOWN_AFTER (or on a
 * rail whose credentials were removed), whatever the transfer's state since (it may still take the
 * sender's money), and money received twice nobody gave back yet (the money is the sender's).
 */
export async function collectionExceptions(ctx: Ctx): Promise<PayoutExceptionJson[]> {
  return (await needingAttention(ctx.db))
    .filter(({ attempt }) => isTwice(attempt) || ['submitting', 'pending', 'unknown'].includes(attempt.state))
    .map(({ attempt, transfer }) => exceptionOf(attempt, transfer));
}

/** The attempt and its transfer, locked, for a staff member: never on their own transfer. */
async function lockedForStaff(tx: Tx, actor: Actor, attemptId: string) {
  const [found] = await tx.select({ transfer_id: collectionAttempts.transfer_id }).from(collectionAttempts).where(eq(collectionAttempts.id, attemptId));
  if (!found) throw new AppError('not_found');
  const transfer = await lockTransfer(tx, found.transfer_id);
  if (!transfer) throw new AppError('not_found');
  if (transfer.profile_id === actor.profile_id) throw new AppError('own_transfer');
  const [attempt] = await tx.select().from(collectionAttempts).where(eq(collectionAttempts.id, attemptId)).for('update');
  return { attempt: attempt!, transfer };
}

/** POST /api/collection-attempts/{id}/enquire (staff): a request the operator has not settled is asked about now. */
export async function askCollectionAgain(ctx: Ctx, actor: Actor, attemptId: string): Promise<CollectionAttemptStaffJson> {
  return ctx.db.transaction(async (tx) => {
    const { attempt } = await lockedForStaff(tx, actor, attemptId);
    if (!['submitting', 'pending', 'unknown'].includes(attempt.state)) throw new AppError('collection_not_open');
    await enquireCollectionSoon(tx, attempt.reference);
    return staffJson(attempt, null);
  });
}

/**
 * POST /api/collection-attempts/{id}/refund (staff): the money received twice was given back by
 * hand (through the operator's portal, to the wallet it came from); staff record its reference,
 * once, and the books take it out of refunds payable and the channel. Audited. The transfer's own
 * payment, recorded first, stays as it is.
 */
export async function recordCollectionRefund(ctx: Ctx, actor: Actor, attemptId: string, reference: string): Promise<CollectionAttemptStaffJson> {
  return ctx.db.transaction(async (tx) => {
    const { attempt, transfer } = await lockedForStaff(tx, actor, attemptId);
    if (attempt.refunded_at) throw new AppError('collection_refunded');
    if (!isTwice(attempt)) throw new AppError('collection_not_twice');
    const [refunded] = await tx.update(collectionAttempts).set({ refund_reference: reference, refunded_by: actor.profile_id, refunded_at: new Date() })
      .where(and(eq(collectionAttempts.id, attemptId), isNull(collectionAttempts.refunded_at), eq(collectionAttempts.state, 'succeeded')))
      .returning();
    await postDuplicateRefund(tx, { transferId: transfer.id, source: transfer.source_provider as ChannelId, currency: attempt.currency, amount: attempt.amount }, {
      paymentReference: attempt.operator_id ?? attempt.reference, reference, actorId: actor.profile_id,
    });
    await recordAudit(tx, actor, {
      action: 'collection_attempt.refund', target: 'transfer', id: transfer.id,
      before: { collection_attempt_id: attemptId, amount: attempt.amount, currency: attempt.currency, refund_reference: null },
      after: { collection_attempt_id: attemptId, amount: attempt.amount, currency: attempt.currency, refund_reference: reference },
    });
    return staffJson(refunded!, { payment_reference: transfer.payment_reference, payment_amount: transfer.payment_amount, payment_recorded_by: transfer.payment_recorded_by });
  });
}
