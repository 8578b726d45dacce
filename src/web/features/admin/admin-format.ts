import { isCurrency } from '@core/money';
import { moneyFromDecimal } from '@web/lib/format';

export function amountText(value: string, currency: string, lng: string): string {
  return isCurrency(currency) ? moneyFromDecimal(value, currency, lng) : `${value} ${currency}`;
}

/** "1300.0000000000" → "1300", "0.0016390000" → "0.001639"; whole numbers keep their zeros. */
export function trimZeros(decimal: string): string {
  return decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal;
}

/** A requester by full name, else e-mail, else profile id. */
export function requesterName(r: { full_name: string | null; email: string | null; profile_id: string }): string {
  return r.full_name?.trim() || r.email?.trim() || r.profile_id;
}
