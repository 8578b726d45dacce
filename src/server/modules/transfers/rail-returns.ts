import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { postTransferEntries } from '../ledger/service.js';
import { ledgerView } from './money-step.js';
import { writeMoneys } from './money-sets.js';
import { notifySteps, type DeferredSteps } from './notifications.js';
import { lockRequests, writeSystemStatuses } from './repo.js';

/**
 * `recordRailReturn` for many payouts the bank sent back at once (a bank statement's returns),
 * each transfer at most once, with exactly its effects: those whose payout is not sent are left as
 * they are; the others' payout no longer sent (its timeline step noting the reason), their entries
 * reversed (and the fee's when it was earned), a completed transfer open again (processing), the
 * senders told why (or their e-mails kept in `keep`, see notifications.ts). Every kind of write is
 * one statement for all.
 */
export async function recordRailReturns(ctx: Pick<AppContext, 'config'>, tx: Tx, returns: readonly { transferId: string; reference: string; reason: string | null }[], keep?: DeferredSteps): Promise<void> {
  const byId = new Map(returns.map((r) => [r.transferId, r]));
  const sent = (await lockRequests(tx, [...byId.keys()])).filter((row) => row.payout_status === 'sent');
  if (sent.length === 0) return;
  const returned = await writeMoneys(tx, sent.map((from) => ({
    from, set: { payout_status: 'not_sent' as const, payout_reference: null, payout_sent_by: null, payout_sent_at: null },
    events: ['payout_returned' as const], note: byId.get(from.id)!.reason,
  })), null);
  await postTransferEntries(tx, sent.flatMap((from) => {
    const view = ledgerView(returned.get(from.id)!);
    const { reference } = byId.get(from.id)!;
    return [{ kind: 'payout_reversal' as const, transfer: view, reference }, ...(from.status === 'completed' ? [{ kind: 'fee_reversal' as const, transfer: view, reference }] : [])];
  }));
  const reopened = new Map((await writeSystemStatuses(tx, sent.filter((r) => r.status === 'completed').map((r) => returned.get(r.id)!), 'processing', null)).map((r) => [r.id, r.status]));
  await notifySteps(ctx, tx, sent.map((from) => ({
    request: from, steps: [{ event: 'returned' as const, status: reopened.get(from.id) ?? returned.get(from.id)!.status, message: byId.get(from.id)!.reason }],
  })), keep);
}
