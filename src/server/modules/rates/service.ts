import { normalizeDecimal } from '@core/money.js';
import { RATE_KEYS, expandRateSet, type ExpandedRateSet, type RateSet } from '@core/rates.js';
import { RateUpdateSchema } from '@core/schemas.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import type { PriceCache } from '@server/lib/price-cache.js';
import { parseOr400 } from '@server/lib/zod-refusal.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { loadRates, lockRate, notifyPriceEdit, writeRate, type RateRow } from './repo.js';

/** Every rate pair both ways, as stored right now, with the time of the newest change. */
export async function currentRates(db: Db): Promise<ExpandedRateSet> {
  return expandRateSet(await loadRates(db));
}

/** The stored rates (the forward pairs every price is computed from). */
export function storedRates(db: Db): Promise<RateSet> {
  return loadRates(db);
}

// ---- the admin's edits ----

/**
 * A price edit: NOTIFY in its transaction clears every process's cache when it commits, and this
 * process's own at once, so the admin's next read is never stale
 * (docs/decisions/016-price-cache-and-scale-out.md). Tier edits (fees/) go through it too.
 */
export async function editPrices<T>(db: Db, prices: PriceCache, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const done = await work(tx);
    await notifyPriceEdit(tx);
    return done;
  });
  prices.invalidate();
  return result;
}

/** A rate as the audit log shows it: no trailing zeros. */
const rateToJson = (row: RateRow) => ({ key: row.key, value: normalizeDecimal(row.value) ?? row.value, updated_at: row.updated_at.toISOString() });

/** Sets one forward rate (an unknown key names no resource) and answers the whole rate set. */
export async function setRate(db: Db, prices: PriceCache, actor: Actor, key: string, value: string | number) {
  if (!(RATE_KEYS as readonly string[]).includes(key)) throw new AppError('not_found');
  const rate = parseOr400(RateUpdateSchema, { key, value });
  await editPrices(db, prices, async (tx) => {
    const before = await lockRate(tx, key);
    const row = await writeRate(tx, key, rate.value, actor.profile_id);
    await recordAudit(tx, actor, { action: 'rate.update', target: 'rate', id: key, before: before && rateToJson(before), after: rateToJson(row) });
  });
  return currentRates(db);
}
