import type { Stats, VolumePoint } from '@core/api/admin.js';
import { isAdmin, type Role } from '@core/status.js';
import type { Db } from '@server/db/client.js';
import { countParked } from '../jobs/service.js';
import { moneyTotals } from '../ledger/service.js';
import { dailyVolume, requestCounts, userAndTierCounts } from './repo.js';

// The admin's screen: counts and volume (the staff list is the transfers module's, tier and rate
// edits the fees and rates modules').

/** Requests per status; user and tier counts are the admin's alone. */
export async function stats(db: Db, role: Role): Promise<Stats> {
  const requests = await requestCounts(db);
  if (!isAdmin(role)) return { requests };
  return { requests, ...(await userAndTierCounts(db)), parked_jobs: await countParked(db), money: await moneyTotals(db) };
}

export async function volume(db: Db, days: number) {
  const { from, to, points } = await dailyVolume(db, days);
  return { days, from, to, points: points as VolumePoint[] };
}
