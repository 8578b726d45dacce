import { startTransition, useOptimistic, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Download, FileCheck2, MessageSquareReply, RefreshCw, Search, SlidersHorizontal } from 'lucide-react';
import { DIRECTIONS } from '@core/channels';
import { isFinalStatus, PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES } from '@core/status';
import { Alert } from '@web/components/ui/alert';
import { Badge, StatusBadge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { useErrorText } from '@web/components/ui/form';
import { FormField } from '@web/components/ui/form-field';
import { Input } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useSession } from '@web/lib/session';
import { cn } from '@web/lib/utils';
import { directionLabel, formatDateTime } from '@web/lib/format';
import { amountText, requesterName } from './admin-format';
import {
  EMPTY_FILTERS, exportRequestsCsv, saveFile, useStaffRequests, type StaffFilters, type StaffRequest,
} from './admin-api';
import { DetailsDialog } from './details-dialog';
import { RejectDialog } from './reject-dialog';
import { useApproveAction } from './use-approve-action';
import { WorkBadges } from './work-badges';
import { approveBlocked, staffActions } from './money-form';
import { PaymentBadge, PayoutBadge } from './money-section';
import { useStatusAction } from './use-status-action';

/** Filters live in the address, so a reload or a shared link keeps them. */
function useFilters(): [StaffFilters, (f: StaffFilters) => void] {
  const [params, setParams] = useSearchParams();
  const filters: StaffFilters = {
    status: params.get('status') ?? '',
    payment: params.get('payment') ?? '',
    payout: params.get('payout') ?? '',
    direction: params.get('direction') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    q: params.get('q') ?? '',
    sort: params.get('sort') === 'oldest' ? 'oldest' : 'newest',
    needs_approval: params.get('needs_approval') === 'true' ? 'true' : '',
    action_needed: params.get('action_needed') === 'true' ? 'true' : '',
    late: params.get('late') === 'true' ? 'true' : '',
  };
  // The address changes in a transition: the controls show the new filter at once meanwhile
  // (a controlled checkbox would otherwise spring back until the transition ends).
  const [shown, show] = useOptimistic(filters);
  const set = (f: StaffFilters) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(f)) {
      if (v && !(k === 'sort' && v === 'newest')) next.set(k, v);
      else next.delete(k);
    }
    startTransition(() => {
      show(f);
      setParams(next, { replace: true });
    });
  };
  return [shown, set];
}

/** How many filters narrow the queue (the order is not one): shown on the folded filters' control. */
export function countActiveFilters(f: StaffFilters): number {
  return (Object.keys(f) as (keyof StaffFilters)[]).filter((k) => k !== 'sort' && Boolean(f[k])).length;
}

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

  const update = (patch: Partial<StaffFilters>) => setFilters({ ...filters, ...patch });
  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    update({ q: search.trim() });
  };

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
        <form onSubmit={submitSearch} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6" role="search" aria-label={t('requests.filters')}>
          {/* The label names the input itself; the search button sits beside the field. */}
          <div className="flex items-end gap-2 sm:col-span-2">
            <FormField label={t('requests.search')} className="flex-1">
              <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('requests.searchHint')} maxLength={100} />
            </FormField>
            <Button type="submit" variant="secondary" aria-label={t('actions.search', { ns: 'common' })}><Search aria-hidden /></Button>
          </div>
          <FormField label={t('requests.status')}>
            <Select value={filters.status} onChange={(e) => update({ status: e.target.value })}>
              <option value="">{t('requests.allStatuses')}</option>
              {TRANSFER_STATUSES.map((s) => <option key={s} value={s}>{t(`status.${s}`, { ns: 'common' })}</option>)}
            </Select>
          </FormField>
          <FormField label={t('requests.payment')}>
            <Select value={filters.payment} onChange={(e) => update({ payment: e.target.value })}>
              <option value="">{t('requests.allPayments')}</option>
              {PAYMENT_STATUSES.map((s) => <option key={s} value={s}>{t(`payment.${s}`)}</option>)}
            </Select>
          </FormField>
          <FormField label={t('requests.payout')}>
            <Select value={filters.payout} onChange={(e) => update({ payout: e.target.value })}>
              <option value="">{t('requests.allPayouts')}</option>
              {PAYOUT_STATUSES.map((s) => <option key={s} value={s}>{t(`payout.${s}`)}</option>)}
            </Select>
          </FormField>
          <FormField label={t('requests.corridor')}>
            <Select value={filters.direction} onChange={(e) => update({ direction: e.target.value })}>
              <option value="">{t('requests.allCorridors')}</option>
              {DIRECTIONS.map((d) => <option key={d.id} value={d.id}>{directionLabel(t, d.id)}</option>)}
            </Select>
          </FormField>
          <FormField label={t('requests.from')}>
            <Input type="date" value={filters.from} onChange={(e) => update({ from: e.target.value })} />
          </FormField>
          <FormField label={t('requests.to')}>
            <Input type="date" value={filters.to} onChange={(e) => update({ to: e.target.value })} />
          </FormField>
          <FormField label={t('requests.sort')}>
            <Select value={filters.sort} onChange={(e) => update({ sort: e.target.value === 'oldest' ? 'oldest' : 'newest' })}>
              <option value="newest">{t('requests.newest')}</option>
              <option value="oldest">{t('requests.oldest')}</option>
            </Select>
          </FormField>
          {/* Work waiting on staff: a second approval (docs/rules/back-office.md#four-eyes), or the sender's answer. */}
          <fieldset className="flex flex-col justify-end gap-2 text-sm sm:col-span-2">
            <legend className="sr-only">{t('requests.waiting')}</legend>
            <label className="flex items-center gap-2">
              <input type="checkbox" className="size-4 accent-brand-700" checked={filters.needs_approval === 'true'}
                onChange={(e) => update({ needs_approval: e.target.checked ? 'true' : '' })} />
              {t('requests.onlyNeedsApproval')}
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" className="size-4 accent-brand-700" checked={filters.action_needed === 'true'}
                onChange={(e) => update({ action_needed: e.target.checked ? 'true' : '' })} />
              {t('requests.onlyActionNeeded')}
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" className="size-4 accent-brand-700" checked={filters.late === 'true'}
                onChange={(e) => update({ late: e.target.checked ? 'true' : '' })} />
              {t('requests.onlyLate')}
            </label>
          </fieldset>
          <div className="flex items-end">
            <Button variant="ghost" onClick={() => { setSearch(''); setFilters(EMPTY_FILTERS); }}>{t('requests.clear')}</Button>
          </div>
        </form>
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

/** One transfer of the queue: who, what, its state and the actions it allows now. */
function RequestCard({ row, lng, action, approve, onOpen, onReject }: {
  row: StaffRequest;
  lng: string;
  action: ReturnType<typeof useStatusAction>;
  approve: ReturnType<typeof useApproveAction>;
  onOpen: (row: StaffRequest) => void;
  onReject: (row: StaffRequest) => void;
}) {
  const { t } = useTranslation(['admin', 'common', 'transfer']);
  const errorText = useErrorText();
  const act = (status: 'processing' | 'completed') => void action.run({ id: row.id, status, expected_status: row.status });
  const can = staffActions(row);
  const moneyStep = can.payment ? 'recordPayment' : can.payout ? 'recordPayout' : can.refund ? 'recordRefund' : null;
  // Why a move the status allows is refused for now, written out beside its greyed button.
  const processReason = can.processBlocked ? errorText(can.processBlocked) : undefined;
  const completeReason = can.completeBlocked ? errorText(can.completeBlocked) : undefined;
  const rejectReason = can.rejectBlocked ? errorText(can.rejectBlocked) : undefined;
  const reasonId = `refused-${row.id}`;
  const { user } = useSession();
  // Whoever cannot approve it (they sent it, processed it or paid it out) sees why beside the button.
  const approveReason = can.approve && user ? errorText(approveBlocked(row, user.id) ?? undefined) : undefined;
  const approveReasonId = `approve-reason-${row.id}`;
  const closed = isFinalStatus(row.status);
  // A proof waiting to be checked: uploaded while the payment is still awaited.
  const proofToCheck = row.has_proof && row.payment_status === 'awaiting';
  return (
    <li data-testid="request-row" data-id={row.id}>
      <Card className="flex flex-col gap-3 p-4">
        {/* The same column tracks on every row, so the queue reads as a table; nothing is cut, long text wraps. */}
        <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.25fr)_minmax(0,0.9fr)_minmax(0,0.8fr)]">
          <div className="min-w-0">
            <p className="font-semibold break-words text-slate-900">{requesterName(row.requester)}</p>
            <p className="text-xs text-muted-foreground"><span className="font-medium text-slate-700">{row.reference}</span></p>
            <p className="text-xs text-muted-foreground"><time dateTime={row.created_at}>{formatDateTime(row.created_at, lng)}</time></p>
          </div>
          <div className="min-w-0 text-sm">
            <p className="break-words">{directionLabel(t, row.direction)}</p>
            <p className="break-words text-muted-foreground">{String(row.destination_details.recipient_name ?? row.destination_details.account_holder ?? t('details.unknownRecipient'))}</p>
          </div>
          <div className="flex flex-wrap content-start items-center gap-x-2 gap-y-1">
            <span className="font-semibold tabular-nums">{amountText(row.amount, row.currency, lng)}</span>
            <StatusBadge status={row.status}>{t(`status.${row.status}`, { ns: 'common' })}</StatusBadge>
            <WorkBadges row={row} />
            {proofToCheck ? (
              <Badge variant="blue" className="gap-1" data-testid="proof-arrived"><FileCheck2 aria-hidden className="size-3.5" />{t('requests.proofArrived')}</Badge>
            ) : null}
            {row.sender_replied ? (
              <Badge variant="blue" className="gap-1" data-testid="sender-replied"><MessageSquareReply aria-hidden className="size-3.5" />{t('requests.senderReplied')}</Badge>
            ) : null}
          </div>
          {/* The money: payment in (flagged when the amount differs) and payout out. */}
          <dl className="flex flex-col gap-1 text-xs" aria-label={t('requests.moneyOf', { reference: row.reference })}>
            <div className="flex flex-wrap items-center gap-1"><dt className="text-muted-foreground">{t('requests.payment')}</dt><dd><PaymentBadge transfer={row} /></dd></div>
            <div className="flex flex-wrap items-center gap-1"><dt className="text-muted-foreground">{t('requests.payout')}</dt><dd><PayoutBadge transfer={row} /></dd></div>
          </dl>
        </div>
        <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3" role="group" aria-label={t('requests.actionsFor', { reference: row.reference })}>
          {/* A closed transfer changes status no more: no greyed buttons, the reason instead. An open one
              shows only the moves its status allows; one refused for now is greyed with its reason
              written under the buttons (docs/rules/back-office.md#staff-queue). */}
          {closed ? (
            <p className="mr-auto text-xs text-muted-foreground" data-testid="closed-reason">{t('requests.closedReason', { status: t(`status.${row.status}`, { ns: 'common' }) })}</p>
          ) : (
            <>
              {can.process || processReason ? (
                <Button size="sm" variant="outline" disabled={Boolean(processReason) || action.pendingId === row.id} onClick={() => act('processing')}
                  aria-describedby={processReason ? `${reasonId}-process` : undefined}>
                  {t('actions.process')}
                </Button>
              ) : null}
              {/* Complete needs the payment received and the payout sent: recorded in the details. */}
              {can.complete || completeReason ? (
                <Button size="sm" variant="success" disabled={Boolean(completeReason) || action.pendingId === row.id} onClick={() => act('completed')}
                  aria-describedby={completeReason ? `${reasonId}-complete` : undefined}>
                  {t('actions.complete')}
                </Button>
              ) : null}
              {can.reject || rejectReason ? (
                <Button size="sm" variant="destructive" disabled={Boolean(rejectReason) || action.pendingId === row.id} onClick={() => onReject(row)}
                  aria-describedby={rejectReason ? `${reasonId}-reject` : undefined}>
                  {t('actions.reject')}
                </Button>
              ) : null}
            </>
          )}
          {can.approve ? (
            <Button size="sm" variant="secondary" loading={approve.pendingId === row.id} onClick={() => void approve.run(row.id)}
              disabled={Boolean(approveReason)} aria-describedby={approveReason ? approveReasonId : undefined}>
              {t('actions.approve')}
            </Button>
          ) : null}
          {/* The money step the transfer waits for: its form is in the details dialog. */}
          {moneyStep ? (
            <Button size="sm" variant="secondary" onClick={() => onOpen(row)}>{t(`actions.${moneyStep}`)}</Button>
          ) : null}
          <Button size="sm" variant="ghost" onClick={() => onOpen(row)}>{t('actions.details')}</Button>
          {!closed && processReason ? <p id={`${reasonId}-process`} className="basis-full text-xs text-slate-700" data-testid="process-reason">{processReason}</p> : null}
          {!closed && completeReason ? <p id={`${reasonId}-complete`} className="basis-full text-xs text-slate-700" data-testid="complete-reason">{completeReason}</p> : null}
          {!closed && rejectReason ? <p id={`${reasonId}-reject`} className="basis-full text-xs text-slate-700" data-testid="reject-reason">{rejectReason}</p> : null}
          {approveReason ? <p id={approveReasonId} className="basis-full text-xs text-slate-700" data-testid="approve-reason">{approveReason}</p> : null}
        </div>
      </Card>
    </li>
  );
}
