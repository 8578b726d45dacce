import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { History, LifeBuoy, Lightbulb, Send } from 'lucide-react';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { StatusBadge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { SenderPaymentBadge, SenderPayoutBadge } from '@web/components/money-badges';
import { displayName, useSession } from '@web/lib/session';
import { channelLabel, directionLabel, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { useSummary, useTransactionList, type TransactionItem } from '@web/lib/transfers';

const TIPS = ['checkRecipient', 'reference', 'proof', 'limits'] as const;

function ListCard({ title, query, empty, render }: {
  title: string;
  query: ReturnType<typeof useTransactionList>;
  empty: string;
  render: (item: TransactionItem) => ReactNode;
}) {
  const titleId = useId();
  return (
    <Card className="min-w-0 p-5 sm:p-6">
      <h2 id={titleId} className="text-lg font-semibold">{title}</h2>
      <div className="mt-3">
        {query.isPending ? <LoadingState /> : query.isError ? <Alert variant="destructive">{query.error.message}</Alert>
          : query.data.length === 0 ? <EmptyState title={empty} />
            : <ul className="divide-y divide-border" aria-labelledby={titleId}>{query.data.map((item) => <li key={item.id} className="py-3">{render(item)}</li>)}</ul>}
      </div>
    </Card>
  );
}

/** Dashboard: welcome, counts, 6 recent transactions, up to 6 open requests, tips. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user } = useSession();
  const summary = useSummary();
  const recent = useTransactionList({ limit: '6' });
  const open = useTransactionList({ limit: '6', open: 'true' });

  const stats: [string, number | undefined][] = [
    [t('dashboard.transactions'), summary.data?.total],
    [t('status.pending'), summary.data?.pending],
    [t('status.processing'), summary.data?.processing],
    [t('status.completed'), summary.data?.completed],
  ];

  return (
    <PageShell width="wide">
      <PageHeader
        title={t('dashboard.welcome', { name: displayName(user, t('common:user.fallback')) })}
        description={t('dashboard.description')}
        actions={
          <>
            <Button asChild><Link to="/transfer"><Send aria-hidden />{t('dashboard.newTransfer')}</Link></Button>
            <Button asChild variant="outline"><Link to="/history"><History aria-hidden />{t('dashboard.history')}</Link></Button>
            <Button asChild variant="ghost"><Link to="/support"><LifeBuoy aria-hidden />{t('dashboard.support')}</Link></Button>
          </>
        }
      />
      <section aria-label={t('dashboard.stats')} className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {stats.map(([label, value]) => (
          <Card key={label} className="p-4 sm:p-5">
            <p className="text-sm text-slate-700">{label}</p>
            <p className="mt-1 text-3xl font-bold tabular-nums" data-testid={`stat-${label}`}>{value ?? '—'}</p>
          </Card>
        ))}
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <ListCard title={t('dashboard.recent')} query={recent} empty={t('dashboard.noTransactions')} render={(item) => (
          <div className="flex items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="truncate font-medium">{directionLabel(t, item.direction)}</p>
              <p className="text-xs text-slate-600">{formatDateTime(item.created_at, lng)} · {item.reference}</p>
            </div>
            <div className="flex shrink-0 flex-col items-end gap-1 text-right">
              <p className="font-semibold tabular-nums">{moneyFromDecimal(item.amount, item.currency, lng)}</p>
              <StatusBadge status={item.status}>{t(`status.${item.status}`)}</StatusBadge>
              <SenderPaymentBadge state={item.payment_status} />
              {item.payout_status === 'sent' ? <SenderPayoutBadge state={item.payout_status} /> : null}
            </div>
          </div>
        )} />
        <ListCard title={t('dashboard.open')} query={open} empty={t('dashboard.noOpen')} render={(item) => (
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="truncate font-medium">{channelLabel(t, item.source_provider)} → {channelLabel(t, item.destination_provider)}</p>
              <p className="text-xs text-slate-600">{moneyFromDecimal(item.amount, item.currency, lng)} · {item.reference}</p>
            </div>
            <div className="flex shrink-0 flex-wrap items-center gap-2">
              <StatusBadge status={item.status}>{t(`status.${item.status}`)}</StatusBadge>
              <SenderPaymentBadge state={item.payment_status} />
              {item.status === 'pending' && item.payment_status === 'awaiting'
                ? <Button asChild size="sm" variant="outline"><Link to={`/pay/${item.transfer_request_id}`}>{t('history.payNow')}</Link></Button>
                : null}
            </div>
          </div>
        )} />
      </div>

      <Card className="mt-6 bg-brand-50 p-5 sm:p-6">
        <h2 className="flex items-center gap-2 text-lg font-semibold"><Lightbulb aria-hidden className="size-5" />{t('dashboard.tipsTitle')}</h2>
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-800">
          {TIPS.map((tip) => <li key={tip}>{t(`dashboard.tips.${tip}`)}</li>)}
        </ul>
      </Card>
    </PageShell>
  );
}
