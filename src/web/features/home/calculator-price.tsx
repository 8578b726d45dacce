import { useTranslation } from 'react-i18next';
import { RefreshCw } from './icons';
import type { KycWindowState } from '@core/api/kyc';
import { parseAmount } from '@core/money';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { formatDateTime, formatTime, money, moneyFromDecimal } from '@web/lib/format';
import { rateFigure } from '@web/lib/rate-text';
import { cn } from '@web/lib/utils';
import type { CalculatorPriceState } from './use-calculator-price';

function updatedText(iso: string, lng: string): string {
  const d = new Date(iso);
  return d.toDateString() === new Date().toDateString() ? formatTime(d, lng) : formatDateTime(d, lng);
}

/** A line of the price: a dash when nothing can be priced, a placeholder until it is. */
function PriceRow({ label, value, testId, strong = false, blank }: {
  label: string; value: string | null; testId: string; strong?: boolean; blank: boolean;
}) {
  return (
    <div className={cn('flex items-baseline justify-between gap-4 py-2', strong && 'border-t border-border pt-3')}>
      <dt className={cn('text-sm', strong ? 'font-semibold text-slate-900' : 'text-slate-700')}>{label}</dt>
      <dd data-testid={testId} className={cn('text-right tabular-nums', strong ? 'text-lg font-bold text-slate-900' : 'font-medium text-slate-900')}>
        {blank ? '—' : value ?? <span className="inline-block h-4 w-20 animate-pulse rounded bg-muted align-middle" aria-hidden />}
      </dd>
    </div>
  );
}

/**
 * The calculator's answer: what is sent, the fee, the total and what the recipient gets, then why
 * it cannot be sent (the corridor's limits, the sender's own, a refused price), the rate and its
 * age; or, when the prices could not be read, a retry.
 */
export function CalculatorPrice({ id, price, level, over }: {
  /** The calculator's id: the limit's note is `${id}-limit`. */
  id: string;
  price: CalculatorPriceState;
  /** The signed-in sender's level, if known. */
  level: number | undefined;
  /** The first of the sender's own windows this amount exceeds. */
  over: KycWindowState | null;
}) {
  const { t, i18n } = useTranslation(['public', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { quote, info, amountError, refused, ownLimit, live, ask, readable, rates, fees } = price;
  const currency = info.from;
  const blank = !!amountError || refused;

  if (price.failed) {
    return (
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
    );
  }

  return (
    <div aria-busy={price.loading} className="mt-5">
      <dl className="rounded-lg bg-slate-50 px-4 py-2" aria-live="polite">
        <PriceRow label={t('calculator.youSend')} value={quote && moneyFromDecimal(quote.amount, currency, lng)} testId="calc-you-send" blank={blank} />
        <PriceRow label={t('calculator.fee')} value={quote && moneyFromDecimal(quote.fee, currency, lng)} testId="calc-fee" blank={blank} />
        <PriceRow label={t('calculator.total')} value={quote && moneyFromDecimal(quote.total, currency, lng)} testId="calc-total" strong blank={blank} />
        <PriceRow label={t('calculator.theyGet')} value={quote && moneyFromDecimal(quote.payout, info.to, lng)} testId="calc-they-get" strong blank={blank} />
      </dl>
      {quote?.limit_error && !amountError ? (
        <p id={`${id}-limit`} className="mt-3 text-sm font-medium text-yellow-900" role="status">
          {t(quote.limit_error.code === 'below_min' ? 'calculator.belowMin' : 'calculator.aboveMax', { limit: moneyFromDecimal(quote.limit_error.limit, currency, lng) })}
        </p>
      ) : null}
      {!amountError && !quote?.limit_error && (level === 0 || over) ? (
        <p className="mt-3 text-sm font-medium text-yellow-900" role="status" data-testid="calc-own-limit">
          {over
            ? t('calculator.overOwnLimit', { window: t(`calculator.window.${over.window}`), left: money(parseAmount(over.left!, 'EUR') ?? 0, 'EUR', lng) })
            : t('calculator.profileFirst')}
        </p>
      ) : null}
      {refused || (ownLimit && !over && level !== 0) ? (
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
  );
}
