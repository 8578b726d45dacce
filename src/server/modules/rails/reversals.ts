import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { recordRailReturn } from '../transfers/service.js';
import type { AttemptRow } from './attempts.js';

// A paid payout the operator took back (docs/rules/payout-rails.md#reversals). Neither operator
// gives a reversal a status of its own: a paid attempt asked about again (a callback named it)
// whose operator now answers that the transaction failed was sent back. The attempt is then
// `reversed`, and the transfer's side is what a bank's return does: the payout no longer sent,
// its entries reversed in the books, the transfer open again for staff, the sender told what
// happens next.

/** The operator as the sender knows it, named in their e-mail. */
const OPERATOR_NAME = { airtel: 'Airtel Money', mtn: 'MTN MoMo', paypal: 'PayPal' } as const;

/** Records, in the caller's transaction, that the operator took back the payout of `attempt` (already written `reversed`). */
export async function recordReversal(ctx: Pick<AppContext, 'config'>, tx: Tx, attempt: AttemptRow): Promise<void> {
  const operator = OPERATOR_NAME[attempt.rail === 'mtn_rwanda' ? 'mtn' : attempt.rail === 'paypal_payouts' ? 'paypal' : 'airtel'];
  // The timeline keeps the operator's own code for it, as it keeps a bank's return code.
  const code = attempt.steps.at(-1)?.operator_code ?? null;
  await recordRailReturn(ctx, tx, attempt.transfer_id, attempt.operator_id ?? attempt.reference, code, operator);
}
