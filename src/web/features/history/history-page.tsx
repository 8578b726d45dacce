import { lazy, useDeferredValue, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { History as HistoryIcon, RefreshCw, Search } from 'lucide-react';
import { PageShell } from '@web/components/page';
import { RouteHeader } from '@web/components/route-heading';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { Select } from '@web/components/ui/select';
import { OnceOpened } from '@web/components/ui/once-opened';
import { LoadingState } from '@web/components/ui/spinner';
import { useTransactions } from '@web/lib/transfers';
import { HistoryTable } from './history-table';

// The details, their thread and its reply form load when first opened: the list needs none of them.
const TransferDetailsDialog = lazy(() => import('./details-dialog').then((m) => ({ default: m.TransferDetailsDialog })));

const FILTERS = ['', 'pending', 'processing', 'completed', 'rejected', 'cancelled'] as const;

/** History: search, status filter, refresh, count, and per transfer its states, details, cancel, receipt and send again. */
export default function HistoryPage() {
  const { t } = useTranslation(['transfer', 'common']);
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [status, setStatus] = useState('');
  // The open details are in the address (?details=<transfer id>): the dashboard links to them, Back closes them.
  const [params, setParams] = useSearchParams();
  const showDetails = (id: string | null) => setParams((current) => {
    const next = new URLSearchParams(current);
    if (id) next.set('details', id);
    else { next.delete('details'); next.delete('reply'); }
    return next;
  });

  // The search runs in the database; wait until typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const list = useTransactions({ q, status, limit: '20' });
  // The cards are drawn in a transition: a page of them renders in slices, between which the
  // browser stays responsive, not in one long task. Until drawn, the list still shows as loading.
  const pages = useDeferredValue(list.data?.pages);
  const rows = pages?.flatMap((p) => p.data) ?? [];
  const drawing = list.isSuccess && pages === undefined;

  return (
    <PageShell width="wide">
      <RouteHeader path="/history" actions={<Button asChild><Link to="/transfer">{t('dashboard.newTransfer')}</Link></Button>} />
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
          {list.isSuccess && !drawing ? t('history.count', { count: rows.length }) : '\u00a0'}
        </p>
      </Card>

      <div className="mt-6">
        {list.isPending || drawing ? <LoadingState /> : list.isError ? (
          <Alert variant="destructive" className="flex items-center justify-between gap-3">
            <span>{list.error.message}</span>
            <Button size="sm" variant="outline" onClick={() => void list.refetch()}>{t('common:actions.retry')}</Button>
          </Alert>
        ) : rows.length === 0 ? (
          <EmptyState icon={<HistoryIcon className="size-8" />} title={q || status ? t('history.noMatch') : t('history.empty')}
            action={<Button asChild variant="outline"><Link to="/transfer">{t('dashboard.newTransfer')}</Link></Button>} />
        ) : (
          <HistoryTable rows={rows} onDetails={showDetails} />
        )}
        {list.hasNextPage ? (
          <div className="mt-4 flex justify-center">
            <Button variant="outline" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>{t('history.more')}</Button>
          </div>
        ) : null}
      </div>
      <OnceOpened open={params.has('details')}>
        <TransferDetailsDialog transferId={params.get('details')} onClose={() => showDetails(null)} focusReply={params.get('reply') === '1'} />
      </OnceOpened>
    </PageShell>
  );
}
