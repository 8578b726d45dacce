import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Download, History as HistoryIcon, RefreshCw, Search } from 'lucide-react';
import { canCancel } from '@core/status';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { StatusBadge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { SenderPaymentBadge, SenderPayoutBadge } from '@web/components/money-badges';
import { useToast } from '@web/components/ui/toast';
import { api, isApiError } from '@web/lib/api';
import { directionLabel, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { recipientName, transferKeys, useTransactions, type TransactionItem } from '@web/lib/transfers';
import { TransferDetailsDialog } from './details-dialog';

const FILTERS = ['', 'pending', 'processing', 'completed', 'rejected', 'cancelled'] as const;

/** History: search, status filter, refresh, count, receipts, timeline and cancel. */
export default function HistoryPage() {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  const [details, setDetails] = useState<TransactionItem | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  // The search runs in the database; wait until typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const list = useTransactions({ q, status, limit: '20' });
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];

  const receipt = async (item: TransactionItem) => {
    setBusy(`receipt-${item.id}`);
    try {
      const { downloadReceipt } = await import('./receipt');
      downloadReceipt(item, t, lng);
    } catch {
      toast({ variant: 'destructive', title: t('history.receiptFailed') });
    } finally {
      setBusy(null);
    }
  };

  const cancel = async (item: TransactionItem) => {
    if (!window.confirm(t('history.cancelConfirm', { reference: item.reference }))) return;
    setBusy(`cancel-${item.id}`);
    try {
      await api(`/api/transfer-requests/${item.transfer_request_id}/cancel`, { method: 'POST' });
      toast({ variant: 'success', title: t('history.cancelled') });
      await queryClient.invalidateQueries({ queryKey: transferKeys.all });
    } catch (err) {
      toast({ variant: 'destructive', title: t('history.cancelFailed'), description: isApiError(err) ? err.message : undefined });
    } finally {
      setBusy(null);
    }
  };

  return (
    <PageShell width="wide">
      <PageHeader
        title={t('history.title')}
        description={t('history.description')}
        actions={<Button asChild><Link to="/transfer">{t('dashboard.newTransfer')}</Link></Button>}
      />
      <Card className="p-4 sm:p-5">
        <form role="search" className="flex flex-col gap-3 md:flex-row md:items-end" onSubmit={(e) => { e.preventDefault(); setQ(search.trim()); }}>
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="history-search">{t('history.search')}</Label>
            <div className="relative">
              <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" />
              <Input id="history-search" type="search" className="pl-9" placeholder={t('history.searchPlaceholder')} value={search}
                onChange={(e) => setSearch(e.target.value)} data-testid="history-search" />
            </div>
          </div>
          <div className="grid gap-1.5 md:w-56">
            <Label htmlFor="history-status">{t('history.statusFilter')}</Label>
            <Select id="history-status" value={status} onChange={(e) => setStatus(e.target.value)} data-testid="history-status">
              {FILTERS.map((s) => <option key={s} value={s}>{s ? t(`status.${s}`) : t('history.all')}</option>)}
            </Select>
          </div>
          <Button type="button" variant="outline" onClick={() => void list.refetch()} loading={list.isRefetching} data-testid="history-refresh">
            <RefreshCw aria-hidden />
            {t('common:actions.refresh')}
          </Button>
        </form>
        <p className="mt-3 text-sm text-slate-700" aria-live="polite" data-testid="history-count">
          {list.isSuccess ? t('history.count', { count: rows.length }) : '\u00a0'}
        </p>
      </Card>

      <div className="mt-6">
        {list.isPending ? <LoadingState /> : list.isError ? (
          <Alert variant="destructive" className="flex items-center justify-between gap-3">
            <span>{list.error.message}</span>
            <Button size="sm" variant="outline" onClick={() => void list.refetch()}>{t('common:actions.retry')}</Button>
          </Alert>
        ) : rows.length === 0 ? (
          <EmptyState icon={<HistoryIcon className="size-8" />} title={q || status ? t('history.noMatch') : t('history.empty')}
            action={<Button asChild variant="outline"><Link to="/transfer">{t('dashboard.newTransfer')}</Link></Button>} />
        ) : (
          <Card className="overflow-x-auto">
            <table className="w-full min-w-[820px] text-left text-sm" data-testid="history-table">
              <caption className="sr-only">{t('history.title')}</caption>
              <thead className="border-b border-border bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-3">{t('history.date')}</th>
                  {/* Status and money next to the date: what a phone shows before scrolling. */}
                  <th scope="col" className="px-4 py-3">{t('history.status')}</th>
                  <th scope="col" className="px-4 py-3">{t('history.recipient')}</th>
                  <th scope="col" className="px-4 py-3">{t('history.direction')}</th>
                  <th scope="col" className="px-4 py-3 text-right">{t('history.amount')}</th>
                  <th scope="col" className="px-4 py-3 text-right">{t('history.actions')}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {rows.map((item) => {
                  const name = recipientName(item);
                  return (
                    <tr key={item.id} data-testid="history-row" data-reference={item.reference}>
                      <td className="px-4 py-3">{formatDateTime(item.created_at, lng)}</td>
                      <td className="px-4 py-3">
                        <div className="flex flex-col items-start gap-1">
                          <StatusBadge status={item.status}>{t(`status.${item.status}`)}</StatusBadge>
                          <SenderPaymentBadge state={item.payment_status} />
                          <SenderPayoutBadge state={item.payout_status} />
                        </div>
                      </td>
                      <td className="px-4 py-3">{name ?? <span className="italic text-slate-600">{t('history.unknownRecipient')}</span>}</td>
                      <td className="min-w-48 px-4 py-3">{directionLabel(t, item.direction)}</td>
                      <td className="whitespace-nowrap px-4 py-3 text-right font-medium tabular-nums">{moneyFromDecimal(item.amount, item.currency, lng)}</td>
                      <td className="px-4 py-3">
                        <div className="flex flex-wrap justify-end gap-2">
                          <Button size="sm" variant="ghost" onClick={() => setDetails(item)} aria-label={t('history.detailsOf', { reference: item.reference })}>
                            {t('history.details')}
                          </Button>
                          {canCancel(item.status) && !item.payout_reference ? (
                            <Button size="sm" variant="outline" loading={busy === `cancel-${item.id}`} onClick={() => void cancel(item)}
                              aria-label={t('history.cancelOf', { reference: item.reference })}>
                              {t('history.cancel')}
                            </Button>
                          ) : null}
                          <Button size="sm" variant="secondary" loading={busy === `receipt-${item.id}`} onClick={() => void receipt(item)}
                            aria-label={t('history.receiptOf', { reference: item.reference })} data-testid="history-receipt">
                            <Download aria-hidden />
                            {t('history.receipt')}
                          </Button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </Card>
        )}
        {list.hasNextPage ? (
          <div className="mt-4 flex justify-center">
            <Button variant="outline" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>{t('history.more')}</Button>
          </div>
        ) : null}
      </div>
      <TransferDetailsDialog item={details} onClose={() => setDetails(null)} />
    </PageShell>
  );
}
