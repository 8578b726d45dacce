import { describe, expect, it } from 'vitest';
import { DIRECTIONS, type DirectionId } from './channels.js';
import { feeSchedule } from './fee-schedule.js';
import { SEED_CORRIDORS, SEED_FEE_TIERS, computeQuote, type FeeTier } from './fees.js';
import { decimalToMinor } from './money.js';
import { SEED_RATES } from './rates.js';

const tiersOf = (direction: DirectionId) => SEED_FEE_TIERS.filter((t) => t.direction === direction);
const corridorOf = (direction: DirectionId) => SEED_CORRIDORS.find((c) => c.direction === direction)!;

describe('feeSchedule: the fees page shows every range of each corridor (docs/rules/fees-and-rates.md#tiers)', () => {
  it('USD_XAF: $5 - $100, $100.01 - $500, $500.01 - $2,000, each with the least fee of its range', () => {
    const ranges = feeSchedule(tiersOf('USD_XAF'), corridorOf('USD_XAF'), 'USD');
    expect(ranges.map(({ from, to, tier, fee_from }) => [from, to, tier?.percentage, fee_from])).toEqual([
      [500, 10000, '0.045', 300],
      [10001, 50000, '0.039', 450], // 3.9 % of $100.01 is $3.90: the $4.50 of $100
      [50001, 200000, '0.032', 1950],
    ]);
  });

  it('every seeded corridor: from its minimum to its maximum, no range missing, and the quote\'s fee', () => {
    for (const { id, from: currency } of DIRECTIONS) {
      const corridor = corridorOf(id);
      const ranges = feeSchedule(tiersOf(id), corridor, currency);
      expect(ranges, id).toHaveLength(3);
      expect(ranges[0]!.from, id).toBe(decimalToMinor(corridor.min_amount, currency));
      expect(ranges[ranges.length - 1]!.to, id).toBe(decimalToMinor(corridor.max_amount, currency));
      ranges.forEach((range, i) => {
        if (i > 0) expect(range.from, id).toBe(ranges[i - 1]!.to! + 1);
        // What the calculator and the transfer preview compute for the range's first and last amounts.
        for (const amount of [range.from, range.to!]) {
          const quote = computeQuote({ direction: id, amount, tiers: SEED_FEE_TIERS, corridor, rates: SEED_RATES });
          expect(quote.tier, `${id} ${amount}`).toBe(range.tier);
          if (amount === range.from) expect(quote.fee, `${id} ${amount}`).toBe(range.fee_from);
        }
      });
    }
  });

  it('the XAF corridors start at 3,000 XAF, the corridor minimum', () => {
    expect(feeSchedule(tiersOf('XAF_USD'), corridorOf('XAF_USD'), 'XAF')[0]).toMatchObject({ from: 3000, fee_from: 1800 });
    expect(feeSchedule(tiersOf('XAF_EUR'), corridorOf('XAF_EUR'), 'XAF')[0]).toMatchObject({ from: 3000, fee_from: 1500 });
  });

  it('a database not yet migrated (first tier at 5,000 XAF) still shows 3,000 XAF: in the range of the tier that prices it', () => {
    const old: FeeTier[] = tiersOf('XAF_USD').map((t, i) => (i === 0 ? { ...t, min_amount: '5000' } : t));
    const ranges = feeSchedule(old, corridorOf('XAF_USD'), 'XAF');
    expect(ranges.map((r) => [r.from, r.to])).toEqual([[3000, 60000], [60001, 300000], [300001, 1200000]]);
  });

  it('without a corridor: from the lowest tier, the last range unbounded; no tiers: one range at 4 %', () => {
    const ranges = feeSchedule(tiersOf('USD_EUR'), null, 'USD');
    expect(ranges.map((r) => [r.from, r.to])).toEqual([[100, 10000], [10001, 50000], [50001, null]]);
    expect(feeSchedule([], corridorOf('USD_EUR'), 'USD')).toEqual([{ from: 500, to: 200000, tier: null, fee_from: 20 }]);
  });
});
