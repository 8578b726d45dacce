import { describe, expect, it } from 'vitest';
import {
  CHANNELS, CHANNEL_IDS, DEFAULT_AMOUNT, DEFAULT_DIRECTION, DIRECTIONS, ROUTE_KEYS, directionById, directionFor,
  firstValidDestination, isSupportedPair, validDestinations,
} from './channels.js';

describe('channels', () => {
  it('lists the five channels in order with their currencies', () => {
    expect(CHANNEL_IDS).toEqual(['paypal_usd', 'paypal_eur', 'airtel_gabon', 'mobile_rwanda', 'bank_france']);
    expect(CHANNEL_IDS.map((id) => CHANNELS[id].currency)).toEqual(['USD', 'EUR', 'XAF', 'RWF', 'EUR']);
    expect(CHANNELS.bank_france).toEqual({ id: 'bank_france', currency: 'EUR', kind: 'bank', country: 'FR' });
  });

  it('defaults to USD_XAF and 100', () => {
    expect(DEFAULT_DIRECTION).toBe('USD_XAF');
    expect(DEFAULT_AMOUNT).toBe('100');
  });
});

describe('directions', () => {
  it('maps the 12 calculator directions', () => {
    const table = Object.fromEntries(DIRECTIONS.map((d) => [d.id, `${d.source}>${d.destination} ${d.from}>${d.to}`]));
    expect(table).toEqual({
      USD_XAF: 'paypal_usd>airtel_gabon USD>XAF',
      USD_RWF: 'paypal_usd>mobile_rwanda USD>RWF',
      USD_EUR: 'paypal_usd>bank_france USD>EUR',
      EUR_XAF: 'paypal_eur>airtel_gabon EUR>XAF',
      EUR_RWF: 'paypal_eur>mobile_rwanda EUR>RWF',
      EUR_EUR: 'paypal_eur>bank_france EUR>EUR',
      XAF_USD: 'airtel_gabon>paypal_usd XAF>USD',
      RWF_USD: 'mobile_rwanda>paypal_usd RWF>USD',
      EUR_USD: 'bank_france>paypal_usd EUR>USD',
      XAF_EUR: 'airtel_gabon>paypal_eur XAF>EUR',
      RWF_EUR: 'mobile_rwanda>paypal_eur RWF>EUR',
      EUR_EUR_FRANCE: 'bank_france>paypal_eur EUR>EUR',
    });
    expect(DIRECTIONS).toHaveLength(12);
  });

  it('has the 8 route keys, all directions', () => {
    expect(ROUTE_KEYS).toEqual(['USD_XAF', 'USD_RWF', 'XAF_USD', 'RWF_USD', 'EUR_XAF', 'EUR_RWF', 'XAF_EUR', 'RWF_EUR']);
    for (const key of ROUTE_KEYS) expect(directionById(key)).not.toBeNull();
  });

  it('finds directions by pair and id', () => {
    expect(directionFor('paypal_usd', 'airtel_gabon')).toBe('USD_XAF');
    expect(directionFor('bank_france', 'paypal_eur')).toBe('EUR_EUR_FRANCE');
    expect(directionFor('paypal_usd', 'paypal_eur')).toBeNull();
    expect(directionById('EUR_EUR')?.destination).toBe('bank_france');
    expect(directionById('nope')).toBeNull();
  });
});

describe('isSupportedPair', () => {
  it('supports exactly the PayPal ↔ non-PayPal pairs, one direction each', () => {
    for (const source of CHANNEL_IDS) {
      for (const destination of CHANNEL_IDS) {
        const paypal = [source, destination].filter((c) => CHANNELS[c].kind === 'paypal').length;
        expect(isSupportedPair(source, destination)).toBe(paypal === 1);
        expect(directionFor(source, destination) !== null).toBe(paypal === 1);
      }
    }
  });
  it('refuses same-kind, bank↔mobile and unknown pairs', () => {
    expect(isSupportedPair('paypal_usd', 'paypal_eur')).toBe(false);
    expect(isSupportedPair('airtel_gabon', 'mobile_rwanda')).toBe(false);
    expect(isSupportedPair('bank_france', 'airtel_gabon')).toBe(false);
    expect(isSupportedPair('mobile_rwanda', 'bank_france')).toBe(false);
    expect(isSupportedPair('paypal_usd', 'paypal_usd')).toBe(false);
    expect(isSupportedPair('paypal_usd', 'venmo')).toBe(false);
  });
});

describe('firstValidDestination', () => {
  it('keeps a valid current destination', () => {
    expect(firstValidDestination('paypal_usd', 'mobile_rwanda')).toBe('mobile_rwanda');
    expect(firstValidDestination('airtel_gabon', 'paypal_eur')).toBe('paypal_eur');
  });
  it('switches to the first valid one in channel order', () => {
    expect(firstValidDestination('paypal_usd', 'paypal_usd')).toBe('airtel_gabon');
    expect(firstValidDestination('paypal_eur', 'paypal_usd')).toBe('airtel_gabon');
    expect(firstValidDestination('airtel_gabon', 'mobile_rwanda')).toBe('paypal_usd');
    expect(firstValidDestination('bank_france', 'airtel_gabon')).toBe('paypal_usd');
    expect(firstValidDestination('bank_france')).toBe('paypal_usd');
    expect(firstValidDestination('nope')).toBeNull();
  });
  it('lists reachable destinations', () => {
    expect(validDestinations('paypal_eur')).toEqual(['airtel_gabon', 'mobile_rwanda', 'bank_france']);
    expect(validDestinations('mobile_rwanda')).toEqual(['paypal_usd', 'paypal_eur']);
  });
});
