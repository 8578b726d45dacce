// The fees page's table (docs/rules/fees-and-rates.md#tiers): every range of a corridor from
// its minimum to its maximum, none missing, each with the tier that prices it and the fee of its
// first amount, computed by the same tierFee as every quote. Kept out of fees.ts so the home page,
// which only quotes, does not load it.
import { selectTier, tierFee, type Corridor, type FeeTier } from './fees.js';
import { decimalToMinor, type Currency, type Minor } from './money.js';

export interface FeeRange {
  /** First amount of the range, in minor units of the source currency. */
  from: Minor;
  /** Last amount of the range; null when unbounded (no corridor maximum given). */
  to: Minor | null;
  /** The tier that prices the range (null: no tier, the default percentage). */
  tier: FeeTier | null;
  /** The fee of `from`: the least fee of the range, since the fee never decreases. */
  fee_from: Minor;
}

/**
 * The ranges of ONE direction's tiers over its corridor [min, max] (without a corridor: from the
 * lowest tier's minimum, the last range unbounded). The selected tier changes only at a tier's
 * min_amount or just after its max_amount, so the ranges start there; adjacent pieces priced by
 * one tier are one range. An amount below every tier or in a gap shows in the range of the tier
 * that prices it, so no amount of the corridor is left out.
 */
export function feeSchedule(tiers: readonly FeeTier[], corridor: Corridor | null | undefined, currency: Currency): FeeRange[] {
  const minor = (value: string | null) => (value == null ? null : decimalToMinor(value, currency));
  const tierMins = tiers.map((t) => minor(t.min_amount)).filter((v): v is Minor => v != null && v > 0);
  const start = minor(corridor?.min_amount ?? null) ?? (tierMins.length ? Math.min(...tierMins) : 1);
  const end = minor(corridor?.max_amount ?? null);
  if (end !== null && end < start) return [];
  const cuts = new Set<Minor>();
  for (const tier of tiers) {
    for (const cut of [minor(tier.min_amount), (minor(tier.max_amount) ?? Number.NaN) + 1]) {
      if (cut != null && cut > start && (end === null || cut <= end)) cuts.add(cut);
    }
  }
  const starts = [start, ...[...cuts].sort((a, b) => a - b)];
  const ranges: FeeRange[] = [];
  starts.forEach((from, i) => {
    const next = starts[i + 1];
    const to = next === undefined ? end : next - 1;
    const tier = selectTier(tiers, from, currency);
    const last = ranges[ranges.length - 1];
    if (last && last.tier === tier) last.to = to;
    else ranges.push({ from, to, tier, fee_from: tierFee(tiers, from, currency) });
  });
  return ranges;
}
