import type { TFunction } from 'i18next';
import { directionById, type ChannelId } from '@core/channels';
import { formatMoney, localizeDecimal, parseAmount, type Currency, type Minor } from '@core/money';

/** BCP 47 locale for Intl, from the interface language. */
function localeFor(lng: string): string {
  return lng.startsWith('fr') ? 'fr-FR' : 'en-US';
}

/*
 * Dates and times are written by hand, as Intl's medium date and short or medium time styles write
 * them (src/web/lib/format.test.ts compares them): the first Intl formatter a page makes costs about
 * 35 ms, one long task on the first paint of every list of transfers (and of the home calculator).
 */

/** Month names as Intl writes them in a medium date ("Nov 27, 2026", "27 nov. 2026"). */
const MONTHS = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
} as const;

const two = (n: number) => String(n).padStart(2, '0');

/** A valid date from the API's value, or null. */
function dateOf(value: string | number | Date): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The local date as Intl's medium date style writes it in each language: "Nov 27, 2026", "27 nov. 2026". */
function dateText(d: Date, lng: string): string {
  const [day, month, year] = [d.getDate(), d.getMonth(), d.getFullYear()];
  return lng.startsWith('fr') ? `${day} ${MONTHS.fr[month]} ${year}` : `${MONTHS.en[month]} ${day}, ${year}`;
}

/** The local time of day: "3:04 PM" or "15:04", with ":05" seconds when asked. */
function clockText(d: Date, lng: string, seconds: boolean): string {
  const [h, m, s] = [d.getHours(), d.getMinutes(), d.getSeconds()];
  const tail = seconds ? `:${two(s)}` : '';
  if (lng.startsWith('fr')) return `${two(h)}:${two(m)}${tail}`;
  return `${h % 12 || 12}:${two(m)}${tail} ${h < 12 ? 'AM' : 'PM'}`;
}

/** "Nov 27, 2026, 3:04 PM" (en) or "27 nov. 2026, 15:04" (fr). */
export function formatDateTime(value: string | number | Date, lng: string): string {
  const d = dateOf(value);
  return d ? `${dateText(d, lng)}, ${clockText(d, lng, false)}` : '';
}

/** "Nov 27, 2026" (en) or "27 nov. 2026" (fr). */
export function formatDate(value: string | number | Date, lng: string): string {
  const d = dateOf(value);
  return d ? dateText(d, lng) : '';
}

/** Local time of day: "3:04:05 PM" (en) or "15:04:05" (fr). */
export function formatTime(value: string | number | Date, lng: string): string {
  const d = dateOf(value);
  return d ? clockText(d, lng, true) : '';
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

