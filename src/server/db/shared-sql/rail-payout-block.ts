import { sql } from 'drizzle-orm';
import type { Tx } from '../client.js';

// Whether a payout by hand would race the operator's rail (docs/rules/payout-rails.md#needs-attention):
// read by the transfers module's "Record payout" from the rails module's tables, which it cannot
// import (the rails module imports it), so the query lives here, beside neither.

/** Why staff may not record this transfer's payout by hand now; null when nothing on the rail stands in the way. */
export type RailPayoutBlock = 'payout_attempt_open' | 'payout_attempt_failed' | 'payout_name_held' | 'payout_reversed';

/**
 * The rail's word on a payout by hand: its latest attempt still open (it may yet pay), failed or
 * sent back (by the operator or the bank) with no staff member's choice to send it by hand (paying
 * a returned payout again is a four-eyes decision), or its name check holding it undecided or
 * waiting for the sender's correction.
 */
export async function railPayoutBlock(tx: Tx, transferId: string): Promise<RailPayoutBlock | null> {
  const { rows } = await tx.execute<{ state: string | null; resolution: string | null; held: boolean }>(sql`
    select (select state from payout_attempts where transfer_id = ${transferId} order by seq desc limit 1) as state,
      (select resolution from payout_attempts where transfer_id = ${transferId} order by seq desc limit 1) as resolution,
      exists (select 1 from payout_name_holds where transfer_id = ${transferId} and closed_at is null
        and (decision is null or decision = 'ask_sender')) as held`);
  const row = rows[0];
  if (!row) return null;
  if (row.state === 'submitting' || row.state === 'pending' || row.state === 'unknown') return 'payout_attempt_open';
  if (row.state === 'failed' && row.resolution !== 'by_hand') return 'payout_attempt_failed';
  if (row.state === 'reversed' && row.resolution !== 'by_hand') return 'payout_reversed';
  return row.held ? 'payout_name_held' : null;
}
