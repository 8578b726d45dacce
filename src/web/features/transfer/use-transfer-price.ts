import { useEffect, useMemo, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FeesResponse, PricePreview, RatesResponse } from '@core/api/pricing';
import { amountExample, readAmount } from '@core/amount-input';
import { CHANNELS, directionFor } from '@core/channels';
import { decimalToMinor, toDecimal } from '@core/money';
import { formatDecimalText, moneyFromDecimal } from '@web/lib/format';
import { useLiveQuote, type QuoteAsk } from '@web/lib/quotes';
import type { PayoutField } from './transfer-form';
import { readTransferAmount, type TransferValues } from './transfer-values';

/**
 * The price as typed: from what is sent, or from what the recipient gets; asked of the server a
 * moment after the typing stops, and again when the published prices change.
 */
export function useTransferPrice(
  form: Pick<UseFormReturn<TransferValues>, 'setValue' | 'formState'>,
  values: TransferValues,
  fees: FeesResponse | undefined,
  rates: RatesResponse['data'] | undefined,
) {
  const { t, i18n } = useTranslation(['transfer', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  /** Which amount the sender typed last: what they send, or what the recipient gets. */
  const [typed, setTyped] = useState<'amount' | 'payout'>('amount');
  const [payoutText, setPayoutText] = useState('');
  const currency = CHANNELS[values.source].currency;
  const direction = directionFor(values.source, values.destination);
  const payoutCurrency = CHANNELS[values.destination].currency;
  const payoutReading = readAmount(payoutText, payoutCurrency, lng);
  const amountReading = readTransferAmount(values, lng);
  // Asked once the published prices are known (their version then moves only when they change).
  const ask: QuoteAsk | null = !direction || !rates || !fees ? null
    : typed === 'payout'
      ? (payoutReading.minor ? { direction, payout: toDecimal(payoutReading.minor, payoutCurrency) } : null)
      : (amountReading.minor ? { direction, amount: toDecimal(amountReading.minor, currency) } : null);
  const pricesVersion = `${rates?.updatedAt ?? ''}|${(fees?.data ?? []).map((tier) => tier.updated_at).sort().at(-1) ?? ''}`;
  const live = useLiveQuote(ask, pricesVersion);
  // The last price of this corridor stays shown (dimmed) while the next is asked.
  const [shown, setShown] = useState<PricePreview | null>(null);
  useEffect(() => {
    if (live.quote) setShown(live.quote);
  }, [live.quote]);
  useEffect(() => {
    setShown(null);
    setTyped('amount');
    setPayoutText('');
  }, [direction]);
  // A refused amount has no price: the last one (of another amount) is not shown as if it were its.
  const quote = shown && shown.direction === direction && ask && !live.error ? shown : null;
  // What the recipient gets, typed: the amount to send is the server's answer.
  useEffect(() => {
    if (typed === 'payout' && live.quote) form.setValue('amount', formatDecimalText(live.quote.amount, lng));
  }, [typed, live.quote, form, lng]);
  const payoutShown = typed === 'payout' ? payoutText : quote ? formatDecimalText(quote.payout, lng) : '';
  // What the recipient gets can be a little more than typed: the sender pays in whole cents, and
  // the least of them that delivers the amount typed converts to a few units more (1 cent ≈ 6.55 FCFA).
  const quotedPayout = quote && typed === 'payout' ? decimalToMinor(quote.payout, payoutCurrency) : null;
  const payoutNote = quote && quotedPayout !== null && payoutReading.minor && quotedPayout > payoutReading.minor
    ? t('form.payoutRounded', {
      payout: moneyFromDecimal(quote.payout, payoutCurrency, lng), typed: moneyFromDecimal(toDecimal(payoutReading.minor, payoutCurrency), payoutCurrency, lng),
      amount: moneyFromDecimal(quote.amount, currency, lng),
    }) : null;
  const payoutError = typed === 'payout' && payoutReading.error && payoutReading.error !== 'empty'
    ? t(`common:amount.${payoutReading.error}`, { currency: payoutCurrency, example: amountExample(payoutCurrency, lng) }) : null;
  const corridorLimitError = (q: PricePreview | null) => q?.limit_error
    ? t(q.limit_error.code === 'below_min' ? 'validation:amountBelowMin' : 'validation:amountAboveMax', { limit: moneyFromDecimal(q.limit_error.limit, q.currency, lng) })
    : null;
  // Said once: not again under the fields when the amount field already says it.
  const refusal = live.error?.message ?? corridorLimitError(live.quote);
  const inPlaceError = refusal && form.formState.errors.amount?.message !== refusal ? refusal : null;

  // The same props while nothing they show changes: the fields are not drawn again for every answer.
  const payout = useMemo<PayoutField>(() => ({
    text: payoutShown, currency: payoutCurrency, error: payoutError, note: payoutNote,
    onChange: (text) => {
      setTyped('payout');
      setPayoutText(text);
    },
    onAmountTyped: () => setTyped('amount'),
  }), [payoutShown, payoutCurrency, payoutError, payoutNote]);

  /** The form emptied: the amount sent is what the sender types again. */
  const restart = () => {
    setTyped('amount');
    setPayoutText('');
  };

  return { direction, typed, ask, live, quote, payout, corridorLimitError, inPlaceError, restart };
}
