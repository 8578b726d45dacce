import { normalizeDecimal } from '@core/money.js';
import { DEFAULT_RATE_MAX_AGE_HOURS, RATE_KEYS, expandRateSet, staleRate, type ExpandedRateSet, type RateKey, type RateSet } from '@core/rates.js';
import { REFERENCE_RATES, referenceAndMargin } from '@core/quotes.js';
import type { Currency } from '@core/money.js';
import { RateUpdateSchema } from '@core/schemas.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import type { PriceCache } from '@server/lib/price-cache.js';
import { parseOr400 } from '@server/lib/zod-refusal.js';
import { listRateRows } from './repo.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { RATE_MAX_AGE_SETTING, loadRates, lockRate, notifyPriceEdit, writeMaxAge, writeRate, type RateRow } from './repo.js';

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
export async function editPrices<T>(db: Db, prices: Pick<PriceCache, 'invalidate'>, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const done = await work(tx);
    await notifyPriceEdit(tx);
    return done;
  });
  prices.invalidate();
  return result;
}

/** A rate as the audit log shows it: no trailing zeros. */
const rateToJson = (row: RateRow) => ({
  key: row.key, value: normalizeDecimal(row.value) ?? row.value,
  reference: row.reference === null ? null : normalizeDecimal(row.reference) ?? row.reference, source: row.source,
  updated_at: row.updated_at.toISOString(),
});

/**
 * Sets one forward rate (an unknown key names no resource) and, when given, the reference staff
 * enter for it (null: none; EUR↔XAF's is the legal parity and takes none); answers the whole rate set.
 */
export async function setRate(db: Db, prices: PriceCache, actor: Actor, key: string, value: string | number, referenceInput?: string | number | null) {
  if (!(RATE_KEYS as readonly string[]).includes(key)) throw new AppError('not_found');
  const rate = parseOr400(RateUpdateSchema, { key, value });
  const reference = referenceInput === undefined || key in REFERENCE_RATES ? undefined
    : { value: referenceInput === null ? null : rateField('reference', key, referenceInput), source: 'staff' };
  await editPrices(db, prices, async (tx) => {
    const before = await lockRate(tx, key);
    const row = await writeRate(tx, key, rate.value, actor.profile_id, reference);
    await recordAudit(tx, actor, { action: 'rate.update', target: 'rate', id: key, before: before && rateToJson(before), after: rateToJson(row) });
  });
  return currentRates(db);
}

/** A rate typed by staff, checked as ours is; refused on `field`. */
function rateField(field: string, key: string, value: string | number): string {
  const parsed = RateUpdateSchema.safeParse({ key, value });
  if (!parsed.success) throw new AppError('validation_failed', { fields: { [field]: 'validation.rateInvalid' } });
  return parsed.data.value;
}

/** Where a rate's reference comes from, as the admin's screen shows it. */
export type RateSource = 'parity' | 'ecb' | 'staff';

export interface RateSourceJson {
  key: RateKey;
  ours: string;
  reference: string;
  source: RateSource;
  /** 1 − ours ÷ reference, 6 decimals (as a quote's). */
  margin: string;
  updated_at: string;
  /** Older than the maximum age: quotes on it are refused until it is set again. */
  stale: boolean;
}

/** Each stored rate with its reference, source, margin and age, and the maximum age (hours), for the admin. */
export async function rateSources(db: Db): Promise<{ rates: RateSourceJson[]; max_age_hours: number }> {
  const [set, rows] = await Promise.all([loadRates(db), listRateRows(db)]);
  const now = Date.now();
  const fixed = Object.keys(REFERENCE_RATES);
  return {
    max_age_hours: set.maxAgeHours ?? DEFAULT_RATE_MAX_AGE_HOURS,
    rates: RATE_KEYS.map((key) => {
      const [from, to] = key.split('_') as [Currency, Currency];
      const { reference_rate, margin } = referenceAndMargin(from, to, set, set.references);
      const row = rows.find((r) => r.key === key);
      const source: RateSource = key in REFERENCE_RATES ? 'parity' : row?.source === 'ecb' ? 'ecb' : 'staff';
      return {
        key, ours: set[key], reference: reference_rate, source, margin,
        updated_at: set.updated?.[key] ?? set.updatedAt, stale: staleRate(from, to, set, now, fixed) !== null,
      };
    }),
  };
}

/** The admin sets the rates' maximum age in hours (whole, 1 to 720), audited; quotes follow at once. */
export async function setMaxAge(db: Db, prices: PriceCache, actor: Actor, hours: number) {
  if (!Number.isInteger(hours) || hours < 1 || hours > 720) throw new AppError('validation_failed', { fields: { hours: 'admin.validation.rateMaxAgeInvalid' } });
  const before = (await loadRates(db)).maxAgeHours;
  await editPrices(db, prices, async (tx) => {
    await writeMaxAge(tx, hours);
    await recordAudit(tx, actor, { action: 'rate.update', target: 'rate', id: RATE_MAX_AGE_SETTING, before: { max_age_hours: before }, after: { max_age_hours: hours } });
  });
  return rateSources(db);
}
