import { useTranslation } from 'react-i18next';
import { Snowflake } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { channelLabel, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { useFrozenMoney } from './reconciliation-api';

// Money a compliance close-out froze (docs/rules/screening.md#closing-out-a-confirmed-match): the
// books hold it as received and it is owed to no one until the rules release it, so the board
// names it, per currency and transfer, beside the accounts it came in through.

export function FrozenMoneySection() {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const frozen = useFrozenMoney();
  return (
    <section aria-labelledby="frozen-money-heading" className="flex flex-col gap-2" data-testid="frozen-money">
      <h3 id="frozen-money-heading" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
        <Snowflake aria-hidden className="size-5 text-blue-700" />{t('reconciliation.frozen.title')}
      </h3>
      <p className="text-sm text-muted-foreground">{t('reconciliation.frozen.description')}</p>
      {frozen.isPending ? <LoadingState className="py-4" /> : frozen.isError ? (
        <Alert variant="destructive">{isApiError(frozen.error) ? frozen.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : frozen.data.transfers.length === 0 ? (
        <p className="text-sm text-slate-700">{t('reconciliation.frozen.none')}</p>
      ) : (
        <Card className="p-4">
          <dl className="flex flex-wrap gap-x-8 gap-y-2" aria-label={t('reconciliation.frozen.totals')}>
            {frozen.data.totals.map((total) => (
              <div key={total.currency} data-testid={`frozen-total-${total.currency}`}>
                <dt className="text-sm text-slate-700">{t('reconciliation.frozen.total', { currency: total.currency, count: total.count })}</dt>
                <dd className="text-lg font-semibold tabular-nums text-slate-900">{moneyFromDecimal(total.amount, total.currency, lng)}</dd>
              </div>
            ))}
          </dl>
          <ul className="mt-3 divide-y divide-border border-t border-border text-sm" aria-label={t('reconciliation.frozen.transfers')}>
            {frozen.data.transfers.map((f) => (
              <li key={f.id} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 py-2" data-testid="frozen-transfer">
                <span className="min-w-0 break-words">
                  <span className="font-mono font-medium">{f.reference}</span>
                  {' · '}{f.sender_name ?? t('reconciliation.frozen.noName')}{' · '}{channelLabel(t, f.account)}
                  <span className="block text-xs text-muted-foreground">{t('reconciliation.frozen.closedAt', { when: formatDateTime(f.closed_at, lng) })}</span>
                </span>
                <span className="font-semibold tabular-nums">{moneyFromDecimal(f.amount, f.currency, lng)}</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </section>
  );
}
