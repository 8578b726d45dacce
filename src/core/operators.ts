// Mobile-money payout numbers and their operators (docs/rules/corridors.md#phone-country-rules):
// a number is read the ways people type it, then matched against the prefix table the admin
// edits. The server (with the table as stored now) and the browser (with GET /api/operators)
// both decide with readMobileNumber.
import type { ChannelId } from './channels.js';

/** The mobile-money channels (CHANNELS' kind 'mobile'). */
export const MOBILE_CHANNEL_IDS = ['airtel_gabon', 'mobile_rwanda'] as const satisfies readonly ChannelId[];
export type MobileChannelId = (typeof MOBILE_CHANNEL_IDS)[number];

/** The numbering of each mobile-money channel's country: its code and the digits after it. */
export const MOBILE_NUMBERING: Record<MobileChannelId, { countryCode: string; digits: number }> = {
  /** +241 77 12 34 56; nationally 077 12 34 56 (nine digits since the 2024 numbering change). */
  airtel_gabon: { countryCode: '241', digits: 8 },
  /** +250 788 123 456; nationally 0788 123 456. */
  mobile_rwanda: { countryCode: '250', digits: 9 },
};

export function isMobileChannel(id: string): id is MobileChannelId {
  return (MOBILE_CHANNEL_IDS as readonly string[]).includes(id);
}

/** A range of a channel's numbers: those whose digits after the country code start with `prefix`. */
export interface OperatorPrefix {
  channel: string;
  operator: string;
  prefix: string;
}

/** The table a fresh database starts with (docs/rules/corridors.md#phone-country-rules); the admin edits it from then on. */
export const DEFAULT_OPERATOR_PREFIXES: readonly OperatorPrefix[] = [
  { channel: 'airtel_gabon', operator: 'Airtel Gabon', prefix: '74' },
  { channel: 'airtel_gabon', operator: 'Airtel Gabon', prefix: '77' },
  { channel: 'mobile_rwanda', operator: 'MTN Rwanda', prefix: '78' },
  { channel: 'mobile_rwanda', operator: 'MTN Rwanda', prefix: '79' },
  { channel: 'mobile_rwanda', operator: 'Airtel Rwanda', prefix: '72' },
  { channel: 'mobile_rwanda', operator: 'Airtel Rwanda', prefix: '73' },
];

/** A prefix is 1 to 4 digits, shorter than the channel's numbers. */
export const PREFIX_PATTERN = /^\d{1,4}$/;

/** What a typed number is, so far. */
export type MobileNumberReading =
  /** A whole number of one of the channel's operators, in E.164. */
  | { status: 'valid'; e164: string; operator: string }
  /** Not finished (or empty); the operator once its prefix is typed. */
  | { status: 'partial'; operator: string | null }
  /** Not a number of this channel's operators, whatever follows. */
  | { status: 'refused' };

/** Separators people type between digits, dropped before reading. */
const SEPARATORS = /[\s().\-/\u00a0]/g;

/**
 * The digits after the country code typed so far, or null when the text cannot be a number of
 * the country: +241… or 00241…, the national form with its leading 0 (077…), or the digits after
 * the country code alone (77…).
 */
function nationalDigits(channel: MobileChannelId, compact: string): string | null {
  const { countryCode } = MOBILE_NUMBERING[channel];
  const international = compact.startsWith('+') ? compact.slice(1) : compact.startsWith('00') ? compact.slice(2) : null;
  const body = international ?? compact;
  if (!/^\d*$/.test(body)) return null;
  if (international === null) return body.startsWith('0') ? body.slice(1) : body;
  if (body.length < countryCode.length) return countryCode.startsWith(body) ? '' : null;
  return body.startsWith(countryCode) ? body.slice(countryCode.length) : null;
}

/** The channel's ranges, the longest prefix first, so the most precise range names the operator. */
function rangesOf(table: readonly OperatorPrefix[], channel: string): OperatorPrefix[] {
  return table.filter((p) => p.channel === channel).sort((a, b) => b.prefix.length - a.prefix.length);
}

function readCompact(table: readonly OperatorPrefix[], channel: MobileChannelId, compact: string): MobileNumberReading {
  const national = nationalDigits(channel, compact);
  const { countryCode, digits } = MOBILE_NUMBERING[channel];
  if (national === null || national.length > digits) return { status: 'refused' };
  const ranges = rangesOf(table, channel);
  const range = ranges.find((p) => national.startsWith(p.prefix));
  if (national.length < digits) {
    // Refused as soon as no range can begin with what was typed.
    const possible = range || ranges.some((p) => p.prefix.startsWith(national));
    return possible ? { status: 'partial', operator: range?.operator ?? null } : { status: 'refused' };
  }
  return range ? { status: 'valid', e164: `+${countryCode}${national}`, operator: range.operator } : { status: 'refused' };
}

/**
 * Reads a payout number typed in any usual way ("+241 77 12 34 56", "077123456",
 * "241771234 56") for a mobile-money channel, against the prefix table.
 */
export function readMobileNumber(table: readonly OperatorPrefix[], channel: MobileChannelId, text: string): MobileNumberReading {
  const compact = text.replace(SEPARATORS, '');
  const reading = readCompact(table, channel, compact);
  // Digits without their "+" may be the country code and the number ("24177123456"); while they
  // are still short they could be either, so the national reading is tried first.
  if (reading.status === 'valid' || !/^[1-9]/.test(compact)) return reading;
  const international = readCompact(table, channel, `+${compact}`);
  return international.status === 'refused' ? reading : international;
}

/** "a or b", "a, b, or c" in the language (French "a ou b"). */
function eitherOf(items: string[], locale: string): string {
  return new Intl.ListFormat(locale, { type: 'disjunction' }).format(items);
}

/**
 * What a refusal names, in the language: the channel's operators ("MTN Rwanda or Airtel Rwanda")
 * and their ranges ("+250 72…, 73…, 78…, or 79…"), for validation.recipientPhoneOperator.
 */
export function acceptedOperators(table: readonly OperatorPrefix[], channel: MobileChannelId, locale: string): { operators: string; numbers: string } {
  const ranges = table.filter((p) => p.channel === channel).sort((a, b) => a.prefix.localeCompare(b.prefix));
  const operators = [...new Set(ranges.map((p) => p.operator))];
  const numbers = ranges.map((p, i) => `${i === 0 ? `+${MOBILE_NUMBERING[channel].countryCode} ` : ''}${p.prefix}…`);
  return { operators: eitherOf(operators, locale), numbers: eitherOf(numbers, locale) };
}
