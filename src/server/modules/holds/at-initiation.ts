import type { Db, Tx } from '@server/db/client.js';
import { monitorAtInitiation } from '../monitoring/at-initiation.js';
import type { MonitorableTransfer } from '../monitoring/monitor.js';
import { activeHolds, placeHold } from './holds.js';

// The initiation's compliance step (docs/rules/screening.md#holds-and-alerts), called once per new
// transfer right after its row is committed (the initiation's insert is one batched statement, so
// this runs just after it, on the same request, before the answer): the transfer is held when the
// step says so, and the answer tells the sender it is being checked. A step that fails holds the
// transfer (fail closed) rather than letting it through unscreened.

/** What the compliance step reads of a new transfer: its row has it all. */
export type NewTransfer = MonitorableTransfer;

export interface ComplianceLog {
  error(obj: object, msg: string): void;
}

/** Screens the recipient and runs the monitoring rules; answers whether the transfer is now held. */
export async function complianceAtInitiation(tx: Db | Tx, transfer: NewTransfer, log?: ComplianceLog): Promise<boolean> {
  let held = false;
  try {
    await monitorAtInitiation(tx, transfer);
  } catch (err) {
    log?.error({ err, transferId: transfer.id }, 'compliance step failed: the transfer is held');
    await placeHold(tx, { transferId: transfer.id, reason: 'monitoring', detail: { failed: 'monitoring' } });
    held = true;
  }
  // One indexed read: a hold placed now, or the sender's own (a sender-wide hold covers new transfers).
  return held || (await activeHolds(tx, [transfer.id])).has(transfer.id);
}
