// Reconciliation's calls and hooks (docs/rules/money-states.md): the accounts' books against their statements.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FrozenMoney, MatchResultResponse, ReconciliationSummariesResponse, ReconciliationView, ReconciliationViewResponse, StatementResultResponse,
} from '@core/api/reconciliation';
import type { ChannelId } from '@core/channels';
import type { Currency } from '@core/money';
import { parseSignedMinor } from '@core/reconciliation';
import { api, queryString } from '@web/lib/api';
import { money } from '@web/lib/format';
import { adminKeys } from './admin-api';

export type { ReconciliationView };

/** Lines of each list the tab shows. */
const VIEW_LIMIT = 50;

const keys = {
  all: [...adminKeys.all, 'reconciliation'] as const,
  account: (account: ChannelId) => [...adminKeys.all, 'reconciliation', account] as const,
};

/** A signed decimal from the API ("-30500", "104.50") as localized money; the raw text if unreadable. */
export function signedMoney(value: string, currency: Currency, lng: string): string {
  const minor = parseSignedMinor(value, currency);
  return minor === null ? value : money(minor, currency, lng);
}

/** Money compliance close-outs froze, per currency and transfer (GET /api/reconciliation/frozen). */
export function useFrozenMoney() {
  return useQuery({
    queryKey: [...keys.all, 'frozen'] as const,
    queryFn: async ({ signal }) => (await api<{ data: FrozenMoney }>('/api/reconciliation/frozen', { signal })).data,
  });
}

export function useReconciliation() {
  return useQuery({
    queryKey: keys.all,
    queryFn: async ({ signal }) => (await api<ReconciliationSummariesResponse>('/api/reconciliation', { signal })).data,
  });
}

export function useReconciliationView(account: ChannelId) {
  return useQuery({
    queryKey: keys.account(account),
    queryFn: async ({ signal }) => (await api<ReconciliationViewResponse>(`/api/reconciliation/${account}?limit=${VIEW_LIMIT}`, { signal })).data,
  });
}

/** After any statement or match: the accounts, the view and the stats. */
function useRefresh() {
  const client = useQueryClient();
  return () => Promise.all([
    client.invalidateQueries({ queryKey: keys.all }),
    client.invalidateQueries({ queryKey: adminKeys.stats }),
  ]);
}

export function useRecordBalance(account: ChannelId) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: { balance: string; as_of?: string }) =>
      api<StatementResultResponse>(`/api/reconciliation/${account}/statements`, { method: 'POST', body }),
    onSuccess: refresh,
  });
}

export function useImportStatement(account: ChannelId) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ file, balance, as_of }: { file: File; balance?: string; as_of?: string }) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return api<StatementResultResponse>(`/api/reconciliation/${account}/imports${queryString({ balance, as_of })}`, { method: 'POST', body });
    },
    onSuccess: refresh,
  });
}

export function useRematch(account: ChannelId) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: () => api<MatchResultResponse>(`/api/reconciliation/${account}/match`, { method: 'POST' }),
    onSuccess: refresh,
  });
}
