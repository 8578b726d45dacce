import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Quote } from '@core/fees';
import type { Currency, Minor } from '@core/money';
import { Card } from '@web/components/ui/card';
import { formatDecimalText, money } from '@web/lib/format';

/** The price in words: fee, total, payout and rate ("—" or "loading" until the quote is known). */
export function quoteTexts(t: TFunction, quote: Quote | null, currency: Currency, lng: string) {
  return {
    fee: quote ? money(quote.fee, currency, lng) : '—',
    total: quote ? money(quote.total, currency, lng) : '—',
    payout: quote ? money(quote.payout, quote.payout_currency, lng) : '—',
    rate: quote ? t('form.rateValue', { from: currency, to: quote.payout_currency, rate: formatDecimalText(quote.rate, lng) }) : t('common:states.loading'),
  };
}

/** The side panel of the form and the review: what is sent, what it costs, what arrives. */
export function TransferSummary({ amount, currency, quote, note }: { amount: Minor; currency: Currency; quote: Quote | null; note: string }) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const texts = quoteTexts(t, quote, currency, lng);
  const rows = [
    [t('form.amountLabel'), amount > 0 ? money(amount, currency, lng) : '—', 'summary-amount'],
    [t('form.fee'), texts.fee, 'summary-fee'],
    [t('form.total'), texts.total, 'summary-total'],
    [t('form.theyGet'), texts.payout, 'summary-payout'],
    [t('form.rate'), texts.rate, 'summary-rate'],
    ...(note.trim() ? [[t('form.notes'), note.trim(), 'summary-notes']] : []),
  ];
  return (
    <Card role="region" className="h-fit p-5 sm:p-6 lg:sticky lg:top-24" aria-labelledby="transfer-summary">
      <h2 id="transfer-summary" className="text-lg font-semibold">{t('form.summary')}</h2>
      <dl className="mt-3 divide-y divide-border text-sm" aria-live="polite">
        {rows.map(([label, value, id]) => (
          <div key={id} className="flex justify-between gap-4 py-2">
            <dt className="text-slate-700">{label}</dt>
            <dd data-testid={id} className="break-words text-right font-medium tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-xs text-slate-600">{t('form.estimate')}</p>
      {quote?.processing_time ? <p className="mt-1 text-xs text-slate-600">{t('form.delivery', { time: quote.processing_time })}</p> : null}
    </Card>
  );
}
