import { describe, expect, it } from 'vitest';
import type { DirectionId } from '@core/channels';
import { computeQuote } from '@core/fees';
import { referenceAndMargin } from '@core/quotes';
import { countdownParts, secondsLeft, serverClock } from './held-quote';
import { marginGivesMore, marginIsZero, marginPercent } from './rate-lines';
import { rateFigure, readableRate } from './rate-text';

const quote = (currency: string, payout_currency: string, rate: string, reference_rate: string, margin: string) =>
  ({ currency, payout_currency, rate, reference_rate, margin }) as Parameters<typeof readableRate>[0];

describe('rates written the way people read them', () => {
  it('EUR → XAF: the euro first, ours beside the legal parity', () => {
    const r = readableRate(quote('EUR', 'XAF', '655', '655.957', '0.001459'))!;
    expect([r.base, r.counter]).toEqual(['EUR', 'XAF']);
    expect(rateFigure(r.ours, 'en')).toBe('655');
    expect(rateFigure(r.reference, 'en')).toBe('655.96');
    expect(rateFigure(r.reference, 'fr')).toBe('655,96');
  });

  it('XAF → EUR: still "1 EUR = 655 XAF", never "1 XAF = 0.001527 EUR"', () => {
    const r = readableRate(quote('XAF', 'EUR', '0.001527', '0.001524', '-0.001461'), { EUR_XAF: '655' })!;
    expect([r.base, r.counter]).toEqual(['EUR', 'XAF']);
    expect(r.ours).toBe('655');
    expect(rateFigure(r.reference, 'en')).toBe('655.96');
    expect(marginGivesMore(r.margin)).toBe(true);
  });

  it('a stored rate that is no longer the quote\'s is not used: the quote\'s own rate is turned round', () => {
    const r = readableRate(quote('XAF', 'EUR', '0.001527', '0.001524', '-0.001461'), { EUR_XAF: '650' })!;
    expect(rateFigure(r.ours, 'en')).toBe('654.88');
  });

  it('USD → EUR: "1 EUR = 1.08 USD"; USD → XAF: "1 USD = 610 XAF"; RWF → USD: "1 USD = 1,300 RWF"', () => {
    const eur = readableRate(quote('USD', 'EUR', '0.925926', '0.925926', '0'), { EUR_USD: '1.08' })!;
    expect([eur.base, eur.counter, rateFigure(eur.ours, 'en')]).toEqual(['EUR', 'USD', '1.08']);
    const xaf = readableRate(quote('USD', 'XAF', '610', '610', '0'))!;
    expect([xaf.base, xaf.counter, rateFigure(xaf.ours, 'en')]).toEqual(['USD', 'XAF', '610']);
    const rwf = readableRate(quote('RWF', 'USD', '0.000769', '0.000769', '0'), { USD_RWF: '1300' })!;
    expect([rwf.base, rwf.counter, rateFigure(rwf.ours, 'en')]).toEqual(['USD', 'RWF', '1,300']);
  });

  it('weak → strong is turned round to exactly the stored rate charged: 1 EUR = 655.96 XAF, not 1 ÷ 0.001524 = 656.17', () => {
    // As the server quotes them (core computeQuote, the rate with RATE_DECIMALS), no stored rates at hand (a receipt).
    const rates = { USD_XAF: '610', USD_RWF: '1299.995', EUR_XAF: '655.957', EUR_RWF: '1523.455', EUR_USD: '1.0823456789' };
    const priced = (direction: DirectionId) => {
      const q = computeQuote({ direction, amount: 100_000, tiers: [], rates });
      const { reference_rate, margin } = referenceAndMargin(q.currency, q.payout_currency, rates, { EUR_RWF: '1530.5' });
      return readableRate(quote(q.currency, q.payout_currency, q.rate, reference_rate, margin))!;
    };
    const xaf = priced('XAF_EUR');
    expect([xaf.base, xaf.counter, xaf.ours, rateFigure(xaf.ours, 'en'), rateFigure(xaf.reference, 'en')]).toEqual(['EUR', 'XAF', '655.957', '655.96', '655.96']);
    const rwfEur = priced('RWF_EUR');
    expect([rwfEur.base, rwfEur.ours, rateFigure(rwfEur.ours, 'en'), rwfEur.reference]).toEqual(['EUR', '1523.455', '1,523.46', '1530.5']);
    const rwfUsd = priced('RWF_USD');
    expect([rwfUsd.base, rwfUsd.ours, rateFigure(rwfUsd.ours, 'fr')]).toEqual(['USD', '1299.995', '1\u202f300']);
    const usdEur = priced('USD_EUR');
    expect([usdEur.base, usdEur.ours, rateFigure(usdEur.ours, 'en')]).toEqual(['EUR', '1.0823456789', '1.0823']);
    // Six decimals were not enough: 1 ÷ 0.001524 and 1 ÷ 0.000656 (RWF → EUR) read 656.17 and 1,524.39.
    expect(rateFigure(readableRate(quote('XAF', 'EUR', '0.001524', '0.001524', '0'))!.ours, 'en')).toBe('656.17');
    expect(rateFigure(readableRate(quote('RWF', 'EUR', '0.000656', '0.000656', '0'))!.ours, 'en')).toBe('1,524.39');
  });

  it('no rate between a currency and itself (never "1 EUR = 1 EUR")', () => {
    expect(readableRate(quote('EUR', 'EUR', '1', '1', '0'))).toBeNull();
  });

  it('margins as a percent with 2 decimals, and which way they go', () => {
    expect(marginPercent('0.001459', 'en')).toBe('0.15');
    expect(marginPercent('-0.001461', 'fr')).toBe('0,15');
    expect(marginGivesMore('0.001459')).toBe(false);
    expect(marginIsZero('0')).toBe(true);
    expect(marginIsZero('0.000000')).toBe(true);
    expect(marginIsZero('0.001459')).toBe(false);
  });
});

describe('the quote\'s countdown', () => {
  it('mm:ss under an hour, hours and minutes above (EUR↔XAF holds a day)', () => {
    expect(countdownParts(29 * 60 + 41)).toEqual({ clock: '29:41' });
    expect(countdownParts(59)).toEqual({ clock: '00:59' });
    expect(countdownParts(0)).toEqual({ clock: '00:00' });
    expect(countdownParts(24 * 3600)).toEqual({ hours: 24, minutes: 0 });
    expect(countdownParts(3600 + 61)).toEqual({ hours: 1, minutes: 1 });
  });
  it('counts whole seconds left, never below 0', () => {
    const now = Date.parse('2026-11-26T22:00:00.000Z');
    expect(secondsLeft(Date.parse('2026-11-26T22:30:00.000Z'), now)).toBe(1800);
    expect(secondsLeft(Date.parse('2026-11-26T22:00:00.999Z'), now)).toBe(0);
    expect(secondsLeft(Date.parse('2026-11-26T21:00:00.000Z'), now)).toBe(0);
  });
  it('counts what the server gave from the answer\'s arrival, whatever this device\'s clock says', () => {
    const clock = serverClock();
    clock.onResponse(new Response(null, { headers: { date: 'Thu, 26 Nov 2026 22:00:00 GMT' } }));
    const held = clock.hold({ expires_at: '2026-11-26T22:30:00.000Z' } as Parameters<typeof clock.hold>[0]);
    expect(secondsLeft(held.held_until, Date.now())).toBeGreaterThanOrEqual(1799);
    expect(secondsLeft(held.held_until, Date.now())).toBeLessThanOrEqual(1800);
  });
});
