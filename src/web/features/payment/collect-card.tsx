import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Smartphone, XCircle } from 'lucide-react';
import type { CollectionJson } from '@core/api/collections';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { Spinner } from '@web/components/ui/spinner';
import { moneyFromDecimal } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import { transferKeys, type TransferDetail } from '@web/lib/transfers';
import { useCollection } from './collect-api';
import { CollectForm } from './collect-form';

/** Where the request to the sender's phone stands: waiting for their PIN, received, or why it did not go through. */
function CollectProgress({ collection }: { collection: CollectionJson }) {
  const { t, i18n } = useTranslation('transfer');
  const amount = moneyFromDecimal(collection.amount, collection.currency, i18n.resolvedLanguage ?? 'en');
  if (collection.state === 'approve_on_phone') {
    return (
      <Alert variant="warning" className="mt-3 flex gap-2" data-testid="collect-waiting">
        <Spinner className="mt-0.5 size-5 shrink-0" />
        <div>
          <p className="font-semibold">{t('collect.waiting')}</p>
          <p>{t('collect.waitingHint', { amount, number: collection.msisdn })}</p>
        </div>
      </Alert>
    );
  }
  if (collection.state === 'received') {
    return (
      <Alert variant="success" className="mt-3 flex gap-2" data-testid="collect-received">
        <CheckCircle2 aria-hidden className="mt-0.5 size-5 shrink-0" />
        <div>
          <p className="font-semibold">{t('collect.received')}</p>
          <p>{t('collect.receivedHint')}</p>
        </div>
      </Alert>
    );
  }
  return (
    <Alert variant="destructive" className="mt-3 flex gap-2" data-testid="collect-failed">
      <XCircle aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div>
        <p className="font-semibold">{t(collection.state === 'expired' ? 'collect.expired' : 'collect.failed')}</p>
        <p>{t(`collect.reasons.${collection.reason ?? 'failed'}`)}</p>
      </div>
    </Alert>
  );
}

/**
 * "Approve on my phone" beside the manual instructions, for a transfer paid from Airtel Money
 * Gabon or MoMo Rwanda whose operator takes requests: the request, then its live state. Once
 * received, the whole page reads the transfer again (paid: no proof asked any more).
 */
export function CollectCard({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation(['transfer', 'common']);
  const { user } = useSession();
  const queryClient = useQueryClient();
  const status = useCollection(transfer.id, transfer.payment_status === 'awaiting');
  const state = status.data?.collection?.state;
  useEffect(() => {
    if (state === 'received') void queryClient.invalidateQueries({ queryKey: transferKeys.detail(transfer.id) });
  }, [state, queryClient, transfer.id]);

  if (status.isPending && status.fetchStatus === 'idle') return null;
  if (status.isPending) return <Card className="mt-6 flex justify-center p-5" data-testid="collect-loading"><Spinner className="size-5" /></Card>;
  if (status.isError && !status.data) return <Alert variant="warning" className="mt-6" data-testid="collect-error">{t('collect.loadError')}</Alert>;
  const { available, collection } = status.data;
  if (!available && !collection) return null;
  const canAsk = available && state !== 'approve_on_phone' && state !== 'received';
  return (
    <Card className="mt-6 p-5 sm:p-6" data-testid="collect-card">
      <h2 className="flex items-center gap-2 text-lg font-semibold"><Smartphone aria-hidden className="size-5" />{t('collect.title')}</h2>
      {state !== 'received' ? <p className="mt-1 text-sm text-slate-700">{t('collect.hint')}</p> : null}
      {collection ? <CollectProgress collection={collection} /> : null}
      {status.isError ? <p className="mt-2 text-sm text-slate-700" data-testid="collect-error">{t('collect.loadError')}</p> : null}
      {canAsk ? <CollectForm transferId={transfer.id} phone={user?.phone ?? ''} again={!!collection} /> : null}
      {state !== 'received' ? <p className="mt-3 text-sm text-slate-700">{t('collect.orManual')}</p> : null}
    </Card>
  );
}
