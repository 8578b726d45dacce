import { describe, expect, it } from 'vitest';
import { DIRECTIONS, type DirectionId } from './channels.js';
import {
  SEED_CORRIDORS, SEED_FEE_TIERS, checkCorridorLimits, computeFee, computeQuote, feeTierFromInput,
  fractionToPercent, percentToFraction, selectTier, validateTierSet, type FeeTier,
} from './fees.js';
import { parseAmount, type Currency } from './money.js';
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

// [direction, amount (major), expected percentage, expected fee (major)] — every corridor's edges.
const EDGES: [DirectionId, string, string, string][] = [
  ['USD_XAF', '50', '0.045', '3.00'],
  ['USD_XAF', '100', '0.045', '4.50'],
  ['USD_XAF', '100.01', '0.039', '3.90'],
  ['USD_XAF', '500', '0.039', '19.50'],
  ['USD_XAF', '500.01', '0.032', '16.00'],
  ['USD_XAF', '2000', '0.032', '64.00'],
  ['USD_RWF', '50', '0.048', '3.00'],
  ['USD_RWF', '100', '0.048', '4.80'],
  ['USD_RWF', '100.01', '0.041', '4.10'],
  ['USD_RWF', '500', '0.041', '20.50'],
  ['USD_RWF', '500.01', '0.034', '17.00'],
  ['EUR_XAF', '50', '0.043', '2.50'],
  ['EUR_XAF', '60', '0.043', '2.58'],
  ['EUR_XAF', '100', '0.043', '4.30'],
  ['EUR_XAF', '100.01', '0.037', '3.70'],
  ['EUR_XAF', '500', '0.037', '18.50'],
  ['EUR_XAF', '500.01', '0.03', '15.00'],
  ['EUR_RWF', '50', '0.046', '2.50'],
  ['EUR_RWF', '100', '0.046', '4.60'],
  ['EUR_RWF', '100.01', '0.039', '3.90'],
  ['EUR_RWF', '500.01', '0.032', '16.00'],
  ['XAF_USD', '3000', '0.042', '1800'],
  ['XAF_USD', '5000', '0.042', '1800'],
  ['XAF_USD', '59750', '0.042', '2510'],
  ['XAF_USD', '60000', '0.042', '2520'],
  ['XAF_USD', '60001', '0.036', '2160'],
  ['XAF_USD', '300000', '0.036', '10800'],
  ['XAF_USD', '300001', '0.03', '9000'],
  ['RWF_USD', '5000', '0.044', '1500'],
  ['RWF_USD', '120000', '0.044', '5280'],
  ['RWF_USD', '120001', '0.037', '4440'],
  ['RWF_USD', '600000', '0.037', '22200'],
  ['RWF_USD', '600001', '0.031', '18600'],
  ['XAF_EUR', '10000', '0.04', '1500'],
  ['XAF_EUR', '65000', '0.04', '2600'],
  ['XAF_EUR', '65001', '0.034', '2210'],
  ['XAF_EUR', '327500', '0.034', '11135'],
  ['XAF_EUR', '327501', '0.028', '9170'],
  ['RWF_EUR', '5000', '0.042', '1400'],
  ['RWF_EUR', '140000', '0.042', '5880'],
  ['RWF_EUR', '140001', '0.035', '4900'],
  ['RWF_EUR', '700000', '0.035', '24500'],
  ['RWF_EUR', '700001', '0.029', '20300'],
  ['USD_EUR', '50', '0.032', '1.60'],
  ['USD_EUR', '100', '0.032', '3.20'],
  ['USD_EUR', '100.01', '0.028', '2.80'],
  ['USD_EUR', '500', '0.028', '14.00'],
  ['USD_EUR', '500.01', '0.024', '12.00'],
  ['EUR_EUR', '100', '0.025', '2.50'],
  ['EUR_EUR', '100.01', '0.021', '2.10'],
  ['EUR_EUR', '500.01', '0.018', '9.00'],
  ['EUR_USD', '100', '0.031', '3.10'],
  ['EUR_USD', '100.01', '0.027', '2.70'],
  ['EUR_USD', '500.01', '0.023', '11.50'],
  ['EUR_EUR_FRANCE', '100', '0.024', '2.40'],
  ['EUR_EUR_FRANCE', '500', '0.02', '10.00'],
  ['EUR_EUR_FRANCE', '500.01', '0.017', '8.50'],
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
    expect(quote).toMatchObject({ currency: 'XAF', payout_currency: 'USD', fee: 3600, total: 103600, payout: 16393, rate: '0.001639' });
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
      expect(validateTierSet([tier('1', '100', { percentage })])).toBe('validation.feePercentageRange');
    }
    expect(validateTierSet([tier('1', '100', { percentage: '0.999999' })])).toBeNull();
  });

  it('requires min < max', () => {
    expect(validateTierSet([tier('100', '100')])).toBe('validation.feeMinMax');
    expect(validateTierSet([tier('500', '100')])).toBe('validation.feeMinMax');
  });

  it('refuses overlaps', () => {
    expect(validateTierSet([tier('1', '100'), tier('50', '500')])).toBe('validation.feeTierOverlap');
    expect(validateTierSet([tier('1', null), tier('100', '500')])).toBe('validation.feeTierOverlap');
    expect(validateTierSet([tier('1', '100'), tier('1', '100')])).toBe('validation.feeTierOverlap');
  });

  it('refuses negative or invalid min fees and amounts, and mixed directions', () => {
    expect(validateTierSet([tier('1', '100', { min_fee: '-1' })])).toBe('validation.feeMinFeeInvalid');
    expect(validateTierSet([tier('x', '100')])).toBe('validation.feeAmountInvalid');
    expect(validateTierSet([tier('1', '100'), tier('100', null, { direction: 'USD_RWF' })])).toBe('validation.feeTierDirectionMixed');
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
