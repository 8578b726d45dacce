import { and, desc, eq, isNull } from 'drizzle-orm';
import type { NameHoldJson } from '@core/api/payout-exceptions.js';
import { AppError } from '@core/errors.js';
import { isFinalStatus } from '@core/status.js';
import type { RecipientCorrection } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { payoutAttempts, payoutNameHolds } from '@server/db/schema.js';
import { approvalRequiredFor } from '../approvals/service.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { payoutNumber } from '../operators/service.js';
import { askRecipientCorrection, correctRecipient, lockTransfer, queueRailPayout, type TransferRequestRow } from '../transfers/service.js';

// Staff's decisions on a name check that stopped a payout (docs/rules/payout-rails.md#name-check):
// pay anyway with a reason (a second staff member confirms at or above the approval threshold),
// or ask the sender to correct the recipient, whose correction closes the hold and is checked again.

type Ctx = Pick<AppContext, 'config' | 'db'>;
export type NameHoldRow = typeof payoutNameHolds.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function holdJson(h: NameHoldRow, fourEyes: boolean): NameHoldJson {
  return {
    id: h.id, transfer_id: h.transfer_id, rail: h.rail, name_check: h.name_check, created_at: h.created_at.toISOString(),
    decision: h.decision, decided_by: h.decided_by, decided_at: iso(h.decided_at), reason: h.reason,
    proposed_by: h.proposed_by, proposed_at: iso(h.proposed_at), closed_at: iso(h.closed_at), four_eyes: fourEyes,
  };
}

/** The transfer's open hold (at most one), locked when read in a transaction that changes it. */
export async function openHold(db: Db | Tx, transferId: string, lock = false): Promise<NameHoldRow | undefined> {
  const query = db.select().from(payoutNameHolds).where(and(eq(payoutNameHolds.transfer_id, transferId), isNull(payoutNameHolds.closed_at)));
  return (lock ? await query.for('update') : await query)[0];
}

/** GET /api/transfer-requests/{id}/payouts/name-holds (staff): every check that stopped the payout, newest first. */
export async function holdsOf(ctx: Ctx, transferId: string): Promise<NameHoldJson[]> {
  const rows = await ctx.db.select().from(payoutNameHolds).where(eq(payoutNameHolds.transfer_id, transferId)).orderBy(desc(payoutNameHolds.created_at));
  if (!rows.length) return [];
  const fourEyes = await ctx.db.transaction(async (tx) => {
    const row = await lockTransfer(tx, transferId);
    return row ? approvalRequiredFor(tx, row) : false;
  });
  return rows.map((h) => holdJson(h, fourEyes));
}

/** The hold and its transfer, locked, for a staff decision: never on their own transfer, never twice. */
async function forDecision(tx: Tx, actor: Actor, holdId: string): Promise<{ hold: NameHoldRow; row: TransferRequestRow; fourEyes: boolean }> {
  const [hold] = await tx.select().from(payoutNameHolds).where(eq(payoutNameHolds.id, holdId)).for('update');
  if (!hold) throw new AppError('not_found');
  const row = await lockTransfer(tx, hold.transfer_id);
  if (!row) throw new AppError('not_found');
  if (row.profile_id === actor.profile_id) throw new AppError('own_transfer');
  if (hold.decision || hold.closed_at) throw new AppError('name_hold_decided');
  if (isFinalStatus(row.status)) throw new AppError('transfer_closed');
  return { hold, row, fourEyes: await approvalRequiredFor(tx, row) };
}

async function decidePayAnyway(ctx: Ctx, tx: Tx, actor: Actor, hold: NameHoldRow, row: TransferRequestRow, reason: string): Promise<NameHoldRow> {
  const [decided] = await tx.update(payoutNameHolds)
    .set({ decision: 'pay_anyway', decided_by: actor.profile_id, decided_at: new Date(), reason })
    .where(eq(payoutNameHolds.id, hold.id)).returning();
  await recordAudit(tx, actor, {
    action: 'payout_name_hold.pay_anyway', target: 'payout_name_hold', id: hold.id,
    before: { transfer_id: row.id, decision: null, proposed_by: hold.proposed_by },
    after: { transfer_id: row.id, decision: 'pay_anyway', decided_by: actor.profile_id, reason, name_check: hold.name_check },
  });
  // The payout starts by itself with the check recorded on the hold.
  await queueRailPayout(tx, row, ctx.config.JOB_MAX_ATTEMPTS);
  return decided!;
}

/**
 * POST /api/payout-name-holds/{id}/pay-anyway (staff): under the approval threshold the payout
 * starts; at or above it, this is a proposal another staff member confirms. Audited.
 */
export async function payAnyway(ctx: Ctx, actor: Actor, holdId: string, reason: string): Promise<NameHoldJson> {
  return ctx.db.transaction(async (tx) => {
    const { hold, row, fourEyes } = await forDecision(tx, actor, holdId);
    if (!fourEyes) return holdJson(await decidePayAnyway(ctx, tx, actor, hold, row, reason), false);
    if (hold.proposed_by) throw new AppError('name_hold_proposed');
    const [proposed] = await tx.update(payoutNameHolds)
      .set({ proposed_by: actor.profile_id, proposed_at: new Date(), reason })
      .where(eq(payoutNameHolds.id, hold.id)).returning();
    await recordAudit(tx, actor, {
      action: 'payout_name_hold.propose', target: 'payout_name_hold', id: hold.id,
      before: { transfer_id: row.id, proposed_by: null }, after: { transfer_id: row.id, proposed_by: actor.profile_id, reason },
    });
    return holdJson(proposed!, true);
  });
}

/** POST /api/payout-name-holds/{id}/pay-anyway/confirm (staff): a second staff member confirms the proposal; the payout starts. Audited. */
export async function confirmPayAnyway(ctx: Ctx, actor: Actor, holdId: string): Promise<NameHoldJson> {
  return ctx.db.transaction(async (tx) => {
    const { hold, row, fourEyes } = await forDecision(tx, actor, holdId);
    if (!hold.proposed_by || !hold.reason) throw new AppError('name_hold_not_proposed');
    if (hold.proposed_by === actor.profile_id) throw new AppError('name_hold_same_staff');
    return holdJson(await decidePayAnyway(ctx, tx, actor, hold, row, hold.reason), fourEyes);
  });
}

/** POST /api/payout-name-holds/{id}/ask-sender (staff): the sender is asked, in their language, to correct the recipient. Audited. */
export async function askSender(ctx: Ctx, actor: Actor, holdId: string): Promise<NameHoldJson> {
  return ctx.db.transaction(async (tx) => {
    const { hold, row, fourEyes } = await forDecision(tx, actor, holdId);
    const [decided] = await tx.update(payoutNameHolds)
      .set({ decision: 'ask_sender', decided_by: actor.profile_id, decided_at: new Date() })
      .where(eq(payoutNameHolds.id, hold.id)).returning();
    await recordAudit(tx, actor, {
      action: 'payout_name_hold.ask_sender', target: 'payout_name_hold', id: hold.id,
      before: { transfer_id: row.id, decision: null }, after: { transfer_id: row.id, decision: 'ask_sender', decided_by: actor.profile_id },
    });
    await askRecipientCorrection(ctx, tx, actor, row);
    return holdJson(decided!, fourEyes);
  });
}

/** The transfer's bank payout sent back whose account staff asked its sender to correct, or null (pay-again.ts). */
export async function accountCorrectionAsked(tx: Tx, transferId: string) {
  const [latest] = await tx.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transferId)).orderBy(desc(payoutAttempts.seq)).limit(1);
  return latest?.state === 'reversed' && latest.rail === 'sepa_france' && latest.correction_asked_at ? latest : null;
}

/** The transfer if it is the caller's, else "not found" (a sender learns nothing of others' transfers). */
async function ownTransfer(tx: Tx, profileId: string, transferId: string): Promise<TransferRequestRow> {
  const row = await lockTransfer(tx, transferId);
  if (!row || row.profile_id !== profileId) throw new AppError('not_found');
  return row;
}

/** GET /api/transfer-requests/{id}/recipient-correction (the sender): what staff asked to correct, or null. */
export async function correctionAsked(ctx: Ctx, profileId: string, transferId: string) {
  return ctx.db.transaction(async (tx) => {
    const row = await ownTransfer(tx, profileId, transferId);
    const details = row.destination_details as { recipient_name?: string; recipient_phone?: string; account_holder?: string; iban?: string };
    const account = await accountCorrectionAsked(tx, transferId);
    if (account?.correction_asked_at) {
      return {
        asked_at: account.correction_asked_at.toISOString(), recipient_name: details.recipient_name ?? null, recipient_phone: null,
        destination_provider: row.destination_provider, account_holder: details.account_holder ?? details.recipient_name ?? null, iban: details.iban ?? null,
      };
    }
    const hold = await openHold(tx, transferId);
    if (hold?.decision !== 'ask_sender' || !hold.decided_at) return null;
    return {
      asked_at: hold.decided_at.toISOString(), recipient_name: details.recipient_name ?? null,
      recipient_phone: details.recipient_phone ?? null, destination_provider: row.destination_provider, account_holder: null, iban: null,
    };
  });
}

/**
 * PUT /api/transfer-requests/{id}/recipient (the sender, when asked): the corrected name and
 * number replace the transfer's, the hold closes, and the payout's start runs the name check
 * again. The number must be one of the destination's operators, as at initiation.
 */
export async function correctHeldRecipient(ctx: Pick<AppContext, 'config' | 'db' | 'prices'>, sender: Actor, transferId: string, input: RecipientCorrection): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await ownTransfer(tx, sender.profile_id, transferId);
    const hold = await openHold(tx, transferId, true);
    if (hold?.decision !== 'ask_sender' || isFinalStatus(row.status) || row.payout_status === 'sent') throw new AppError('correction_not_asked');
    const phone = await payoutNumber(ctx, row.destination_provider as Parameters<typeof payoutNumber>[1], input.recipient_phone, 'recipient_phone');
    await correctRecipient(tx, sender, row, { recipient_name: input.recipient_name, recipient_phone: phone });
    await tx.update(payoutNameHolds).set({ closed_at: new Date() }).where(eq(payoutNameHolds.id, hold.id));
    await queueRailPayout(tx, row, ctx.config.JOB_MAX_ATTEMPTS);
  });
}
