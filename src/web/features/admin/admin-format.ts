import { CHANNELS, isChannelId } from '../../../core/channels';
import { isCurrency } from '../../../core/money';
import { moneyFromDecimal } from '../../lib/format';

/** Completing a mobile-money or bank payout asks for its reference, so it goes through the dialog. */
export function needsPayoutReference(destination: string): boolean {
  return isChannelId(destination) && CHANNELS[destination].kind !== 'paypal';
}

export function amountText(value: string, currency: string, lng: string): string {
  return isCurrency(currency) ? moneyFromDecimal(value, currency, lng) : `${value} ${currency}`;
}
