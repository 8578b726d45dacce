import type { TFunction } from 'i18next';
import { directionById, type ChannelId } from '@core/channels';
import { formatMoney, localizeDecimal, parseAmount, type Currency, type Minor } from '@core/money';

/** BCP 47 locale for Intl, from the interface language. */
function localeFor(lng: string): string {
  return lng.startsWith('fr') ? 'fr-FR' : 'en-US';
}

export function formatDateTime(value: string | number | Date, lng: string): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(localeFor(lng), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function formatDate(value: string | number | Date, lng: string): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(localeFor(lng), { dateStyle: 'medium' }).format(d);
}

/**
 * Local time of day: "3:04:05 PM" (en) or "15:04:05" (fr). Written by hand like money (src/core/money.ts):
 * the home calculator shows it on first load, where a first Intl.DateTimeFormat costs about 50 ms.
 */
export function formatTime(value: string | number | Date, lng: string): string {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  const [h, m, s] = [d.getHours(), d.getMinutes(), d.getSeconds()];
  if (lng.startsWith('fr')) return `${two(h)}:${two(m)}:${two(s)}`;
  return `${h % 12 || 12}:${two(m)}:${two(s)} ${h < 12 ? 'AM' : 'PM'}`;
}

/** Minor units as localized money ("$104.50", "61 000 FCFA"). */
export function money(minor: Minor, currency: Currency, lng: string): string {
  return formatMoney(minor, currency, localeFor(lng));
}

/** A major-unit decimal string from the API ("2000.00") as localized money; the raw text if unparsable. */
export function moneyFromDecimal(value: string | number, currency: Currency, lng: string): string {
  const minor = parseAmount(value, currency);
  return minor == null ? String(value) : money(minor, currency, lng);
}

/** A plain decimal string ("0.001639", "610") in the language's number format, without float rounding. */
export function formatDecimalText(value: string, lng: string): string {
  return localizeDecimal(value, localeFor(lng));
}

/** "PayPal (USD)", "Airtel Money Gabon"… from common:channels.* */
export function channelLabel(t: TFunction, id: ChannelId | string): string {
  return t(`channels.${id}`, { ns: 'common', defaultValue: id });
}

/** "PayPal (USD) → Airtel Money Gabon" for a direction or route key. */
export function directionLabel(t: TFunction, id: string): string {
  const d = directionById(id);
  if (!d) return id;
  return t('directions.label', {
    ns: 'common',
    from: channelLabel(t, d.source),
    to: channelLabel(t, d.destination),
  });
}

