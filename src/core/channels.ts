// Payment channels and the directions between them (docs/rules/corridors.md).
import type { Currency } from './money.js';

export const CHANNEL_IDS = ['paypal_usd', 'paypal_eur', 'airtel_gabon', 'mobile_rwanda', 'bank_france'] as const;
export type ChannelId = (typeof CHANNEL_IDS)[number];
export type ChannelKind = 'paypal' | 'mobile' | 'bank';
type ChannelCountry = 'GA' | 'RW' | 'FR';

export interface Channel {
  id: ChannelId;
  currency: Currency;
  kind: ChannelKind;
  country?: ChannelCountry;
}

export const CHANNELS: Record<ChannelId, Channel> = {
  paypal_usd: { id: 'paypal_usd', currency: 'USD', kind: 'paypal' },
  paypal_eur: { id: 'paypal_eur', currency: 'EUR', kind: 'paypal' },
  airtel_gabon: { id: 'airtel_gabon', currency: 'XAF', kind: 'mobile', country: 'GA' },
  mobile_rwanda: { id: 'mobile_rwanda', currency: 'RWF', kind: 'mobile', country: 'RW' },
  bank_france: { id: 'bank_france', currency: 'EUR', kind: 'bank', country: 'FR' },
};

export const DIRECTION_IDS = [
  'USD_XAF', 'USD_RWF', 'USD_EUR', 'EUR_XAF', 'EUR_RWF', 'EUR_EUR',
  'XAF_USD', 'RWF_USD', 'EUR_USD', 'XAF_EUR', 'RWF_EUR', 'EUR_EUR_FRANCE',
] as const;
/** The 12 calculator direction options (docs/rules/corridors.md#directions). */
export type DirectionId = (typeof DIRECTION_IDS)[number];

export interface Direction {
  id: DirectionId;
  source: ChannelId;
  destination: ChannelId;
  from: Currency;
  to: Currency;
}

function direction(id: DirectionId, source: ChannelId, destination: ChannelId): Direction {
  return { id, source, destination, from: CHANNELS[source].currency, to: CHANNELS[destination].currency };
}

/** In the calculator's order. Labels are i18n keys owned by the web. */
export const DIRECTIONS: readonly Direction[] = [
  direction('USD_XAF', 'paypal_usd', 'airtel_gabon'),
  direction('USD_RWF', 'paypal_usd', 'mobile_rwanda'),
  direction('USD_EUR', 'paypal_usd', 'bank_france'),
  direction('EUR_XAF', 'paypal_eur', 'airtel_gabon'),
  direction('EUR_RWF', 'paypal_eur', 'mobile_rwanda'),
  direction('EUR_EUR', 'paypal_eur', 'bank_france'),
  direction('XAF_USD', 'airtel_gabon', 'paypal_usd'),
  direction('RWF_USD', 'mobile_rwanda', 'paypal_usd'),
  direction('EUR_USD', 'bank_france', 'paypal_usd'),
  direction('XAF_EUR', 'airtel_gabon', 'paypal_eur'),
  direction('RWF_EUR', 'mobile_rwanda', 'paypal_eur'),
  direction('EUR_EUR_FRANCE', 'bank_france', 'paypal_eur'),
];

/** The 8 admin/transfer route keys (the mobile-money corridors), in their fixed order. */
export const ROUTE_KEYS = [
  'USD_XAF', 'USD_RWF', 'XAF_USD', 'RWF_USD', 'EUR_XAF', 'EUR_RWF', 'XAF_EUR', 'RWF_EUR',
] as const satisfies readonly DirectionId[];

export const DEFAULT_DIRECTION: DirectionId = 'USD_XAF';
/** Default calculator amount, as the text the amount field starts with. */
export const DEFAULT_AMOUNT = '100';

function isChannelId(value: unknown): value is ChannelId {
  return typeof value === 'string' && (CHANNEL_IDS as readonly string[]).includes(value);
}

export function isDirectionId(value: unknown): value is DirectionId {
  return typeof value === 'string' && (DIRECTION_IDS as readonly string[]).includes(value);
}

/**
 * Exactly one side is PayPal. PayPal↔PayPal, mobile↔mobile and bank↔mobile are unsupported
 * (docs/rules/corridors.md#supported-pairs).
 */
export function isSupportedPair(source: string, destination: string): boolean {
  if (!isChannelId(source) || !isChannelId(destination)) return false;
  return (CHANNELS[source].kind === 'paypal') !== (CHANNELS[destination].kind === 'paypal');
}

export function directionFor(source: string, destination: string): DirectionId | null {
  return DIRECTIONS.find((d) => d.source === source && d.destination === destination)?.id ?? null;
}

export function directionById(id: DirectionId): Direction;
export function directionById(id: string): Direction | null;
export function directionById(id: string): Direction | null {
  return DIRECTIONS.find((d) => d.id === id) ?? null;
}

/** Destinations reachable from a source, in CHANNEL_IDS order. */
export function validDestinations(source: string): ChannelId[] {
  return CHANNEL_IDS.filter((destination) => isSupportedPair(source, destination));
}

/**
 * Transfer form: keep the current destination when the pair is supported, otherwise
 * switch to the first valid destination in CHANNEL_IDS order. Null only for an unknown source.
 */
export function firstValidDestination(source: ChannelId, current?: string | null): ChannelId;
export function firstValidDestination(source: string, current?: string | null): ChannelId | null;
export function firstValidDestination(source: string, current?: string | null): ChannelId | null {
  if (current != null && isChannelId(current) && isSupportedPair(source, current)) return current;
  return validDestinations(source)[0] ?? null;
}
