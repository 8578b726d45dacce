import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Input } from '@web/components/ui/input';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import { amountText } from './admin-format';
import { useCollectionDecision, type CollectionAttemptStaff } from './collection-exceptions-api';
import { AttemptSteps, FactRows } from './payout-attempt-card';

// A payment asked from the sender's wallet that needs a person
// (docs/rules/payout-rails.md#collections-that-need-a-person): what the operator said, and what
// staff may do — ask again while it may still take the money, or, once money came twice, send the
// extra back by hand and record the refund's reference.

function CollectionFacts({ c }: { c: CollectionAttemptStaff }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.language;
  const rows: [string, string][] = [
    [t('payouts.collection.wallet'), `${c.msisdn} · ${amountText(c.amount, c.currency, lng)}`],
    [t('payouts.collection.reference'), c.reference],
    [t('payouts.collection.operatorId'), c.operator_id ?? '—'],
    [t('payouts.attempts.started'), formatDateTime(c.created_at, lng)],
    ...(c.needs_attention_at ? [[t('payouts.attempts.attention'), formatDateTime(c.needs_attention_at, lng)] as [string, string]] : []),
  ];
  return <FactRows rows={rows} />;
}

function RefundForm({ c }: { c: CollectionAttemptStaff }) {
  const { t } = useTranslation(['admin', 'common']);
  const decide = useCollectionDecision();
  const [reference, setReference] = useState('');
  const error = decide.error ? (isApiError(decide.error) ? decide.error.message : t('states.error', { ns: 'common' })) : null;
  return (
    <form className="flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); decide.mutate({ kind: 'refund', id: c.id, reference }); }}>
      <label className="text-sm font-medium" htmlFor={`refund-${c.id}`}>{t('payouts.collection.refundReference')}</label>
      <Input id={`refund-${c.id}`} className="max-w-md" value={reference} onChange={(e) => setReference(e.target.value)} aria-invalid={error ? true : undefined} />
      {error ? <Alert variant="destructive">{error}</Alert> : null}
      <div><Button type="submit" variant="secondary" loading={decide.isPending}>{t('payouts.collection.recordRefund')}</Button></div>
    </form>
  );
}

function CollectionActions({ c, senderId }: { c: CollectionAttemptStaff; senderId: string }) {
  const { t } = useTranslation(['admin', 'common']);
  const { user } = useSession();
  const decide = useCollectionDecision();
  const twice = c.recorded_payment !== null;
  if (c.refund_reference) return <p className="text-sm">{t('payouts.collection.refunded', { reference: c.refund_reference })}</p>;
  const why = twice ? t('payouts.collection.twiceWhy', { reference: c.recorded_payment?.reference ?? '—' }) : t('payouts.collection.unknownWhy');
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-700" data-testid="collection-why">{why}</p>
      {user?.id === senderId ? <p className="text-sm text-slate-700">{t('payouts.ownTransfer')}</p>
        : twice ? <RefundForm c={c} /> : (
          <div className="[&>button]:h-auto [&>button]:min-h-10 [&>button]:whitespace-normal [&>button]:py-2">
            <Button variant="outline" loading={decide.isPending} onClick={() => decide.mutate({ kind: 'enquire', id: c.id })}>{t('payouts.askAgain')}</Button>
          </div>
        )}
      {!twice && decide.error ? <Alert variant="destructive">{isApiError(decide.error) ? decide.error.message : t('states.error', { ns: 'common' })}</Alert> : null}
    </div>
  );
}

export function CollectionExceptionCard({ collection, senderId }: { collection: CollectionAttemptStaff; senderId: string }) {
  const { t } = useTranslation('admin');
  return (
    <div className="flex flex-col gap-2" data-testid="collection-attempt">
      <p className="font-medium">
        {t('payouts.collection.title')} · {t(`payouts.rail.${collection.rail}`)} ·{' '}
        <span data-testid="collection-state">{t(`payouts.collection.states.${collection.state}`)}</span>
      </p>
      <CollectionFacts c={collection} />
      <AttemptSteps attempt={collection} />
      <CollectionActions c={collection} senderId={senderId} />
    </div>
  );
}
