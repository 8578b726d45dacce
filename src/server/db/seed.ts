import { sql } from 'drizzle-orm';
import { DEFAULT_APPROVAL_THRESHOLDS } from '@core/approval.js';
import { directionById } from '@core/channels.js';
import { SEED_CORRIDORS, SEED_FEE_TIERS } from '@core/fees.js';
import { defaultQuoteMinutes } from '@core/quotes.js';
import { DEFAULT_OPERATOR_PREFIXES } from '@core/operators.js';
import { RATE_KEYS, SEED_RATES } from '@core/rates.js';
import type { Db } from './client.js';
import { approvalThresholds, corridors, feeTiers, operatorPrefixes, rates } from './schema.js';

/**
 * Seeds the published prices, rates, four-eyes thresholds (docs/rules/fees-and-rates.md) and the
 * operators' number ranges (docs/rules/corridors.md#phone-country-rules) on a fresh database. Existing rows are never overwritten: once an
 * admin edits a tier, a rate or a channel's ranges, a restart keeps the edit.
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    // EUR↔XAF quotes hold a day, the others 30 minutes (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
    await tx.insert(corridors).values(SEED_CORRIDORS.map((c) => {
      const d = directionById(c.direction);
      return { ...c, quote_minutes: defaultQuoteMinutes(d.from, d.to) };
    })).onConflictDoNothing();
    const seededDirections = await tx.execute<{ direction: string }>(sql`select distinct direction from fee_tiers`);
    const have = new Set(seededDirections.rows.map((r) => r.direction));
    const missing = SEED_FEE_TIERS.filter((t) => !have.has(t.direction));
    if (missing.length > 0) {
      await tx.insert(feeTiers).values(missing.map(({ direction, percentage, min_amount, max_amount, min_fee }) => ({
        direction, percentage, min_amount, max_amount, min_fee,
      })));
    }
    const rateRows = RATE_KEYS.map((key) => ({ key, value: SEED_RATES[key] }));
    await tx.insert(rates).values(rateRows).onConflictDoNothing();
    await tx.insert(approvalThresholds).values(Object.entries(DEFAULT_APPROVAL_THRESHOLDS)
      .map(([currency, amount]) => ({ currency: currency as keyof typeof DEFAULT_APPROVAL_THRESHOLDS, amount }))).onConflictDoNothing();
    const seededChannels = await tx.execute<{ channel: string }>(sql`select distinct channel from operator_prefixes`);
    const ranged = new Set(seededChannels.rows.map((r) => r.channel));
    const unranged = DEFAULT_OPERATOR_PREFIXES.filter((p) => !ranged.has(p.channel));
    if (unranged.length > 0) await tx.insert(operatorPrefixes).values(unranged.map((p) => ({ ...p })));
  });
}
