import { useTranslation } from 'react-i18next';
import type { PricePreview } from '@core/api/pricing';
import { Card } from '@web/components/ui/card';
import { moneyFromDecimal } from '@web/lib/format';
import { marginGivesMore, marginIsZero, marginPercent, rateText } from '@web/lib/rate-lines';
import { rateFigure, readableRate, type RateTable } from '@web/lib/rate-text';
import { cn } from '@web/lib/utils';

/** The price in words: amount, fee, total, payout ("—" until the quote is known). */
export function quoteTexts(quote: PricePreview | null, lng: string) {
  return {
    amount: quote ? moneyFromDecimal(quote.amount, quote.currency, lng) : '—',
    fee: quote ? moneyFromDecimal(quote.fee, quote.currency, lng) : '—',
    total: quote ? moneyFromDecimal(quote.total, quote.currency, lng) : '—',
    payout: quote ? moneyFromDecimal(quote.payout, quote.payout_currency, lng) : '—',
  };
}

/**
 * A price line by line: what is sent, the fee on its own line, the total paid, the rate with the
 * reference beside it and our margin, what arrives (docs/rules/fees-and-rates.md#rates-on-screen).
 */
export function PriceLines({ quote, pending = false, rates, withReference = true, className }: {
  quote: PricePreview | null;
  pending?: boolean;
  rates?: RateTable;
  withReference?: boolean;
  className?: string;
}) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const texts = quoteTexts(quote, lng);
  const readable = quote ? readableRate(quote, rates) : null;
  const margin = quote && readable && !marginIsZero(quote.margin)
    ? t(marginGivesMore(quote.margin) ? 'common:rates.marginInFavour' : 'common:rates.marginValue', { percent: marginPercent(quote.margin, lng) })
    : null;
  const rows: [string, string, string, boolean?][] = [
    [t('form.amountLabel'), texts.amount, 'summary-amount'],
    [t('form.fee'), texts.fee, 'summary-fee'],
    [t('form.total'), texts.total, 'summary-total', true],
    // Loading only while a price is being asked; with none to ask (no amount, or one refused), said plainly.
    [t('form.rate'), rateText(t, quote, lng, rates) ?? t(pending ? 'common:states.loading' : 'form.rateUnknown'), 'summary-rate'],
    ...(withReference && readable && readable.reference !== readable.ours
      ? [[t('common:rates.reference'), t('common:rates.line', { base: readable.base, counter: readable.counter, rate: rateFigure(readable.reference, lng) }), 'summary-reference'] as [string, string, string]]
      : []),
    ...(withReference && margin ? [[t('common:rates.margin'), margin, 'summary-margin'] as [string, string, string]] : []),
    [t('form.theyGet'), texts.payout, 'summary-payout', true],
  ];
  return (
    <dl className={cn('divide-y divide-border text-sm', pending && 'opacity-60', className)} aria-live="polite" aria-busy={pending}>
      {rows.map(([label, value, id, strong]) => (
        <div key={id} className="flex justify-between gap-4 py-2">
          <dt className={strong ? 'font-semibold text-slate-900' : 'text-slate-700'}>{label}</dt>
          <dd data-testid={id} className={cn('break-words text-right tabular-nums text-slate-900', strong ? 'font-bold' : 'font-medium')}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The side panel of the form: what is sent, what it costs, what arrives, and that this is the price. */
export function TransferSummary({ quote, pending, note, delivery, rates }: {
  quote: PricePreview | null;
  pending: boolean;
  note: string;
  delivery: string | null;
  rates?: RateTable;
}) {
  const { t } = useTranslation(['transfer', 'common']);
  return (
    <Card role="region" className="h-fit p-5 sm:p-6 lg:sticky lg:top-24" aria-labelledby="transfer-summary">
      <h2 id="transfer-summary" className="text-lg font-semibold">{t('form.summary')}</h2>
      <PriceLines quote={quote} pending={pending} rates={rates} className="mt-3" />
      {note.trim() ? (
        <dl className="flex justify-between gap-4 border-t border-border py-2 text-sm">
          <dt className="text-slate-700">{t('form.notes')}</dt>
          <dd data-testid="summary-notes" className="break-words text-right font-medium">{note.trim()}</dd>
        </dl>
      ) : null}
      <p className="mt-3 text-xs text-slate-600" role="status">{pending ? t('common:price.quoting') : null}</p>
      <p className="mt-1 text-xs text-slate-600" data-testid="price-fixed">{t('common:price.fixed')}</p>
      {delivery ? <p className="mt-1 text-xs text-slate-600">{t('form.delivery', { time: delivery })}</p> : null}
    </Card>
  );
}
