import { describe, expect, it } from 'vitest';
import { DIRECTIONS, type DirectionId } from './channels.js';
import {
  SEED_CORRIDORS, SEED_FEE_TIERS, checkCorridorLimits, computeFee, computeQuote, feeTierFromInput, firstUncoveredAmount,
  selectTier, shareEdges, tierFee, validateTierSet, type FeeTier,
} from './fees.js';
import { fractionToPercent, percentToFraction } from './percent.js';
import { decimalToMinor, parseAmount, type Currency } from './money.js';
import { SEED_RATES } from './rates.js';

const tiersOf = (direction: DirectionId) => SEED_FEE_TIERS.filter((t) => t.direction === direction);
const corridorOf = (direction: DirectionId) => SEED_CORRIDORS.find((c) => c.direction === direction)!;
const currencyOf = (direction: DirectionId): Currency => DIRECTIONS.find((d) => d.id === direction)!.from;
/** Major-unit text to minor units, so tests read like the spec ("100.01"). */
const m = (text: string, currency: Currency = 'USD') => parseAmount(text, currency)!;

describe('worked examples (issue text)', () => {
  it('100 USD on USD_XAF: fee 4.50 (4.5 %, above the 3.00 minimum), total 104.50, payout 61,000 XAF', () => {
    const quote = computeQuote({ direction: 'USD_XAF', amount: m('100'), tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(quote).toMatchObject({
      direction: 'USD_XAF', source: 'paypal_usd', destination: 'airtel_gabon', currency: 'USD', payout_currency: 'XAF',
      amount: 10000, fee: 450, total: 10450, rate: '610', payout: 61000,
    });
    expect(quote.tier?.percentage).toBe('0.045');
  });

  it('50 USD on USD_XAF: the 3.00 minimum fee (4.5 % would be 2.25)', () => {
    const quote = computeQuote({ direction: 'USD_XAF', amount: m('50'), tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(quote.fee).toBe(300);
    expect(quote.total).toBe(5300);
    expect(quote.payout).toBe(30500);
  });

  it('an amount of 0 or less: fee 0, total = amount', () => {
    for (const amount of [0, -500]) {
      const quote = computeQuote({ direction: 'USD_XAF', amount, tiers: SEED_FEE_TIERS, rates: SEED_RATES });
      expect(quote.fee).toBe(0);
      expect(quote.total).toBe(amount);
      expect(quote.payout).toBe(0);
      expect(quote.tier).toBeNull();
    }
    expect(computeFee(0, 'USD', tiersOf('USD_XAF')[0]!)).toBe(0);
    expect(computeFee(-100, 'USD', null)).toBe(0);
  });

  it('a missing rate converts to 0', () => {
    const { USD_XAF: _missing, ...rest } = SEED_RATES;
    const quote = computeQuote({ direction: 'USD_XAF', amount: m('100'), tiers: SEED_FEE_TIERS, rates: rest });
    expect(quote.payout).toBe(0);
    expect(quote.rate).toBe('0');
    expect(quote.fee).toBe(450);
    expect(quote.total).toBe(10450);
  });

  it('each tier set prices by its own tiers: a set read once is not taken for another (an edit publishes a new set)', () => {
    const before = computeQuote({ direction: 'USD_XAF', amount: m('100'), tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    const edited = SEED_FEE_TIERS.map((t) => (t.direction === 'USD_XAF' && t.min_amount === tiersOf('USD_XAF')[0]!.min_amount ? { ...t, percentage: '0.05' } : t));
    const after = computeQuote({ direction: 'USD_XAF', amount: m('100'), tiers: edited, rates: SEED_RATES });
    expect([before.fee, after.fee]).toEqual([450, 500]);
    // Each direction of one set has its own tiers, read once each.
    expect(computeQuote({ direction: 'USD_XAF', amount: m('100'), tiers: edited, rates: SEED_RATES }).fee).toBe(500);
    expect(computeQuote({ direction: 'EUR_XAF', amount: m('100'), tiers: edited, rates: SEED_RATES }).fee)
      .toBe(computeQuote({ direction: 'EUR_XAF', amount: m('100'), tiers: SEED_FEE_TIERS, rates: SEED_RATES }).fee);
    expect(computeQuote({ direction: 'USD_XAF', amount: m('100'), tiers: SEED_FEE_TIERS, rates: SEED_RATES }).fee).toBe(450);
  });
});

describe('seed data', () => {
  it('has 3 tiers and a corridor for each of the 12 directions', () => {
    for (const d of DIRECTIONS) {
      expect(tiersOf(d.id)).toHaveLength(3);
      expect(corridorOf(d.id)).toBeDefined();
      expect(validateTierSet(tiersOf(d.id))).toBeNull();
    }
    expect(SEED_CORRIDORS).toHaveLength(12);
  });

  it('puts the minimum fee on the first tier only, and none on France bank directions', () => {
    const minFees = Object.fromEntries(DIRECTIONS.map((d) => [d.id, tiersOf(d.id).map((t) => t.min_fee)]));
    expect(minFees).toEqual({
      USD_XAF: ['3', null, null], USD_RWF: ['3', null, null], EUR_XAF: ['2.5', null, null], EUR_RWF: ['2.5', null, null],
      XAF_USD: ['1800', null, null], RWF_USD: ['1500', null, null], XAF_EUR: ['1500', null, null], RWF_EUR: ['1400', null, null],
      USD_EUR: [null, null, null], EUR_EUR: [null, null, null], EUR_USD: [null, null, null], EUR_EUR_FRANCE: [null, null, null],
    });
  });

  it('uses the fees-page corridor limits and processing times', () => {
    expect(corridorOf('USD_XAF')).toEqual({ direction: 'USD_XAF', min_amount: '5', max_amount: '2000', processing_time: '10-60 min' });
    expect(corridorOf('XAF_USD')).toEqual({ direction: 'XAF_USD', min_amount: '3000', max_amount: '1200000', processing_time: '10-90 min' });
    expect(corridorOf('RWF_EUR')).toMatchObject({ min_amount: '5000', max_amount: '2000000', processing_time: '10-90 min' });
    expect(corridorOf('EUR_EUR_FRANCE')).toMatchObject({ min_amount: '5', max_amount: '2000', processing_time: '1-2 business days' });
  });
});

// [direction, amount (major), expected tier percentage, expected fee (major)] — every corridor's edges.
// Just above an edge the next tier's percentage applies, but the fee is at least the edge's (docs/rules/fees-and-rates.md#tiers).
const EDGES: [DirectionId, string, string, string][] = [
  ['USD_XAF', '50', '0.045', '3.00'],
  ['USD_XAF', '100', '0.045', '4.50'],
  ['USD_XAF', '100.01', '0.039', '4.50'],
  ['USD_XAF', '500', '0.039', '19.50'],
  ['USD_XAF', '500.01', '0.032', '19.50'],
  ['USD_XAF', '2000', '0.032', '64.00'],
  ['USD_RWF', '50', '0.048', '3.00'],
  ['USD_RWF', '100', '0.048', '4.80'],
  ['USD_RWF', '100.01', '0.041', '4.80'],
  ['USD_RWF', '500', '0.041', '20.50'],
  ['USD_RWF', '500.01', '0.034', '20.50'],
  ['EUR_XAF', '50', '0.043', '2.50'],
  ['EUR_XAF', '60', '0.043', '2.58'],
  ['EUR_XAF', '100', '0.043', '4.30'],
  ['EUR_XAF', '100.01', '0.037', '4.30'],
  ['EUR_XAF', '500', '0.037', '18.50'],
  ['EUR_XAF', '500.01', '0.03', '18.50'],
  ['EUR_RWF', '50', '0.046', '2.50'],
  ['EUR_RWF', '100', '0.046', '4.60'],
  ['EUR_RWF', '100.01', '0.039', '4.60'],
  ['EUR_RWF', '500.01', '0.032', '19.50'],
  ['XAF_USD', '3000', '0.042', '1800'],
  ['XAF_USD', '5000', '0.042', '1800'],
  ['XAF_USD', '42857', '0.042', '1800'],
  ['XAF_USD', '42858', '0.042', '1800'],
  ['XAF_USD', '42870', '0.042', '1801'],
  ['XAF_USD', '59750', '0.042', '2510'],
  ['XAF_USD', '60000', '0.042', '2520'],
  ['XAF_USD', '60001', '0.036', '2520'],
  ['XAF_USD', '300000', '0.036', '10800'],
  ['XAF_USD', '300001', '0.03', '10800'],
  ['RWF_USD', '5000', '0.044', '1500'],
  ['RWF_USD', '120000', '0.044', '5280'],
  ['RWF_USD', '120001', '0.037', '5280'],
  ['RWF_USD', '600000', '0.037', '22200'],
  ['RWF_USD', '600001', '0.031', '22200'],
  ['XAF_EUR', '10000', '0.04', '1500'],
  ['XAF_EUR', '65000', '0.04', '2600'],
  ['XAF_EUR', '65001', '0.034', '2600'],
  ['XAF_EUR', '327500', '0.034', '11135'],
  ['XAF_EUR', '327501', '0.028', '11135'],
  ['RWF_EUR', '5000', '0.042', '1400'],
  ['RWF_EUR', '140000', '0.042', '5880'],
  ['RWF_EUR', '140001', '0.035', '5880'],
  ['RWF_EUR', '700000', '0.035', '24500'],
  ['RWF_EUR', '700001', '0.029', '24500'],
  ['USD_EUR', '50', '0.032', '1.60'],
  ['USD_EUR', '100', '0.032', '3.20'],
  ['USD_EUR', '100.01', '0.028', '3.20'],
  ['USD_EUR', '500', '0.028', '14.00'],
  ['USD_EUR', '500.01', '0.024', '14.00'],
  ['EUR_EUR', '100', '0.025', '2.50'],
  ['EUR_EUR', '100.01', '0.021', '2.50'],
  ['EUR_EUR', '500.01', '0.018', '10.50'],
  ['EUR_USD', '100', '0.031', '3.10'],
  ['EUR_USD', '100.01', '0.027', '3.10'],
  ['EUR_USD', '500.01', '0.023', '13.50'],
  ['EUR_EUR_FRANCE', '100', '0.024', '2.40'],
  ['EUR_EUR_FRANCE', '500', '0.02', '10.00'],
  ['EUR_EUR_FRANCE', '500.01', '0.017', '10.00'],
];

describe('tier edges and fees of every corridor', () => {
  it.each(EDGES)('%s %s → %s, fee %s', (direction, amountText, percentage, feeText) => {
    const currency = currencyOf(direction);
    const amount = m(amountText, currency);
    const quote = computeQuote({ direction, amount, tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(quote.tier?.percentage).toBe(percentage);
    expect(quote.fee).toBe(m(feeText, currency));
    expect(quote.total).toBe(amount + m(feeText, currency));
  });
});

describe('selectTier', () => {
  const usdXaf = tiersOf('USD_XAF');

  it('picks the lower tier on a shared boundary', () => {
    expect(selectTier(usdXaf, m('100'), 'USD')?.percentage).toBe('0.045');
    expect(selectTier(usdXaf, m('500'), 'USD')?.percentage).toBe('0.039');
  });

  it('picks the lowest tier below every tier and the open-ended tier above', () => {
    expect(selectTier(usdXaf, m('0.50'), 'USD')?.percentage).toBe('0.045');
    expect(selectTier(usdXaf, m('1000000'), 'USD')?.percentage).toBe('0.032');
  });

  it('uses the tier with the highest min_amount when none matches', () => {
    const bounded: FeeTier[] = [
      { direction: 'USD_XAF', percentage: '0.05', min_amount: '1', max_amount: '100', min_fee: null },
      { direction: 'USD_XAF', percentage: '0.03', min_amount: '200', max_amount: '300', min_fee: null },
    ];
    expect(selectTier(bounded, m('150'), 'USD')?.percentage).toBe('0.03');
    expect(selectTier(bounded, m('400'), 'USD')?.percentage).toBe('0.03');
  });

  it('does not depend on the order of the tiers', () => {
    expect(selectTier([...usdXaf].reverse(), m('100'), 'USD')?.percentage).toBe('0.045');
  });

  it('reads database-style decimals ("100.00", "61000.00")', () => {
    const tier: FeeTier = { direction: 'XAF_USD', percentage: '0.042000', min_amount: '5000.00', max_amount: '60000.00', min_fee: '1800.00' };
    expect(selectTier([tier], 60000, 'XAF')).toBe(tier);
    expect(computeFee(60000, 'XAF', tier)).toBe(2520);
  });

  it('is null without tiers, and skips unusable tiers', () => {
    expect(selectTier([], 10000, 'USD')).toBeNull();
    const broken: FeeTier = { direction: 'USD_XAF', percentage: '0.01', min_amount: 'abc', max_amount: null, min_fee: null };
    expect(selectTier([broken], 10000, 'USD')).toBeNull();
    expect(selectTier([broken, ...usdXaf], 10000, 'USD')?.percentage).toBe('0.045');
  });

  it('uses only the requested direction in a quote', () => {
    const quote = computeQuote({ direction: 'USD_RWF', amount: m('100'), tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(quote.tier?.direction).toBe('USD_RWF');
    expect(quote.fee).toBe(480);
    expect(quote.payout).toBe(130000);
  });
});

describe('computeFee', () => {
  it('charges 4 % without a tier', () => {
    expect(computeFee(10000, 'USD', null)).toBe(400);
    expect(computeFee(12345, 'XAF', null)).toBe(494); // 493.8
    const quote = computeQuote({ direction: 'USD_XAF', amount: m('100'), tiers: [], rates: SEED_RATES });
    expect(quote.fee).toBe(400);
    expect(quote.tier).toBeNull();
  });

  it('rounds half up to the minor unit', () => {
    const first = tiersOf('USD_XAF')[0]!;
    expect(computeFee(6700, 'USD', first)).toBe(302); // 301.5 cents
    expect(computeFee(6699, 'USD', first)).toBe(301); // 301.455 cents
  });

  it('rounds XAF and RWF fees to whole units', () => {
    const xafUsd = tiersOf('XAF_USD')[1]!; // 3.6 %
    expect(computeFee(70001, 'XAF', xafUsd)).toBe(2520); // 2520.036
    const rwfEur = tiersOf('RWF_EUR')[1]!; // 3.5 %
    expect(computeFee(150010, 'RWF', rwfEur)).toBe(5250); // 5250.35
    expect(computeFee(150030, 'RWF', rwfEur)).toBe(5251); // 5251.05
  });

  it('raises the fee to min_fee', () => {
    const eurXaf = tiersOf('EUR_XAF')[0]!;
    expect(computeFee(m('5', 'EUR'), 'EUR', eurXaf)).toBe(250);
    expect(computeFee(m('58.14', 'EUR'), 'EUR', eurXaf)).toBe(250);
    expect(computeFee(m('58.15', 'EUR'), 'EUR', eurXaf)).toBe(250); // 2.50045
    expect(computeFee(m('58.25', 'EUR'), 'EUR', eurXaf)).toBe(250); // 2.50475 → 2.50
    expect(computeFee(m('58.27', 'EUR'), 'EUR', eurXaf)).toBe(251); // 2.50561
  });
});

describe('checkCorridorLimits', () => {
  it('accepts the inclusive range and reports the crossed limit', () => {
    const usd = corridorOf('USD_XAF');
    expect(checkCorridorLimits(m('4.99'), 'USD', usd)).toEqual({ code: 'below_min', limit: 500 });
    expect(checkCorridorLimits(m('5'), 'USD', usd)).toBeNull();
    expect(checkCorridorLimits(m('2000'), 'USD', usd)).toBeNull();
    expect(checkCorridorLimits(m('2000.01'), 'USD', usd)).toEqual({ code: 'above_max', limit: 200000 });
    const xaf = corridorOf('XAF_USD');
    expect(checkCorridorLimits(2999, 'XAF', xaf)).toEqual({ code: 'below_min', limit: 3000 });
    expect(checkCorridorLimits(3000, 'XAF', xaf)).toBeNull();
    expect(checkCorridorLimits(1200001, 'XAF', xaf)).toEqual({ code: 'above_max', limit: 1200000 });
    expect(checkCorridorLimits(2000001, 'RWF', corridorOf('RWF_USD'))).toEqual({ code: 'above_max', limit: 2000000 });
  });

  it('is part of a quote when a corridor is given', () => {
    const base = { direction: 'USD_XAF' as const, tiers: SEED_FEE_TIERS, rates: SEED_RATES, corridor: corridorOf('USD_XAF') };
    expect(computeQuote({ ...base, amount: m('4') }).limit_error).toEqual({ code: 'below_min', limit: 500 });
    expect(computeQuote({ ...base, amount: m('100') }).limit_error).toBeNull();
    expect(computeQuote({ ...base, amount: m('100') }).processing_time).toBe('10-60 min');
    expect(computeQuote({ ...base, amount: 0 }).limit_error).toBeNull();
  });
});

describe('quotes in XAF/RWF and France bank corridors', () => {
  it('XAF_USD 100,000 XAF: fee 3,600 XAF, payout in cents', () => {
    const quote = computeQuote({ direction: 'XAF_USD', amount: 100000, tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(quote).toMatchObject({ currency: 'XAF', payout_currency: 'USD', fee: 3600, total: 103600, payout: 16393, rate: '0.00163934426229508197' });
  });
  it('EUR_EUR keeps the amount and a rate of 1', () => {
    const quote = computeQuote({ direction: 'EUR_EUR', amount: m('250', 'EUR'), tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(quote).toMatchObject({ source: 'paypal_eur', destination: 'bank_france', fee: 525, payout: 25000, rate: '1' });
  });
  it('EUR_USD converts at 1.08', () => {
    const quote = computeQuote({ direction: 'EUR_USD', amount: m('100', 'EUR'), tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(quote).toMatchObject({ source: 'bank_france', fee: 310, total: 10310, payout: 10800, rate: '1.08' });
  });
});

describe('validateTierSet', () => {
  const tier = (min: string, max: string | null, extra: Partial<FeeTier> = {}): FeeTier => ({
    direction: 'USD_XAF', percentage: '0.04', min_amount: min, max_amount: max, min_fee: null, ...extra,
  });

  it('accepts touching tiers, an empty set and an open-ended last tier', () => {
    expect(validateTierSet([])).toBeNull();
    expect(validateTierSet([tier('1', '100'), tier('100', '500'), tier('500', null)])).toBeNull();
    expect(validateTierSet([tier('500', null), tier('1', '100'), tier('100', '500')])).toBeNull();
    expect(validateTierSet([tier('1', '100'), tier('200', '300')])).toBeNull();
    expect(validateTierSet([tier('1', '100', { min_fee: '0' })])).toBeNull();
  });

  it('requires 0 < percentage < 1', () => {
    for (const percentage of ['0', '1', '1.5', '45', 'abc', '-0.1']) {
      expect(validateTierSet([tier('1', '100', { percentage })])).toBe('fee_percentage_range');
    }
    expect(validateTierSet([tier('1', '100', { percentage: '0.999999' })])).toBeNull();
  });

  it('requires min < max', () => {
    expect(validateTierSet([tier('100', '100')])).toBe('fee_min_max');
    expect(validateTierSet([tier('500', '100')])).toBe('fee_min_max');
  });

  it('refuses overlaps', () => {
    expect(validateTierSet([tier('1', '100'), tier('50', '500')])).toBe('fee_tier_overlap');
    expect(validateTierSet([tier('1', null), tier('100', '500')])).toBe('fee_tier_overlap');
    expect(validateTierSet([tier('1', '100'), tier('1', '100')])).toBe('fee_tier_overlap');
  });

  it('refuses negative or invalid min fees and amounts, and mixed directions', () => {
    expect(validateTierSet([tier('1', '100', { min_fee: '-1' })])).toBe('fee_min_fee_invalid');
    expect(validateTierSet([tier('x', '100')])).toBe('fee_amount_invalid');
    expect(validateTierSet([tier('1', '100'), tier('100', null, { direction: 'USD_RWF' })])).toBe('fee_tier_direction_mixed');
  });
});

describe('percent ↔ fraction', () => {
  it('converts exactly', () => {
    expect(percentToFraction('4.5')).toBe('0.045');
    expect(percentToFraction('3')).toBe('0.03');
    expect(percentToFraction(2.25)).toBe('0.0225');
    expect(percentToFraction('x')).toBeNull();
    expect(fractionToPercent('0.045')).toBe('4.5');
    expect(fractionToPercent('0.030000')).toBe('3');
    expect(fractionToPercent('0.5')).toBe('50');
    expect(fractionToPercent('x')).toBeNull();
  });
  it('builds a stored tier from an admin input, whose percentage is already a fraction', () => {
    expect(feeTierFromInput({ direction: 'USD_XAF', percentage: '0.045', min_amount: '1', max_amount: '100', min_fee: '3' })).toEqual({
      direction: 'USD_XAF', percentage: '0.045', min_amount: '1', max_amount: '100', min_fee: '3',
    });
    expect(feeTierFromInput({ direction: 'USD_XAF', percentage: '0.032', min_amount: '500', max_amount: null }).min_fee).toBeNull();
  });
});

/** A seeded generator (mulberry32), so every run draws the same amounts and a failure replays. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  /** An integer in [min, max]. */
  return (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
}

const limitsOf = (direction: DirectionId) => {
  const corridor = corridorOf(direction);
  const currency = currencyOf(direction);
  return { currency, min: decimalToMinor(corridor.min_amount, currency)!, max: decimalToMinor(corridor.max_amount, currency)! };
};
const totalOf = (direction: DirectionId, amount: number) =>
  computeQuote({ direction, amount, tiers: SEED_FEE_TIERS, rates: SEED_RATES }).total;

describe('a bigger transfer never costs less (docs/rules/fees-and-rates.md#tiers)', () => {
  it('$100.01 never costs less than $100, on every corridor (the issue: $103.91 against $104.50)', () => {
    const usdXaf = computeQuote({ direction: 'USD_XAF', amount: m('100.01'), tiers: SEED_FEE_TIERS, rates: SEED_RATES });
    expect(usdXaf).toMatchObject({ fee: 450, total: 10451 });
    expect(usdXaf.total).toBeGreaterThan(totalOf('USD_XAF', m('100')));
    for (const { id } of DIRECTIONS) {
      const { currency } = limitsOf(id);
      // 100 and 100.01 in the source currency; XAF and RWF have no cents, so 100 and 101 there.
      const hundred = m('100', currency);
      expect(totalOf(id, hundred + 1), id).toBeGreaterThan(totalOf(id, hundred));
    }
  });

  it('at every tier edge, one minor unit more never costs less, nor pays a lower fee', () => {
    for (const tier of SEED_FEE_TIERS) {
      const currency = currencyOf(tier.direction);
      for (const edge of [tier.min_amount, tier.max_amount]) {
        if (edge == null) continue;
        const amount = m(edge, currency);
        const [below, at, above] = [amount - 1, amount, amount + 1]
          .map((a) => computeQuote({ direction: tier.direction, amount: a, tiers: SEED_FEE_TIERS, rates: SEED_RATES }));
        expect(at!.fee, `${tier.direction} ${edge}`).toBeGreaterThanOrEqual(below!.fee);
        expect(above!.fee, `${tier.direction} ${edge}`).toBeGreaterThanOrEqual(at!.fee);
        expect(above!.total, `${tier.direction} ${edge}`).toBeGreaterThan(at!.total);
      }
    }
  });

  it('property: over 10,000 random amounts per corridor, the total grows with the amount (a+1 and every larger amount drawn)', () => {
    const draw = random(20_140_514);
    for (const { id } of DIRECTIONS) {
      const { currency, min, max } = limitsOf(id);
      const edges = tiersOf(id).flatMap((t) => [t.min_amount, t.max_amount]).filter((e): e is string => e != null).map((e) => m(e, currency));
      // Half the draws near a tier edge (where a fee could drop), half anywhere in the corridor.
      const drawn = Array.from({ length: 10_000 }, (_, i) =>
        Math.min(Math.max(i % 2 === 0 ? edges[draw(0, edges.length - 1)]! + draw(-50, 50) : draw(min, max), min), max - 1));
      const amounts = [...new Set(drawn.flatMap((a) => [a, a + 1]))].sort((a, b) => a - b);
      const total = new Map(amounts.map((a) => [a, totalOf(id, a)]));
      for (const a of drawn) {
        if (!(total.get(a + 1)! > total.get(a)!)) throw new Error(`${id}: total(${a + 1}) = ${total.get(a + 1)} ≤ total(${a}) = ${total.get(a)}`);
      }
      // Sorted, each total above the one before: so above every smaller amount drawn.
      amounts.forEach((a, i) => {
        const before = amounts[i - 1];
        if (before !== undefined && !(total.get(a)! > total.get(before)!)) {
          throw new Error(`${id}: total(${a}) = ${total.get(a)} ≤ total(${before}) = ${total.get(before)}`);
        }
      });
      expect(drawn).toHaveLength(10_000);
    }
  }, 60_000);

  it('holds for any tier set, gaps and all: random tiers and amounts', () => {
    const draw = random(7);
    for (let set = 0; set < 300; set += 1) {
      const bounds = [...new Set(Array.from({ length: draw(1, 5) }, () => draw(1, 100_000)))].sort((x, y) => x - y);
      const tiers: FeeTier[] = bounds.map((min, i) => ({
        direction: 'XAF_USD' as const, percentage: `0.0${draw(10, 99)}`, min_amount: String(min),
        max_amount: i + 1 < bounds.length ? String(bounds[i + 1]! - draw(0, 3) * 500) : draw(0, 1) ? null : String(min + draw(1, 5000)),
        min_fee: draw(0, 2) === 0 ? String(draw(0, 3000)) : null,
      })).filter((t) => t.max_amount === null || Number(t.max_amount) > Number(t.min_amount));
      let previous = 0;
      for (let a = 1; a < 120_000; a += draw(1, 400)) {
        const fee = tierFee(tiers, a, 'XAF');
        if (fee < previous) throw new Error(`fee(${a}) = ${fee} < ${previous} with ${JSON.stringify(tiers)}`);
        previous = fee;
      }
    }
  });

  it('is what computeQuote charges, and keeps the own tier fee and 4 % without tiers', () => {
    const usdXaf = tiersOf('USD_XAF');
    expect(tierFee(usdXaf, m('150'), 'USD')).toBe(585); // 3.9 %, above the $4.50 floor
    expect(tierFee(usdXaf, m('110'), 'USD')).toBe(450); // 3.9 % is $4.29: the $4.50 of $100
    expect(tierFee([], m('100'), 'USD')).toBe(400);
    expect(tierFee(usdXaf, 0, 'USD')).toBe(0);
    expect(tierFee(usdXaf, -5, 'USD')).toBe(0);
  });
});

describe('tiers cover every corridor (docs/rules/fees-and-rates.md#tiers)', () => {
  it('every seeded corridor: the tiers cover [min, max] with no gap, starting at or below the corridor minimum', () => {
    for (const { id } of DIRECTIONS) {
      const corridor = corridorOf(id);
      expect(firstUncoveredAmount(tiersOf(id), corridor), id).toBeNull();
      expect(validateTierSet(tiersOf(id), corridor), id).toBeNull();
      const { currency, min } = limitsOf(id);
      expect(Math.min(...tiersOf(id).map((t) => m(t.min_amount, currency))), id).toBeLessThanOrEqual(min);
    }
    expect(tiersOf('XAF_USD')[0]!.min_amount).toBe('3000');
    expect(tiersOf('XAF_EUR')[0]!.min_amount).toBe('3000');
  });

  const tier = (min: string, max: string | null): FeeTier => ({ direction: 'XAF_USD', percentage: '0.04', min_amount: min, max_amount: max, min_fee: null });
  const xafUsd = corridorOf('XAF_USD'); // 3,000 - 1,200,000 XAF

  it('finds the first uncovered amount: below the first tier, between tiers, above the last', () => {
    expect(firstUncoveredAmount([tier('5000', '60000'), tier('60000', null)], xafUsd)).toBe(3000);
    expect(firstUncoveredAmount([tier('3000', '60000'), tier('70000', null)], xafUsd)).toBe(60001);
    expect(firstUncoveredAmount([tier('3000', '60000'), tier('60001', null)], xafUsd)).toBeNull();
    expect(firstUncoveredAmount([tier('3000', '60000'), tier('60000', '1000000')], xafUsd)).toBe(1000001);
    expect(firstUncoveredAmount([tier('1', '60000'), tier('60000', '1200000'), tier('1500000', null)], xafUsd)).toBeNull();
    expect(firstUncoveredAmount([], xafUsd)).toBe(3000);
    const usd = corridorOf('USD_XAF');
    expect(firstUncoveredAmount([{ ...tier('1', '100'), direction: 'USD_XAF' }, { ...tier('100.01', null), direction: 'USD_XAF' }], usd)).toBeNull();
    expect(firstUncoveredAmount([{ ...tier('1', '100'), direction: 'USD_XAF' }, { ...tier('100.02', null), direction: 'USD_XAF' }], usd)).toBe(10001);
  });

  it('validateTierSet with the corridor refuses a gap, and no tier at all', () => {
    expect(validateTierSet([tier('5000', '60000'), tier('60000', null)], xafUsd)).toBe('fee_tier_gap');
    expect(validateTierSet([tier('3000', '60000'), tier('70000', null)], xafUsd)).toBe('fee_tier_gap');
    expect(validateTierSet([], xafUsd)).toBe('fee_tier_gap');
    expect(validateTierSet([tier('3000', '60000'), tier('50000', null)], xafUsd)).toBe('fee_tier_overlap');
    expect(validateTierSet([tier('3000', '60000'), tier('60000', null)], xafUsd)).toBeNull();
    // Without a corridor, as before: only each tier and overlaps.
    expect(validateTierSet([tier('5000', '60000'), tier('70000', null)])).toBeNull();
  });
});

describe('shareEdges: a single-tier edit keeps the shared edges together', () => {
  const [low, middle, top] = tiersOf('USD_XAF') as [FeeTier, FeeTier, FeeTier]; // [1,100] [100,500] [500,∞)

  it('a moved min_amount moves the max_amount of the tier below, a moved max_amount the min_amount of the tier above', () => {
    expect(shareEdges([low, top], middle, { ...middle, min_amount: '150' })).toEqual([{ ...low, max_amount: '150' }, top]);
    expect(shareEdges([low, top], middle, { ...middle, max_amount: '800.00' })).toEqual([low, { ...top, min_amount: '800.00' }]);
    expect(shareEdges([middle, top], low, { ...low, min_amount: '0.5' })).toEqual([middle, top]);
    // Numeric equality: the database's "100.00" is the admin's "100".
    const stored = { ...low, max_amount: '100.00' };
    expect(shareEdges([stored, top], middle, { ...middle, min_amount: '120' })[0]).toEqual({ ...stored, max_amount: '120' });
  });

  it('a changed percentage moves nothing, nor does a new tier', () => {
    const others = [low, top];
    const result = shareEdges(others, middle, { ...middle, percentage: '0.02' });
    expect(result[0]).toBe(low);
    expect(result[1]).toBe(top);
    expect(shareEdges(others, null, middle)).toEqual(others);
  });

  it('a deleted tier leaves its range to the tier below, the lowest tier to the tier above', () => {
    expect(shareEdges([low, top], middle, null)).toEqual([{ ...low, max_amount: '500' }, top]);
    expect(shareEdges([middle, top], low, null)).toEqual([{ ...middle, min_amount: '1' }, top]);
    expect(shareEdges([low, middle], top, null)).toEqual([low, { ...middle, max_amount: null }]);
  });

  it('a set the moved edge swallows a neighbour of is refused by validateTierSet', () => {
    const moved = shareEdges([low, top], middle, { ...middle, min_amount: '1' });
    expect(moved[0]).toMatchObject({ min_amount: '1', max_amount: '1' });
    expect(validateTierSet([moved[0]!])).toBe('fee_min_max');
  });
});
