import { ownTransferError } from '@core/approval.js';
import { moneyActionError, paymentMismatch } from '@core/money-states.js';
import { parseAmount, toDecimal, type Currency } from '@core/money.js';
import type { PaymentRecord } from '@core/schemas.js';
import { isFinalStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { AppError, type ErrorCode } from '@core/errors.js';
import { recordAudits } from '../audit/service.js';
import { postTransferEntries } from '../ledger/service.js';
import { auditSnapshot, ledgerView, moneyStep, refuseIf, usesPayPal, type StaffActor, type Step } from './money-step.js';
import { notifySteps } from './notifications.js';
import { queueRailPayouts } from './queue-rail-payout.js';
import { writeMoneys } from './money-sets.js';
import { lockRequests, type TransferRequestRow } from './repo.js';

/** Why no payment may be recorded for the transfer now (its amount aside); null when one may. */
function paymentRefusal(ctx: Pick<AppContext, 'config'>, row: TransferRequestRow): ErrorCode | null {
  return moneyActionError(row, 'payment') ?? (usesPayPal(ctx, row) ? 'payment_through_pay_pal' : null);
}

/** The step a payment of `body` writes on the transfer; it throws when the amount is not one. */
function paymentStep(actor: StaffActor | null, row: TransferRequestRow, body: PaymentRecord): Step {
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
}

/**
 * Money paid by hand, checked against the statement: recorded as received (the amount as it
 * is, flagged when it differs from the total due). Money that arrives for a transfer already
 * cancelled or rejected is recorded too, and owed back at once. With no staff member (`actor`
 * null), the operator confirmed a collection from the sender's wallet: the same step, by no one
 * (docs/rules/payout-rails.md#collections), in the caller's transaction.
 */
export function recordPayment(ctx: Pick<AppContext, 'config' | 'db'>, actor: StaffActor | null, id: string, body: PaymentRecord, tx?: Tx): Promise<TransferRequestRow> {
  return moneyStep(ctx, actor, id, (row) => {
    refuseIf(paymentRefusal(ctx, row));
    return paymentStep(actor, row, body);
  }, tx);
}

/** A transfer locked for `recordPayments`, with what `recordPayment` would refuse (null: a payment may be recorded). */
export interface PayableTransfer {
  row: TransferRequestRow;
  refusal: ErrorCode | null;
}

/**
 * `recordPayment`'s lock and checks for many transfers at once (a bank statement's credits), oldest
 * first: id → the row and its refusal, as `recordPayment` would refuse it for `actor`.
 */
export async function lockForPayments(ctx: Pick<AppContext, 'config'>, actor: StaffActor | null, tx: Tx, ids: readonly string[]): Promise<Map<string, PayableTransfer>> {
  const rows = await lockRequests(tx, ids);
  return new Map(rows.map((row) => [row.id, { row, refusal: (actor && ownTransferError(row, actor.profile_id)) || paymentRefusal(ctx, row) }]));
}

/**
 * `recordPayment` for many transfers locked by `lockForPayments` and not refused, each at most once,
 * with exactly its effects (state, timeline, books, e-mail, the payout's start, the audit row when
 * a staff member records), each kind of write one statement for all.
 */
export async function recordPayments(ctx: Pick<AppContext, 'config'>, actor: StaffActor | null, tx: Tx, payments: readonly { row: TransferRequestRow; body: PaymentRecord }[]): Promise<void> {
  if (payments.length === 0) return;
  const steps = payments.map(({ row, body }) => ({ from: row, step: paymentStep(actor, row, body) }));
  const written = await writeMoneys(tx, steps.map(({ from, step }) => ({ from, set: step.set, events: step.events })), actor);
  await postTransferEntries(tx, steps.flatMap(({ from, step }) => step.entries.map((kind) => (
    { kind, transfer: ledgerView(written.get(from.id)!), reference: step.reference, actorId: actor?.profile_id ?? null }))));
  await notifySteps(ctx, tx, steps.map(({ from }) => ({ request: from, steps: [{ event: 'paid' as const, status: written.get(from.id)!.status }] })));
  // Money in may clear the payout's last control: through a rail that is on, it leaves by itself.
  await queueRailPayouts(tx, steps.filter(({ step }) => step.set.payment_status === 'received').map(({ from }) => from), ctx.config.JOB_MAX_ATTEMPTS);
  if (actor) {
    await recordAudits(tx, { ...actor, ip: actor.ip ?? null }, steps.map(({ from }) => ({
      action: 'transfer_request.payment' as const, target: 'transfer' as const, id: from.id, before: auditSnapshot(from), after: auditSnapshot(written.get(from.id)!),
    })));
  }
}
