import { and, eq, isNull } from 'drizzle-orm';
import type { NameHoldJson } from '@core/api/payout-exceptions.js';
import type { PayoutAttemptJson } from '@core/api/rails.js';
import type { BankAccountCorrection } from '@core/schemas.js';
import { AppError } from '@core/errors.js';
import { isFinalStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { payoutAttempts, payoutNameHolds } from '@server/db/schema.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { askRecipientCorrection, correctRecipient, lockTransfer, queueRailPayout, type TransferRequestRow } from '../transfers/service.js';
import type { AttemptRow } from './attempts.js';
import { latestForStaff } from './exceptions.js';
import { accountCorrectionAsked, holdJson } from './name-holds.js';
import { attemptJson } from './service.js';

// Paying again a payout the operator or the bank sent back (docs/rules/payout-rails.md#paying-again):
// staff choose a new attempt through the rail or the payout by hand, with a reason; at or above
// the approval threshold one proposes and a second confirms. The books take the second payout
// only once the first was reversed (docs/rules/money-states.md#ledger).

type Ctx = Pick<AppContext, 'config' | 'db'>;
type How = 'retried' | 'by_hand';

/** The latest attempt, sent back and not yet decided, of a transfer still to pay. */
function reversedToDecide(attempt: AttemptRow | undefined, row: TransferRequestRow): AttemptRow {
  if (attempt && ['submitting', 'pending', 'unknown'].includes(attempt.state)) throw new AppError('payout_attempt_open');
  if (isFinalStatus(row.status)) throw new AppError('transfer_closed');
  if (!attempt || attempt.state !== 'reversed' || attempt.resolution || row.payout_status === 'sent') throw new AppError('payout_not_reversed');
  return attempt;
}

const compactIban = (iban: string | null | undefined) => (iban ?? '').replace(/\s+/g, '').toUpperCase();

/** A bank file never pays again an account the bank returned a payout from: the sender corrects the IBAN first. */
async function refuseReturnedAccount(tx: Tx, attempt: AttemptRow, row: TransferRequestRow, how: How): Promise<void> {
  if (how !== 'retried' || attempt.rail !== 'sepa_france') return;
  const returned = await tx.select({ iban: payoutAttempts.iban }).from(payoutAttempts)
    .where(and(eq(payoutAttempts.transfer_id, row.id), eq(payoutAttempts.state, 'reversed')));
  const current = compactIban((row.destination_details as { iban?: string }).iban);
  if (returned.some((r) => compactIban(r.iban) === current)) throw new AppError('bank_account_returned');
}

async function decide(ctx: Ctx, tx: Tx, actor: Actor, attempt: AttemptRow, row: TransferRequestRow, how: How, reason: string): Promise<AttemptRow> {
  const [decided] = await tx.update(payoutAttempts)
    .set({ resolution: how, resolved_by: actor.profile_id, resolved_at: new Date(), resolution_reason: reason })
    .where(eq(payoutAttempts.id, attempt.id)).returning();
  await recordAudit(tx, actor, {
    action: 'payout_attempt.pay_again', target: 'payout_attempt', id: attempt.id,
    before: { transfer_id: row.id, state: 'reversed', resolution: null, proposed_by: attempt.proposed_by },
    after: { transfer_id: row.id, state: 'reversed', resolution: how, reason },
  });
  // Through a mobile or PayPal rail, the payout's start makes the new attempt (every control checked
  // again); a bank payout goes into the next bank file; by hand, "Record payout" now applies.
  if (how === 'retried') await queueRailPayout(tx, row, ctx.config.JOB_MAX_ATTEMPTS);
  return decided!;
}

/**
 * POST /api/transfer-requests/{id}/payouts/pay-again (staff): under the approval threshold the
 * decision is taken; at or above it, it is a proposal a second staff member confirms. Audited.
 */
export async function payAgain(ctx: Ctx, actor: Actor, transferId: string, how: How, reason: string): Promise<PayoutAttemptJson> {
  return ctx.db.transaction(async (tx) => {
    const { attempt, row } = await latestForStaff(tx, actor, transferId);
    const reversed = reversedToDecide(attempt, row);
    await refuseReturnedAccount(tx, reversed, row, how);
    if (!await approvalRequiredFor(tx, row)) return attemptJson(await decide(ctx, tx, actor, reversed, row, how, reason));
    if (reversed.proposed_by) throw new AppError('payout_repay_proposed');
    const [proposed] = await tx.update(payoutAttempts)
      .set({ proposed_resolution: how, proposed_by: actor.profile_id, proposed_at: new Date(), resolution_reason: reason })
      .where(eq(payoutAttempts.id, reversed.id)).returning();
    await recordAudit(tx, actor, {
      action: 'payout_attempt.propose_pay_again', target: 'payout_attempt', id: reversed.id,
      before: { transfer_id: row.id, proposed_by: null }, after: { transfer_id: row.id, proposed_by: actor.profile_id, resolution: how, reason },
    });
    return attemptJson(proposed!);
  });
}

/** POST /api/transfer-requests/{id}/payouts/pay-again/confirm (staff): another staff member confirms the proposal. Audited. */
export async function confirmPayAgain(ctx: Ctx, actor: Actor, transferId: string): Promise<PayoutAttemptJson> {
  return ctx.db.transaction(async (tx) => {
    const { attempt, row } = await latestForStaff(tx, actor, transferId);
    const reversed = reversedToDecide(attempt, row);
    if (!reversed.proposed_by || !reversed.proposed_resolution) throw new AppError('payout_repay_not_proposed');
    if (reversed.proposed_by === actor.profile_id) throw new AppError('payout_repay_same_staff');
    await refuseReturnedAccount(tx, reversed, row, reversed.proposed_resolution);
    return attemptJson(await decide(ctx, tx, actor, reversed, row, reversed.proposed_resolution, reversed.resolution_reason ?? ''));
  });
}

/** A bank payout sent back: the sender is asked to correct the account holder and IBAN (audited); a file takes it once they did and staff chose to pay again. */
async function askAccountCorrection(ctx: Ctx, tx: Tx, actor: Actor, reversed: AttemptRow, row: TransferRequestRow): Promise<null> {
  if (reversed.correction_asked_at) throw new AppError('name_hold_decided');
  await tx.update(payoutAttempts).set({ correction_asked_at: new Date() }).where(eq(payoutAttempts.id, reversed.id));
  await recordAudit(tx, actor, {
    action: 'payout_attempt.ask_sender', target: 'payout_attempt', id: reversed.id,
    before: { transfer_id: row.id, correction_asked_at: null }, after: { transfer_id: row.id, asked_by: actor.profile_id },
  });
  await askRecipientCorrection(ctx, tx, actor, row, 'account');
  return null;
}

/**
 * POST /api/transfer-requests/{id}/payouts/ask-sender (staff): before paying again a payout sent
 * back, the sender is asked to correct the recipient. A mobile one's name or number, as after a
 * name check (a hold waiting for the sender: nothing leaves before their correction, which the name
 * check then reads; the check that let the returned payout through no longer stands); a bank
 * one's account holder and IBAN (answered null: no name check). Audited.
 */
export async function askSenderAfterReturn(ctx: Ctx, actor: Actor, transferId: string): Promise<NameHoldJson | null> {
  return ctx.db.transaction(async (tx) => {
    const { attempt, row } = await latestForStaff(tx, actor, transferId);
    const reversed = reversedToDecide(attempt, row);
    if (reversed.rail === 'sepa_france') return askAccountCorrection(ctx, tx, actor, reversed, row);
    // The sender corrects a name and number, or an IBAN: not a PayPal address.
    if (!reversed.msisdn || !reversed.name_check) throw new AppError('payout_correction_unavailable');
    const open = and(eq(payoutNameHolds.transfer_id, transferId), isNull(payoutNameHolds.closed_at));
    const [standing] = await tx.select().from(payoutNameHolds).where(open).for('update');
    if (standing?.decision === 'ask_sender') throw new AppError('name_hold_decided');
    const now = new Date();
    if (standing) await tx.update(payoutNameHolds).set({ closed_at: now }).where(eq(payoutNameHolds.id, standing.id));
    const [hold] = await tx.insert(payoutNameHolds).values({
      transfer_id: transferId, rail: reversed.rail, name_check: reversed.name_check, decision: 'ask_sender', decided_by: actor.profile_id, decided_at: now,
    }).returning();
    await recordAudit(tx, actor, {
      action: 'payout_name_hold.ask_sender', target: 'payout_name_hold', id: hold!.id,
      before: { transfer_id: transferId, decision: null }, after: { transfer_id: transferId, decision: 'ask_sender', decided_by: actor.profile_id, after_return: reversed.id },
    });
    await askRecipientCorrection(ctx, tx, actor, row);
    return holdJson(hold!, await approvalRequiredFor(tx, row));
  });
}

/**
 * PUT /api/transfer-requests/{id}/recipient-account (the sender, when asked): the corrected account
 * holder and IBAN replace the transfer's (audited, screened as at initiation). Staff then pay it
 * again through the next bank file.
 */
export async function correctReturnedAccount(ctx: Ctx, sender: Actor, transferId: string, input: BankAccountCorrection): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockTransfer(tx, transferId);
    if (!row || row.profile_id !== sender.profile_id) throw new AppError('not_found');
    const asked = await accountCorrectionAsked(tx, transferId);
    if (!asked || isFinalStatus(row.status) || row.payout_status === 'sent') throw new AppError('correction_not_asked');
    await correctRecipient(tx, sender, row, input);
    await tx.update(payoutAttempts).set({ correction_asked_at: null }).where(eq(payoutAttempts.id, asked.id));
  });
}
