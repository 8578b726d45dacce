import { expandRateSet, type ExpandedRateSet, type RateSet } from '@core/rates.js';
import type { Db } from '@server/db/client.js';
import { loadRates } from './repo.js';

/** Every rate pair both ways, as stored right now, with the time of the newest change. */
export async function currentRates(db: Db): Promise<ExpandedRateSet> {
  return expandRateSet(await loadRates(db));
}

/** The stored rates (the forward pairs every price is computed from). */
export function storedRates(db: Db): Promise<RateSet> {
  return loadRates(db);
}
