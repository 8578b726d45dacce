import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Download, RefreshCw, SlidersHorizontal } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { cn } from '@web/lib/utils';
import { exportRequestsCsv, saveFile, useStaffRequests, type StaffRequest } from './admin-api';
import { DetailsDialog } from './details-dialog';
import { RejectDialog } from './reject-dialog';
import { RequestCard } from './request-card';
import { countActiveFilters, RequestFilters, useFilters } from './request-filters';
import { useApproveAction } from './use-approve-action';
import { useStatusAction } from './use-status-action';

/** The staff queue (docs/rules/back-office.md#staff-queue): filters, late transfers first, then the rest, a page at a time. */
export function RequestsTab() {
  // 'transfer' holds the reasons a money action is refused (transfer.money.*).
  const { t, i18n } = useTranslation(['admin', 'common', 'transfer']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const [filters, setFilters] = useFilters();
  const [search, setSearch] = useState(filters.q);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = countActiveFilters(filters);
  const [opened, setOpened] = useState<StaffRequest | null>(null);
  const [rejecting, setRejecting] = useState<StaffRequest | null>(null);
  const approve = useApproveAction();
  const [exporting, setExporting] = useState(false);
  const { toast } = useToast();
  const query = useStaffRequests(filters);
  // Late transfers first (docs/rules/back-office.md#staff-queue): those of the same filter, listed above the rest.
  const lateQuery = useStaffRequests({ ...filters, late: 'true' }, filters.late !== 'true');
  const action = useStatusAction();
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];
  const late = filters.late === 'true' ? [] : lateQuery.data?.pages[0]?.data ?? [];
  const lateIds = new Set(late.map((r) => r.id));
  const rest = rows.filter((r) => !lateIds.has(r.id));
  // The dialog stays open when its transfer leaves the filtered list (e.g. its payment recorded
  // under "Awaiting payment"); it shows the list's fresher row while there is one.
  const open = opened ? rows.find((r) => r.id === opened.id) ?? late.find((r) => r.id === opened.id) ?? opened : null;
  const cardProps = { lng, action, approve, onOpen: setOpened, onReject: setRejecting };

  async function exportCsv() {
    setExporting(true);
    try {
      const blob = await exportRequestsCsv(filters);
      saveFile(blob, `transfer-requests-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (e) {
      toast({ variant: 'destructive', title: t('requests.exportFailed'), description: isApiError(e) ? e.message : undefined });
    } finally {
      setExporting(false);
    }
  }

  return (
    <section aria-labelledby="requests-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="requests-heading" className="text-xl font-semibold text-slate-900">{t('requests.title')}</h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => void query.refetch()} loading={query.isRefetching && !query.isFetchingNextPage}>
            <RefreshCw aria-hidden /> {t('actions.refresh', { ns: 'common' })}
          </Button>
          <Button variant="outline" size="sm" onClick={() => void exportCsv()} loading={exporting}>
            <Download aria-hidden /> {t('requests.export')}
          </Button>
        </div>
      </div>

      {/* On a phone the filters fold behind one control saying how many are on; from lg they stay open. */}
      <div className="lg:hidden">
        <Button variant="outline" size="sm" aria-expanded={filtersOpen} aria-controls="request-filters" onClick={() => setFiltersOpen((o) => !o)}>
          <SlidersHorizontal aria-hidden />
          {activeFilters > 0 ? t('requests.filtersOn', { count: activeFilters }) : t('requests.filtersButton')}
        </Button>
      </div>
      <Card id="request-filters" className={cn('p-4', filtersOpen ? '' : 'max-lg:hidden')}>
        <RequestFilters filters={filters} setFilters={setFilters} search={search} setSearch={setSearch} />
      </Card>

      {query.isPending ? (
        <LoadingState />
      ) : query.isError && rows.length === 0 ? (
        <Alert variant="destructive">{isApiError(query.error) ? query.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : rows.length === 0 && late.length === 0 ? (
        <EmptyState title={t('requests.empty')} />
      ) : (
        <>
          {late.length > 0 ? (
            <section aria-labelledby="late-heading" className="flex flex-col gap-3">
              <h3 id="late-heading" className="font-semibold text-red-800">{t('requests.lateFirst', { count: late.length })}</h3>
              <ul className="flex flex-col gap-3" aria-label={t('requests.lateFirst', { count: late.length })}>
                {late.map((row) => <RequestCard key={row.id} row={row} {...cardProps} />)}
              </ul>
            </section>
          ) : null}
          <p className="text-sm text-muted-foreground" aria-live="polite">{t('requests.shown', { count: rows.length })}</p>
          <ul className="flex flex-col gap-3" aria-label={t('requests.title')}>
            {rest.map((row) => <RequestCard key={row.id} row={row} {...cardProps} />)}
          </ul>
          {query.hasNextPage ? (
            <Button variant="outline" className="self-center" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {t('requests.more')}
            </Button>
          ) : null}
        </>
      )}

      {open ? <DetailsDialog row={open} onClose={() => setOpened(null)} /> : null}
      {rejecting ? <RejectDialog transfer={rejecting} onClose={() => setRejecting(null)} /> : null}
    </section>
  );
}
