import type { ApprovalThreshold } from '@core/api/approvals.js';
import { needsApproval } from '@core/approval.js';
import { isCurrency, parseAmount, toDecimal, type Currency } from '@core/money.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { listThresholds, lockThreshold, thresholdOf, writeThreshold, type ThresholdRow } from './repo.js';

// Four-eyes (docs/rules/back-office.md#four-eyes): the admin's thresholds per source
// currency, which say when a transfer needs a second staff member's approval before it is
// completed (the approval itself: transfers/approve-transfer.ts).

function thresholdToJson(row: ThresholdRow): ApprovalThreshold {
  return { currency: row.currency, amount: toDecimal(parseAmount(row.amount, row.currency)!, row.currency), updated_at: row.updated_at.toISOString() };
}

export async function thresholds(db: Db): Promise<ApprovalThreshold[]> {
  return (await listThresholds(db)).map(thresholdToJson);
}

/** Whether the transfer's amount is at or above its currency's threshold, read in the deciding transaction. */
export async function approvalRequiredFor(tx: Db | Tx, transfer: { amount: string; currency: string }): Promise<boolean> {
  if (!isCurrency(transfer.currency)) return false;
  const threshold = await thresholdOf(tx, transfer.currency);
  return needsApproval(transfer.amount, transfer.currency, threshold ? { [transfer.currency]: threshold } : {});
}

/** `approvalRequiredFor` for many transfers, each currency's threshold read once. */
export async function approvalsRequiredFor(tx: Db | Tx, transfers: readonly { amount: string; currency: string }[]): Promise<boolean[]> {
  const limits = new Map<string, string | null>();
  for (const currency of new Set(transfers.map((t) => t.currency))) if (isCurrency(currency)) limits.set(currency, await thresholdOf(tx, currency));
  return transfers.map((t) => {
    if (!isCurrency(t.currency)) return false;
    const threshold = limits.get(t.currency);
    return needsApproval(t.amount, t.currency, threshold ? { [t.currency]: threshold } : {});
  });
}

/** The admin sets a currency's threshold: a positive amount in that currency, audited with before and after. */
export async function setThreshold(db: Db, actor: Actor, currency: string, amountText: string): Promise<ApprovalThreshold> {
  if (!isCurrency(currency)) throw new AppError('not_found');
  const code: Currency = currency;
  const minor = parseAmount(amountText, code);
  if (minor === null || minor <= 0) {
    throw new AppError('validation_failed', { fields: { amount: 'admin.validation.thresholdInvalid' } });
  }
  return db.transaction(async (tx) => {
    const before = await lockThreshold(tx, code);
    const row = await writeThreshold(tx, code, toDecimal(minor, code), actor.profile_id);
    await recordAudit(tx, actor, {
      action: 'approval_threshold.update', target: 'approval_threshold', id: code,
      before: before && thresholdToJson(before), after: thresholdToJson(row),
    });
    return thresholdToJson(row);
  });
}
