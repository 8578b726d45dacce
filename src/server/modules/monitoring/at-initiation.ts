import type { Db } from '@server/db/client.js';
import { initiationRows } from '@core/monitoring/rules.js';
import { judgeTransfer, type MonitorableTransfer } from './monitor.js';
import { ruleSettings } from './settings.js';

// Monitoring at initiation (docs/rules/monitoring.md#when-the-rules-run), called once by the
// initiation's compliance step (transfers/checks-at-initiation.ts) after the transfer row exists: one read of
// the sender's newest transfers and the recipient account's newest payments (two index ranges, one
// round trip, only as many rows as the rules can count), the settings from memory; writes only on a hit.

/** Runs every enabled rule on the new transfer; a hit is an alert in the sender's case, and a hold when its rule holds. */
export async function monitorAtInitiation(db: Db, transfer: MonitorableTransfer): Promise<void> {
  const settings = await ruleSettings(db);
  await judgeTransfer(db, transfer, settings, true, initiationRows(settings));
}
