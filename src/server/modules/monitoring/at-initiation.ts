import type { Db, Tx } from '@server/db/client.js';
import { judgeTransfer, type MonitorableTransfer } from './monitor.js';
import { ruleSettings } from './settings.js';

// Monitoring at initiation (docs/rules/monitoring.md#when-the-rules-run), called once by the
// initiation's compliance step (holds/at-initiation.ts) after the transfer row exists: one read of
// the sender's recent transfers and the recipient account's recent senders (two index ranges, one
// round trip), the settings from memory; writes only on a hit.

/** Runs every enabled rule on the new transfer; a hit is an alert in the sender's case, and a hold when its rule holds. */
export async function monitorAtInitiation(tx: Db | Tx, transfer: MonitorableTransfer): Promise<void> {
  await judgeTransfer(tx, transfer, await ruleSettings(tx), true);
}
