import { startTransition, useOptimistic, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Search } from 'lucide-react';
import { DIRECTIONS } from '@core/channels';
import { PAYMENT_STATUSES, PAYOUT_STATUSES, TRANSFER_STATUSES } from '@core/status';
import { Button } from '@web/components/ui/button';
import { FormField } from '@web/components/ui/form-field';
import { Input } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { directionLabel } from '@web/lib/format';
import { EMPTY_FILTERS, type StaffFilters } from './admin-api';

/** The queue's switches for work waiting on staff (docs/rules/back-office.md#staff-queue), in the order shown. */
const WAITING = [
  ['needs_approval', 'requests.onlyNeedsApproval'], ['action_needed', 'requests.onlyActionNeeded'], ['late', 'requests.onlyLate'],
  ['held', 'requests.onlyHeld'],
] as const;

/** Filters live in the address, so a reload or a shared link keeps them. */
export function useFilters(): [StaffFilters, (f: StaffFilters) => void] {
  const [params, setParams] = useSearchParams();
  const flag = (key: string) => (params.get(key) === 'true' ? 'true' : '');
  const filters: StaffFilters = {
    status: params.get('status') ?? '', payment: params.get('payment') ?? '', payout: params.get('payout') ?? '',
    direction: params.get('direction') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '', q: params.get('q') ?? '',
    sort: params.get('sort') === 'oldest' ? 'oldest' : 'newest',
    needs_approval: flag('needs_approval'), action_needed: flag('action_needed'), late: flag('late'), held: flag('held'),
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

/** The queue's filters: search, states, corridor, days, order and the work waiting on staff. */
export function RequestFilters({ filters, setFilters, search, setSearch }: {
  filters: StaffFilters; setFilters: (f: StaffFilters) => void; search: string; setSearch: (q: string) => void;
}) {
  const { t } = useTranslation(['admin', 'common', 'transfer']);
  const update = (patch: Partial<StaffFilters>) => setFilters({ ...filters, ...patch });
  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    update({ q: search.trim() });
  };
  const choice = (key: 'status' | 'payment' | 'payout', label: string, all: string, values: readonly string[], text: (v: string) => string) => (
    <FormField label={t(label)}>
      <Select value={filters[key]} onChange={(e) => update({ [key]: e.target.value })}>
        <option value="">{t(all)}</option>
        {values.map((v) => <option key={v} value={v}>{text(v)}</option>)}
      </Select>
    </FormField>
  );
  return (
    <form onSubmit={submitSearch} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6" role="search" aria-label={t('requests.filters')}>
      {/* The label names the input itself; the search button sits beside the field. */}
      <div className="flex items-end gap-2 sm:col-span-2">
        <FormField label={t('requests.search')} className="flex-1">
          <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('requests.searchHint')} maxLength={100} />
        </FormField>
        <Button type="submit" variant="secondary" aria-label={t('actions.search', { ns: 'common' })}><Search aria-hidden /></Button>
      </div>
      {choice('status', 'requests.status', 'requests.allStatuses', TRANSFER_STATUSES, (s) => t(`status.${s}`, { ns: 'common' }))}
      {choice('payment', 'requests.payment', 'requests.allPayments', PAYMENT_STATUSES, (s) => t(`payment.${s}`))}
      {choice('payout', 'requests.payout', 'requests.allPayouts', PAYOUT_STATUSES, (s) => t(`payout.${s}`))}
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
      {/* Work waiting on staff: a second approval (docs/rules/back-office.md#four-eyes), the sender's answer, late, held for compliance. */}
      <fieldset className="flex flex-col justify-end gap-2 text-sm sm:col-span-2">
        <legend className="sr-only">{t('requests.waiting')}</legend>
        {WAITING.map(([key, label]) => (
          <label key={key} className="flex items-center gap-2">
            <input type="checkbox" className="size-4 accent-brand-700" checked={filters[key] === 'true'}
              onChange={(e) => update({ [key]: e.target.checked ? 'true' : '' })} />
            {t(label)}
          </label>
        ))}
      </fieldset>
      <div className="flex items-end">
        <Button variant="ghost" onClick={() => { setSearch(''); setFilters(EMPTY_FILTERS); }}>{t('requests.clear')}</Button>
      </div>
    </form>
  );
}
