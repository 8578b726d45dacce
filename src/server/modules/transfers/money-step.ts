import type { AuditAction } from '@core/api/audit.js';
import { ownTransferError } from '@core/approval.js';
import { CHANNELS } from '@core/channels.js';
import type { TransferEntryKind } from '@core/ledger.js';
import type { Currency } from '@core/money.js';
import type { HistoryEvent, Role } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { AppError, type ErrorCode } from '@core/errors.js';
import { recordAudit } from '../audit/service.js';
import { postTransferEntry } from '../ledger/service.js';
import { paypalConfigured } from './paypal-client.js';
import { notifyMoneyStep } from './notifications.js';
import { queueRailPayout } from './queue-rail-payout.js';
import { lockRequest, writeMoney, type MoneyFields, type TransferRequestRow } from './repo.js';

// Staff record the money of a transfer (docs/rules/money-states.md): the payment received
// by hand, the payout sent, the refund made. Each is one database transaction: the transfer's
// state, its timeline step, its ledger entry and the sender's e-mail, all or nothing.

/** What the PayPal jobs need: no request, no session. */
export type MoneyContext = Pick<AppContext, 'config' | 'db' | 'log'>;

/** The staff member behind a step; `ip` when they acted through a request (the audit log's address). */
export interface StaffActor {
  profile_id: string;
  role: Role;
  ip?: string | null;
}

/** What the audit log keeps of a transfer before and after a staff action. */
export function auditSnapshot(row: TransferRequestRow) {
  return {
    status: row.status, payment_status: row.payment_status, payout_status: row.payout_status,
    payment_amount: row.payment_amount, payment_reference: row.payment_reference, payment_flagged: row.payment_flagged,
    payout_reference: row.payout_reference, refund_reference: row.refund_reference,
  };
}

/** The transfer's source is PayPal and PayPal is set up: its money moves through PayPal's API. */
export function usesPayPal(ctx: Pick<AppContext, 'config'>, row: Pick<TransferRequestRow, 'source_provider'>): boolean {
  return CHANNELS[row.source_provider as keyof typeof CHANNELS]?.kind === 'paypal' && paypalConfigured(ctx.config);
}

/** The figures a ledger entry is made from, as the row holds them. */
export function ledgerView(row: Pick<TransferRequestRow, 'id' | 'source_provider' | 'destination_provider' | 'currency' | 'amount' | 'fee' | 'payout_amount' | 'payout_currency' | 'payment_amount'>) {
  return {
    id: row.id,
    source_provider: row.source_provider as keyof typeof CHANNELS,
    destination_provider: row.destination_provider as keyof typeof CHANNELS,
    currency: row.currency as Currency,
    amount: row.amount,
    fee: row.fee,
    payout_amount: row.payout_amount,
    payout_currency: row.payout_currency as Currency,
    payment_amount: row.payment_amount,
  };
}

export interface Step {
  set: MoneyFields;
  events: HistoryEvent[];
  entries: TransferEntryKind[];
  reference: string | null;
  /** The sender's e-mail about it; null when another e-mail of the same change tells them. */
  mail: 'paid' | 'payout' | 'refunded' | null;
  /** The audit log's action when a staff member takes the step (docs/rules/back-office.md#audit); none for a job's own step. */
  audit?: AuditAction;
}

/**
 * Locks the transfer, asks `decide` what the step is (it throws when the state refuses it; it may
 * read more in the transaction), then writes the state, timeline, ledger entries and e-mail in the
 * one transaction.
 */
export async function moneyStep(ctx: Pick<AppContext, 'config' | 'db'>, actor: StaffActor | null, id: string, decide: (row: TransferRequestRow, tx: Tx) => Step | Promise<Step>, tx?: Tx): Promise<TransferRequestRow> {
  const run = async (db: Tx) => {
    const current = await lockRequest(db, id);
    if (!current) throw new AppError('not_found');
    // No staff member records the money of a transfer they sent themselves (docs/rules/back-office.md).
    const own = actor && ownTransferError(current, actor.profile_id);
    if (own) throw new AppError(own);
    const step = await decide(current, db);
    const written = await writeMoney(db, { from: current, set: step.set, events: step.events, actor, note: null });
    for (const kind of step.entries) {
      await postTransferEntry(db, kind, ledgerView(written), { actorId: actor?.profile_id ?? null, reference: step.reference });
    }
    if (step.mail) await notifyMoneyStep(ctx, db, step.mail, written);
    // Money in may clear the payout's last control: through a rail that is on, it leaves by itself.
    if (step.set.payment_status === 'received') await queueRailPayout(db, written, ctx.config.JOB_MAX_ATTEMPTS);
    if (actor && step.audit) {
      await recordAudit(db, { ...actor, ip: actor.ip ?? null }, {
        action: step.audit, target: 'transfer', id, before: auditSnapshot(current), after: auditSnapshot(written),
      });
    }
    return written;
  };
  return tx ? run(tx) : ctx.db.transaction(run);
}

/** Throws the refusal money-states.ts names, when it names one. */
export function refuseIf(code: ErrorCode | null): void {
  if (code) throw new AppError(code);
}
