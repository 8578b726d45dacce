import { CHANNELS } from '@core/channels.js';
import type { Db, Tx } from '@server/db/client.js';
import { monitorAtInitiation } from '../monitoring/at-initiation.js';
import type { MonitorableTransfer } from '../monitoring/monitor.js';
import { screeningIndex } from '../screening/index-cache.js';
import { hitsOf, raiseAlerts, recipientKey } from '../screening/screen-people.js';
import { endChecking, placeHold } from './holds.js';

// The initiation's compliance step (docs/rules/screening.md#holds-and-alerts), called once per new
// transfer right after its row is committed (the initiation's insert is one batched statement, so
// this runs just after it, on the same request, before the answer; docs/decisions/035-compliance-holds.md).
// The row was written with a `checking` hold, ended here, so a crash in between leaves the transfer
// held until the scheduled job finishes its checks (transfers/initiate-transfer.ts):
// the recipient screened against the index in memory (no query unless it hits), stale required
// lists holding it (fail closed), then the monitoring rules. The transfer is held when any says so,
// and the answer tells the sender only that it is being checked. A step that fails holds the
// transfer rather than letting it through unscreened.

/** What the compliance step reads of a new transfer: its row has it all. */
export interface NewTransfer extends MonitorableTransfer {
  destination_provider: string;
}

export interface ComplianceLog {
  error(obj: object, msg: string): void;
}

/** Screens the recipient, holds when lists are stale, runs the monitoring rules; answers whether the transfer is now held. */
export async function complianceAtInitiation(db: Db, transfer: NewTransfer, log?: ComplianceLog): Promise<boolean> {
  const held = await screenRecipient(db, transfer).catch(async (err: unknown) => {
    log?.error({ err, transferId: transfer.id }, 'recipient screening failed: the transfer is held');
    await placeHold(db, { transferId: transfer.id, reason: 'screening', detail: { failed: 'screening' } });
    return true;
  });
  const monitored = await monitorAtInitiation(db, transfer).then(() => false, async (err: unknown) => {
    log?.error({ err, transferId: transfer.id }, 'monitoring failed: the transfer is held');
    await placeHold(db, { transferId: transfer.id, reason: 'monitoring', detail: { failed: 'monitoring' } });
    return true;
  });
  // The transfer's `checking` hold ends; one statement also reads whether a hold placed now, or the
  // sender's own (a sender-wide hold covers new transfers), still holds it.
  const stillHeld = await endChecking(db, transfer).catch((err: unknown) => {
    log?.error({ err, transferId: transfer.id }, 'ending the initiation\'s checking hold failed: the scheduled job ends it');
    return true;
  });
  return held || monitored || stillHeld;
}

/** The recipient's name (the country of the payout channel as qualifier); stale required lists hold. Answers whether it held. */
async function screenRecipient(db: Db | Tx, transfer: NewTransfer): Promise<boolean> {
  const state = await screeningIndex(db as Db).state();
  let held = false;
  const stale = state.stale();
  if (stale.length) {
    await placeHold(db, { transferId: transfer.id, reason: 'stale_lists', detail: { lists: stale } });
    held = true;
  }
  const details = (transfer.destination_details ?? {}) as Record<string, unknown>;
  const name = typeof details.recipient_name === 'string' ? details.recipient_name : typeof details.account_holder === 'string' ? details.account_holder : '';
  const country = CHANNELS[transfer.destination_provider as keyof typeof CHANNELS]?.country;
  const hits = hitsOf(state, { name, country });
  if (!hits.length) return held;
  const raised = await raiseAlerts(db, state, {
    subject: 'recipient', key: recipientKey(name, details), name, country, profileId: transfer.profile_id, transferId: transfer.id,
  }, hits, 'initiation');
  return held || raised.length > 0;
}
