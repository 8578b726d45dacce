import type { z } from 'zod';
import { CHANNELS, DEFAULT_AMOUNT, DEFAULT_DIRECTION, directionById, isDirectionId, type ChannelId } from '@core/channels';
import { readAmount, type AmountError } from '@core/amount-input';
import { toDecimal, type Currency } from '@core/money';
import { acceptedOperators, isMobileChannel, readMobileNumber, type OperatorPrefix } from '@core/operators';
import type { PaymentInitiate, PaymentInitiateSchema } from '@core/schemas';
import type { DestinationDetails } from '@web/lib/transfers';

/** The transfer form's values, as typed. */
export interface TransferValues {
  source: ChannelId;
  destination: ChannelId;
  amount: string;
  recipient_name: string;
  recipient_email: string;
  recipient_phone: string;
  iban: string;
  bic: string;
  note: string;
  save_recipient: boolean;
}

export const RECIPIENT_FIELDS = ['recipient_name', 'recipient_email', 'recipient_phone', 'iban', 'bic'] as const;

/** Payload names shown on another form field: a bank recipient's holder is the name typed. */
export const FIELD_ALIASES = {
  account_holder: 'recipient_name', 'destination_details.account_holder': 'recipient_name',
  destination_provider: 'destination', source_provider: 'source',
};

/** A fresh form, for the corridor and amount the home calculator passed (else the defaults). */
export function initialValues(direction: string | null = null, amount: string | null = null): TransferValues {
  const d = directionById(direction && isDirectionId(direction) ? direction : DEFAULT_DIRECTION)!;
  return {
    source: d.source, destination: d.destination, amount: amount ?? DEFAULT_AMOUNT,
    recipient_name: '', recipient_email: '', recipient_phone: '', iban: '', bic: '', note: '', save_recipient: false,
  };
}

/**
 * What a refusal of this payout number names (validation:recipientPhoneOperator's variables), or
 * null when one of the destination's operators takes it. Without the ranges yet, the server decides.
 */
export function phoneRefusal(
  table: readonly OperatorPrefix[] | undefined, destination: ChannelId, phone: string, locale: string,
): { operators: string; numbers: string } | null {
  if (!table || !isMobileChannel(destination) || readMobileNumber(table, destination, phone).status === 'valid') return null;
  return acceptedOperators(table, destination, locale);
}

/** The amount typed, read in the page's language (docs/rules/amounts.md). */
export function readTransferAmount(v: Pick<TransferValues, 'source' | 'amount'>, locale: string) {
  return readAmount(v.amount, CHANNELS[v.source].currency, locale);
}

/** The POST /api/payments/initiate body the values make: only the destination's own fields. */
export function toPayload(v: TransferValues, locale: string): z.input<typeof PaymentInitiateSchema> {
  const amount = readTransferAmount(v, locale);
  const kind = CHANNELS[v.destination].kind;
  const details: DestinationDetails = kind === 'paypal'
    ? { recipient_email: v.recipient_email, recipient_name: v.recipient_name }
    : kind === 'mobile'
      ? { recipient_phone: v.recipient_phone, recipient_name: v.recipient_name || null }
      : { account_holder: v.recipient_name, recipient_name: v.recipient_name, iban: v.iban, ...(v.bic ? { bic: v.bic } : {}) };
  return {
    source_provider: v.source, destination_provider: v.destination,
    amount: amount.error ? v.amount : toDecimal(amount.minor, CHANNELS[v.source].currency),
    currency: CHANNELS[v.source].currency as PaymentInitiate['currency'], destination_details: details,
    source_details: v.note.trim() ? { note: v.note.trim() } : {}, save_recipient: v.save_recipient,
  };
}

/** The checks only the screen knows how to word: the amount, the phone against the operators' ranges, the corridor's limits. */
export interface ScreenRules {
  /** The page's language, in which the amount is read. */
  locale: string;
  /** Why the amount typed was refused, in words. */
  amountError: (error: AmountError, currency: Currency) => string;
  /** The refusal of a mobile payout number, in words, or null (docs/rules/corridors.md#phone-country-rules). */
  phoneError: (destination: ChannelId, phone: string) => string | null;
  /** The limit the amount breaks, in words, or null. */
  limitError: () => string | null;
}
