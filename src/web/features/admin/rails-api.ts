// The payout rails as the admin runs them (docs/rules/payout-rails.md): each rail's state, its
// switch and balance warning, and the operators' statements on the reconciliation board.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OperatorStatementJson, OperatorStatementResult } from '@core/api/operator-statements';
import type { RailJson } from '@core/api/rails';
import { isMobileRail, type MobileRailId, type RailId } from '@core/rails';
import { api } from '@web/lib/api';
import { adminKeys } from './admin-api';

export type Rail = RailJson;
export type OperatorStatement = OperatorStatementJson;
export type StatementResult = OperatorStatementResult;

/** The rails refresh this often: a balance is read every 5 minutes and after each payout. */
const RAILS_REFRESH_MS = 30_000;
/** A rail just switched on has its first balance read within seconds: asked for this often until then. */
const FIRST_READING_REFRESH_MS = 2_000;
const awaitsFirstReading = (rails: Rail[] | undefined) => !!rails?.some((r) => r.enabled && isMobileRail(r.id) && r.balance === null);

const railKeys = {
  all: [...adminKeys.all, 'rails'] as const,
  statements: (rail: MobileRailId) => [...adminKeys.all, 'rails', rail, 'statements'] as const,
  statement: (id: string) => [...adminKeys.all, 'operator-statements', id] as const,
};

export function useRails() {
  return useQuery({
    queryKey: railKeys.all,
    queryFn: async ({ signal }) => (await api<{ data: Rail[] }>('/api/rails', { signal })).data,
    refetchInterval: (query) => (awaitsFirstReading(query.state.data) ? FIRST_READING_REFRESH_MS : RAILS_REFRESH_MS),
  });
}

/** After a change: the rails and the audit rows that record it. */
function useRailMutation<T>(call: (value: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }) });
}

export const useSetRailEnabled = (rail: RailId) =>
  useRailMutation((enabled: boolean) => api(`/api/rails/${rail}`, { method: 'PUT', body: { enabled } }));

export const useSetBalanceWarning = (rail: MobileRailId) =>
  useRailMutation((amount: string | null) => api(`/api/rails/${rail}/balance-warning`, { method: 'PUT', body: { amount } }));

export function useOperatorStatements(rail: MobileRailId) {
  return useQuery({
    queryKey: railKeys.statements(rail),
    queryFn: async ({ signal }) => (await api<{ data: OperatorStatement[] }>(`/api/rails/${rail}/statements`, { signal })).data,
  });
}

export function useOperatorStatement(id: string | null) {
  return useQuery({
    queryKey: railKeys.statement(id ?? ''),
    queryFn: async ({ signal }) => (await api<{ data: StatementResult }>(`/api/operator-statements/${id}`, { signal })).data,
    enabled: id !== null,
  });
}

export function useImportOperatorStatement(rail: MobileRailId) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return (await api<{ data: StatementResult }>(`/api/rails/${rail}/statements`, { method: 'POST', body })).data;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: railKeys.statements(rail) }),
  });
}
