import { describe, expect, it } from 'vitest';
import { DIRECTIONS } from './channels.js';
import { convert, SEED_RATES } from './rates.js';
import { amountForPayout, referenceAndMargin } from './quotes.js';

/** mulberry32: the same payouts on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return (max: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4294967296) * max) + 1;
  };
}

describe('amountForPayout: the smallest amount whose payout reaches what the recipient is to get', () => {
  it('EUR→XAF at 655: 1000 XAF needs 1.53 EUR (1.52 EUR pays 996 XAF)', () => {
    expect(amountForPayout(1000, 'EUR', 'XAF', SEED_RATES)).toBe(153);
    expect(convert(153, 'EUR', 'XAF', SEED_RATES)).toBe(1002);
    expect(convert(152, 'EUR', 'XAF', SEED_RATES)).toBe(996);
  });

  it('XAF→USD at 1/610: 10.00 USD needs 6097 XAF, rounding half up (6096 XAF pays 9.99 USD)', () => {
    expect(amountForPayout(1000, 'XAF', 'USD', SEED_RATES)).toBe(6097);
    expect(convert(6097, 'XAF', 'USD', SEED_RATES)).toBe(1000);
    expect(convert(6096, 'XAF', 'USD', SEED_RATES)).toBe(999);
  });

  it('a payout the rate gives exactly needs exactly its amount: 1300 RWF is 1.00 USD', () => {
    expect(amountForPayout(1300, 'USD', 'RWF', SEED_RATES)).toBe(100);
    expect(amountForPayout(1301, 'USD', 'RWF', SEED_RATES)).toBe(101);
  });

  it('nothing asked is nothing to pay; a missing rate is null', () => {
    expect(amountForPayout(0, 'USD', 'XAF', SEED_RATES)).toBe(0);
    expect(amountForPayout(100, 'USD', 'XAF', { EUR_XAF: '655' })).toBeNull();
  });

  it('in every direction, 10,000 random payouts: reached, one minor unit less would not, amounts non-decreasing', () => {
    // Checked in plain code and asserted once: 30,000 expect calls a direction took seconds.
    const wrong: string[] = [];
    for (const d of DIRECTIONS) {
      const draw = random(d.id.length * 7919);
      const payouts = Array.from({ length: 10_000 }, () => draw(100_000_000)).sort((a, b) => a - b);
      let previous = 0;
      for (const payout of payouts) {
        const amount = amountForPayout(payout, d.from, d.to, SEED_RATES);
        if (amount === null) wrong.push(`${d.id} ${payout}: no amount`);
        else if (convert(amount, d.from, d.to, SEED_RATES) < payout) wrong.push(`${d.id} ${payout}: ${amount} pays less`);
        else if (convert(amount - 1, d.from, d.to, SEED_RATES) >= payout) wrong.push(`${d.id} ${payout}: ${amount} - 1 pays it too`);
        else if (amount < previous) wrong.push(`${d.id} ${payout}: ${amount} below ${previous}`);
        previous = amount ?? previous;
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('referenceAndMargin', () => {
  it('EUR→XAF: the legal parity 655.957 is the reference; at 655 we keep 0.1459 %', () => {
    expect(referenceAndMargin('EUR', 'XAF', SEED_RATES)).toEqual({ reference_rate: '655.957', margin: '0.001459' });
  });

  it('XAF→EUR: the parity\'s reciprocal; at 1/655 we give more than it, a negative margin', () => {
    expect(referenceAndMargin('XAF', 'EUR', SEED_RATES)).toEqual({ reference_rate: '0.00152449017237410379', margin: '-0.001461' });
  });

  it('a pair with no outside reference is its own: margin 0', () => {
    expect(referenceAndMargin('USD', 'XAF', SEED_RATES)).toEqual({ reference_rate: '610', margin: '0' });
  });
});
