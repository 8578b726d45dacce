import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { amountText } from './admin-format';
import { CollectionExceptionCard } from './collection-exception-card';
import { NameHoldCard } from './name-hold-card';
import { PayoutAttemptCard } from './payout-attempt-card';
import { usePayoutExceptions, type PayoutException } from './payouts-api';

// Payouts that need a person (docs/rules/payout-rails.md#needs-attention), oldest first: a name
// the operator does not recognise, an attempt the operator has not settled past
// PAYOUT_UNKNOWN_AFTER, a failed attempt nobody acted on, a payout the operator took back; and a
// payment asked from a sender's wallet left unanswered or received twice. Each card carries its own decisions.

function ExceptionCard({ item }: { item: PayoutException }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const tr = item.transfer;
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid={`payout-exception-${tr.reference}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold">{t(`payouts.kind.${item.kind}`)} · {tr.reference}</h3>
        <span className="text-sm text-muted-foreground">{t('payouts.since')} {formatDateTime(item.since, lng)}</span>
      </div>
      <p className="text-sm">
        {amountText(tr.payout_amount, tr.payout_currency, lng)} → {tr.recipient_name ?? '—'} · {tr.recipient_phone ?? '—'}
      </p>
      {item.hold ? <NameHoldCard hold={item.hold} senderId={tr.sender_id} /> : null}
      {item.attempt ? <PayoutAttemptCard attempt={item.attempt} transferId={tr.id} senderId={tr.sender_id} latest /> : null}
      {item.collection ? <CollectionExceptionCard collection={item.collection} senderId={tr.sender_id} /> : null}
    </Card>
  );
}

export function PayoutExceptionsTab() {
  const { t } = useTranslation(['admin', 'common']);
  const list = usePayoutExceptions();
  return (
    <section aria-labelledby="payouts-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="payouts-heading" className="text-lg font-semibold">{t('payouts.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('payouts.intro')}</p>
      </div>
      {list.isPending ? <LoadingState /> : null}
      {list.isError ? <Alert variant="destructive">{isApiError(list.error) ? list.error.message : t('states.error', { ns: 'common' })}</Alert> : null}
      {list.data?.length === 0 ? <p className="text-sm text-muted-foreground">{t('payouts.empty')}</p> : null}
      <ul className="flex flex-col gap-3">
        {list.data?.map((item) => <li key={`${item.kind}-${item.hold?.id ?? item.attempt?.id ?? item.collection?.id}`}><ExceptionCard item={item} /></li>)}
      </ul>
    </section>
  );
}
