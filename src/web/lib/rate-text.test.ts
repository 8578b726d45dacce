import { describe, expect, it } from 'vitest';
import { countdownParts, secondsLeft, serverClock } from './quotes';
import { marginGivesMore, marginIsZero, marginPercent, rateFigure, readableRate } from './rate-text';

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
