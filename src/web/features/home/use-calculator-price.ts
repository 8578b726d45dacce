import { useMemo, useState } from 'react';
import { DIRECTIONS, directionById, isDirectionId, type DirectionId } from '@core/channels';
import { computeQuote } from '@core/fees';
import { parseAmount, toDecimal } from '@core/money';
import { amountForPayout } from '@core/quotes';
import { readAmount } from '@core/amount-input';
import { formatDecimalText } from '@web/lib/format';
import { useLiveQuote, usePublishedFees, usePublishedRates, type QuoteAsk } from '@web/lib/quotes';
import { readableRate } from '@web/lib/rate-text';

/**
 * The calculator's price: the corridor and either amount as typed, priced at once from the
 * published tiers and rates (the same computation as the server's, docs/rules/fees-and-rates.md),
 * then as the server quotes it a moment after the typing stops (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
 */
export function useCalculatorPrice(initialDirection: DirectionId, initialAmount: string, lng: string) {
  const [direction, setDirection] = useState<DirectionId>(initialDirection);
  const [amountText, setAmountText] = useState(initialAmount);
  /** Which amount was typed last: what is sent, or what the recipient gets; the other is filled in. */
  const [typed, setTyped] = useState<'amount' | 'payout'>('amount');
  const [payoutText, setPayoutText] = useState('');

  // Rates and fee tiers refresh together every 15 s and on coming back to the tab (docs/rules/fees-and-rates.md#rates).
  const ratesRes = usePublishedRates(15_000);
  const fees = usePublishedFees(15_000);
  const rates = { ...ratesRes, data: ratesRes.data?.data };

  const info = directionById(direction) ?? DIRECTIONS[0]!;
  const currency = info.from;
  // Docs/rules/amounts.md: nothing typed prices 0; a text that cannot be read is not priced.
  const reading = typed === 'amount' ? readAmount(amountText, currency, lng) : readAmount(payoutText, info.to, lng);
  const amountError = reading.error === 'empty' ? undefined : reading.error;
  const typedMinor = reading.minor ?? 0;

  const local = useMemo(() => {
    if (!rates.data || !fees.data) return null;
    const minor = typed === 'amount' ? typedMinor : amountForPayout(typedMinor, info.from, info.to, rates.data);
    if (minor === null) return null;
    const corridor = fees.data.corridors?.find((c) => c.direction === direction) ?? null;
    return computeQuote({ direction, amount: minor, tiers: fees.data.data ?? [], corridor, rates: rates.data });
  }, [direction, typed, typedMinor, info.from, info.to, rates.data, fees.data]);
  // Asked once the published prices are known (their version then moves only when they change).
  const ask: QuoteAsk | null = reading.minor && rates.data && fees.data
    ? typed === 'amount' ? { direction, amount: toDecimal(reading.minor, currency) } : { direction, payout: toDecimal(reading.minor, info.to) }
    : null;
  const version = `${rates.data?.updatedAt ?? ''}|${(fees.data?.data ?? []).map((tier) => tier.updated_at).sort().at(-1) ?? ''}`;
  const live = useLiveQuote(ask, version);
  // A refusal of the price itself (a rate too old to promise, the service down) leaves nothing to show.
  const ownLimit = live.error?.code === 'limit_exceeded' || live.error?.code === 'kyc_required';
  const refused = !!live.error && !ownLimit;
  const server = live.quote;
  const quote = refused ? null : server
    ?? (local && { amount: toDecimal(local.amount, currency), fee: toDecimal(local.fee, currency), total: toDecimal(local.total, currency), payout: toDecimal(local.payout, info.to), limit_error: local.limit_error });
  const minor = quote ? parseAmount(quote.amount, currency) ?? 0 : 0;
  const readable = server ? readableRate(server, rates.data) : local
    ? readableRate({ currency, payout_currency: info.to, rate: local.rate, reference_rate: local.rate, margin: '0' }, rates.data) : null;
  const amountShown = typed === 'amount' ? amountText : quote ? formatDecimalText(quote.amount, lng) : '';
  const payoutShown = typed === 'payout' ? payoutText : quote && reading.minor ? formatDecimalText(quote.payout, lng) : '';

  const onDirection = (value: string) => {
    if (!isDirectionId(value)) return;
    // The amount sent stays; what the recipient gets is in another currency, so it is priced again.
    if (typed === 'payout') setAmountText(amountShown);
    setTyped('amount');
    setPayoutText('');
    setDirection(value);
  };
  const onAmount = (text: string) => {
    setTyped('amount');
    setAmountText(text);
  };
  const onPayout = (text: string) => {
    setTyped('payout');
    setPayoutText(text);
  };

  // The form reads the same text by the same rules: a refused amount is refused there too.
  const sendHref = `/transfer?${new URLSearchParams({ direction, amount: reading.error && typed === 'amount' ? amountText : toDecimal(minor, currency) })}`;

  return {
    direction, info, typed, amountError, amountShown, payoutShown, onDirection, onAmount, onPayout,
    rates, fees, ask, live, ownLimit, refused, quote, minor, readable, sendHref,
    loading: (rates.isPending || fees.isPending) && !quote,
    failed: !quote && !server && !refused && (!!rates.error || !!fees.error),
  };
}

export type CalculatorPriceState = ReturnType<typeof useCalculatorPrice>;
