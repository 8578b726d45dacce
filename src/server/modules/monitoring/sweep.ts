import type { Logger } from 'pino';
import type { Db } from '@server/db/client.js';
import { recentTransfers } from './repo.js';
import { judgeTransfer, SWEEP_FACT_ROWS } from './monitor.js';
import { ruleSettings } from './settings.js';

// The nightly sweep (docs/rules/monitoring.md#when-the-rules-run): every rule again over the last
// day's transfers, each judged as of its creation with everything made before it, so what the
// initiation could not see (another sender's payment to the same account committed at the same
// moment, a rule turned on or a threshold lowered since) is raised. An alert already raised for a
// transfer and rule is not raised again.

/** The sweep looks back this far: a day, and an hour more so a late run misses nothing (duplicates are not raised twice). */
export const SWEEP_HOURS = 25;

/** Runs the sweep; answers how many alerts it raised. A transfer still pending is held by a rule that holds. */
export async function runMonitoringSweep(deps: { db: Db; log: Logger }): Promise<number> {
  const settings = await ruleSettings(deps.db);
  let raised = 0;
  for (const transfer of await recentTransfers(deps.db, SWEEP_HOURS)) {
    const judged = await deps.db.transaction((tx) => judgeTransfer(tx, transfer, settings, transfer.status === 'pending', SWEEP_FACT_ROWS));
    raised += judged.alerts.length;
  }
  if (raised > 0) deps.log.info({ raised }, 'monitoring sweep raised alerts');
  return raised;
}
