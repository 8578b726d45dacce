import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ArrowRight, RefreshCw } from '@web/components/icons';
import { DEFAULT_AMOUNT, DEFAULT_DIRECTION, DIRECTIONS, directionById, isDirectionId, type DirectionId } from '@core/channels';
import { computeQuote } from '@core/fees';
import type { KycStatus } from '@core/api/kyc';
import { parseAmount, toDecimal } from '@core/money';
import { amountForPayout } from '@core/quotes';
import { amountExample, readAmount } from '@core/amount-input';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Select } from '@web/components/ui/select';
import { Alert } from '@web/components/ui/alert';
import { directionLabel, formatDateTime, formatDecimalText, formatTime, money, moneyFromDecimal } from '@web/lib/format';
import { useLiveQuote, type QuoteAsk } from '@web/lib/quotes';
import { rateFigure, readableRate } from '@web/lib/rate-text';
import type { FeesResponse } from '@web/lib/queries';
import type { RatesResponse } from '@core/api/pricing';
import { readToken } from '@web/lib/token-store';
import { useJson } from '@web/lib/use-json';
import { cn } from '@web/lib/utils';

function updatedText(iso: string, lng: string): string {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString() ? formatTime(d, lng) : formatDateTime(d, lng);
}

export interface CalculatorProps {
  className?: string;
  initialDirection?: DirectionId;
  initialAmount?: string;
}

/** Home fee/rate calculator: the price computed by src/core from the server's tiers and rates. */
export function Calculator({ className, initialDirection = DEFAULT_DIRECTION, initialAmount = DEFAULT_AMOUNT }: CalculatorProps) {
  const { t, i18n } = useTranslation(['public', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const [direction, setDirection] = useState<DirectionId>(initialDirection);
  const [amountText, setAmountText] = useState(initialAmount);
  /** Which amount was typed last: what is sent, or what the recipient gets; the other is filled in. */
  const [typed, setTyped] = useState<'amount' | 'payout'>('amount');
  const [payoutText, setPayoutText] = useState('');

  // Plain fetches (not TanStack Query): the home page stays light. Rates and fee tiers refresh
  // together every 15 s and on coming back to the tab (docs/rules/fees-and-rates.md#rates).
  const ratesRes = useJson<RatesResponse>('/api/rates', 15_000);
  const fees = useJson<FeesResponse>('/api/fees', 15_000);
  const rates = { ...ratesRes, data: ratesRes.data?.data };
  // A signed-in sender is told of their own limits here too (docs/rules/know-your-sender.md#limits);
  // the token is read after the first render, which must match the prerendered page.
  const [signedIn, setSignedIn] = useState(false);
  useEffect(() => setSignedIn(readToken() !== null), []);
  const kyc = useJson<{ data: KycStatus }>(signedIn ? '/api/kyc' : null).data?.data;
  // The limits' arithmetic is fetched only for a signed-in sender: signed out, the home page's
  // JavaScript stays within its budget (docs/decisions/005-web-shell-budget.md).
  const [limits, setLimits] = useState<typeof import('@core/kyc') | null>(null);
  useEffect(() => {
    if (kyc) void import('@core/kyc').then(setLimits);
  }, [kyc]);

  const info = directionById(direction) ?? DIRECTIONS[0]!;
  const currency = info.from;
  // Docs/rules/amounts.md: nothing typed prices 0; a text that cannot be read is not priced.
  const reading = typed === 'amount' ? readAmount(amountText, currency, lng) : readAmount(payoutText, info.to, lng);
  const amountError = reading.error === 'empty' ? undefined : reading.error;
  const typedMinor = reading.minor ?? 0;

  // Shown at once from the published tiers and rates (the same computation as the server's, docs/rules/fees-and-rates.md),
  // then as the server quotes it a moment after the typing stops (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
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
    ? { amount: server.amount, fee: server.fee, total: server.total, payout: server.payout, limit_error: server.limit_error }
    : local && { amount: toDecimal(local.amount, currency), fee: toDecimal(local.fee, currency), total: toDecimal(local.total, currency), payout: toDecimal(local.payout, info.to), limit_error: local.limit_error };
  const minor = quote ? parseAmount(quote.amount, currency) ?? 0 : 0;
  const readable = server ? readableRate(server, rates.data) : local
    ? readableRate({ currency, payout_currency: info.to, rate: local.rate, reference_rate: local.rate, margin: '0' }, rates.data) : null;
  const amountShown = typed === 'amount' ? amountText : quote ? formatDecimalText(quote.amount, lng) : '';
  const payoutShown = typed === 'payout' ? payoutText : quote && reading.minor ? formatDecimalText(quote.payout, lng) : '';

  const over = kyc && kyc.level > 0 && rates.data && limits ? limits.windowExceeded(kyc.windows, minor, currency, rates.data) : null;
  const loading = (rates.isPending || fees.isPending) && !quote;
  const failed = !quote && !server && !refused && (!!rates.error || !!fees.error);

  const onDirection = (value: string) => {
    if (!isDirectionId(value)) return;
    // The amount sent stays; what the recipient gets is in another currency, so it is priced again.
    if (typed === 'payout') setAmountText(amountShown);
    setTyped('amount');
    setPayoutText('');
    setDirection(value);
  };

  // The form reads the same text by the same rules: a refused amount is refused there too.
  const sendHref = `/transfer?${new URLSearchParams({ direction, amount: reading.error && typed === 'amount' ? amountText : toDecimal(minor, currency) }).toString()}`;

  const row = (label: string, value: string | null, testId: string, strong = false) => (
    <div className={cn('flex items-baseline justify-between gap-4 py-2', strong && 'border-t border-border pt-3')}>
      <dt className={cn('text-sm', strong ? 'font-semibold text-slate-900' : 'text-slate-700')}>{label}</dt>
      <dd data-testid={testId} className={cn('text-right tabular-nums', strong ? 'text-lg font-bold text-slate-900' : 'font-medium text-slate-900')}>
        {amountError || refused ? '—' : value ?? <span className="inline-block h-4 w-20 animate-pulse rounded bg-muted align-middle" aria-hidden />}
      </dd>
    </div>
  );

  const amountField = (which: 'amount' | 'payout', label: string, unit: string, value: string, onChange: (text: string) => void, testId: string) => {
    const invalid = !!amountError && typed === which;
    return (
      <div className="grid min-w-0 gap-1.5">
        <Label htmlFor={`${id}-${which}`}>{label}</Label>
        <div className="relative">
          <Input
            id={`${id}-${which}`}
            name={which}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            className="pr-12 text-lg font-semibold sm:text-lg"
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-error` : quote?.limit_error ? `${id}-limit` : undefined}
            data-testid={testId}
          />
          <span aria-hidden className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-sm font-semibold text-slate-600">
            {unit}
          </span>
        </div>
      </div>
    );
  };

  return (
    <Card role="region" aria-labelledby={`${id}-title`} className={cn('p-5 sm:p-6', className)}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">{t('calculator.title')}</h2>
      <div className="mt-4 grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-direction`}>{t('calculator.direction')}</Label>
          <Select id={`${id}-direction`} name="direction" value={direction} onChange={(e) => onDirection(e.target.value)} data-testid="calculator-direction">
            {DIRECTIONS.map((d) => (
              <option key={d.id} value={d.id}>
                {directionLabel(t, d.id)}
              </option>
            ))}
          </Select>
        </div>
        {/* Either amount: what is sent (before the fee) or what the recipient gets; typing one fills the other. */}
        <div className="grid grid-cols-2 items-end gap-3">
          {amountField('amount', t('calculator.amount', { currency }), currency, amountShown, (text) => {
            setTyped('amount');
            setAmountText(text);
          }, 'calculator-amount')}
          {amountField('payout', t('calculator.payout', { currency: info.to }), info.to, payoutShown, (text) => {
            setTyped('payout');
            setPayoutText(text);
          }, 'calculator-payout')}
        </div>
        {amountError ? (
          <p id={`${id}-error`} role="alert" className="-mt-2 text-sm font-medium text-destructive">
            {t(`common:amount.${amountError}`, { currency: typed === 'amount' ? currency : info.to, example: amountExample(typed === 'amount' ? currency : info.to, lng) })}
          </p>
        ) : null}
      </div>

      {failed ? (
        <Alert variant="destructive" className="mt-4 flex items-center justify-between gap-3">
          <span>{t('calculator.unavailable')}</span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              rates.refetch();
              fees.refetch();
            }}
          >
            <RefreshCw aria-hidden />
            {t('common:actions.retry')}
          </Button>
        </Alert>
      ) : (
        <div aria-busy={loading} className="mt-5">
          <dl className="rounded-lg bg-slate-50 px-4 py-2" aria-live="polite">
            {row(t('calculator.youSend'), quote ? moneyFromDecimal(quote.amount, currency, lng) : null, 'calc-you-send')}
            {row(t('calculator.fee'), quote ? moneyFromDecimal(quote.fee, currency, lng) : null, 'calc-fee')}
            {row(t('calculator.total'), quote ? moneyFromDecimal(quote.total, currency, lng) : null, 'calc-total', true)}
            {row(t('calculator.theyGet'), quote ? moneyFromDecimal(quote.payout, info.to, lng) : null, 'calc-they-get', true)}
          </dl>
          {quote?.limit_error && !amountError ? (
            <p id={`${id}-limit`} className="mt-3 text-sm font-medium text-yellow-900" role="status">
              {quote.limit_error.code === 'below_min'
                ? t('calculator.belowMin', { limit: moneyFromDecimal(quote.limit_error.limit, currency, lng) })
                : t('calculator.aboveMax', { limit: moneyFromDecimal(quote.limit_error.limit, currency, lng) })}
            </p>
          ) : null}
          {!amountError && !quote?.limit_error && (kyc?.level === 0 || over) ? (
            <p className="mt-3 text-sm font-medium text-yellow-900" role="status" data-testid="calc-own-limit">
              {over
                ? t('calculator.overOwnLimit', { window: t(`calculator.window.${over.window}`), left: money(parseAmount(over.left!, 'EUR') ?? 0, 'EUR', lng) })
                : t('calculator.profileFirst')}
            </p>
          ) : null}
          {refused || (ownLimit && !over && kyc?.level !== 0) ? (
            <p className="mt-3 text-sm font-medium text-destructive" role="alert" data-testid="calc-refused">{live.error!.message}</p>
          ) : null}
          <p className="mt-3 text-sm text-slate-700" data-testid="calc-rate">
            {refused ? null : readable
              ? t('calculator.rate', { from: readable.base, to: readable.counter, rate: rateFigure(readable.ours, lng) })
              : quote ? t('common:rates.sameCurrency', { currency }) : t('common:states.loading')}
          </p>
          {!refused && readable && readable.reference !== readable.ours ? (
            <p className="mt-1 text-sm text-slate-700" data-testid="calc-reference">
              {t('calculator.reference', { from: readable.base, to: readable.counter, rate: rateFigure(readable.reference, lng) })}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-slate-600" role="status" data-testid="calc-quoting">{live.pending && ask ? t('common:price.quoting') : null}</p>
          {rates.data?.updatedAt ? (
            <p className="mt-1 text-xs text-slate-600" data-testid="calc-updated">
              {t('calculator.updatedAt', { time: updatedText(rates.data.updatedAt, lng) })}
            </p>
          ) : null}
        </div>
      )}

      <Button asChild size="lg" className="mt-5 w-full">
        <Link to={sendHref} data-testid="calculator-send">
          {t('calculator.send')}
          <ArrowRight aria-hidden />
        </Link>
      </Button>
      <p className="mt-3 text-xs text-slate-600" data-testid="price-fixed">{t('common:price.fixed')} {t('calculator.note')}</p>
    </Card>
  );
}

export default Calculator;
