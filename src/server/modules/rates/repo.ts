import type { RateKey, RateSet } from '@core/rates.js';
import type { Db } from '@server/db/client.js';
import { rates } from '@server/db/schema.js';

/** The stored rate set with the time of its newest change (`updatedAt`, shown by the calculator). */
export async function loadRates(db: Db): Promise<RateSet> {
  const rows = await db.select().from(rates);
  let newest = new Date(0);
  const set: Partial<Record<RateKey, string>> = {};
  for (const row of rows) {
    set[row.key as RateKey] = row.value.replace(/\.?0+$/, '');
    if (row.updated_at > newest) newest = row.updated_at;
  }
  return { ...(set as Record<RateKey, string>), updatedAt: newest.toISOString() };
}
