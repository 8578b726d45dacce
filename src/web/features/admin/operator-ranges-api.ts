import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminOperatorPrefix, OperatorPrefixInput } from '@core/api/operators';
import { api } from '@web/lib/api';
import { operatorsKey } from '@web/lib/operators';
import { adminKeys } from './admin-api';

// The operators' number ranges as the admin reads and edits them (docs/rules/corridors.md#phone-country-rules).

const URL = '/api/admin/operator-prefixes';
const rangesKey = ['admin', 'operator-prefixes'] as const;

export function useRanges() {
  return useQuery({
    queryKey: rangesKey,
    queryFn: async ({ signal }) => (await api<{ data: AdminOperatorPrefix[] }>(URL, { signal })).data,
  });
}

export const operatorRangesApi = {
  create: (range: OperatorPrefixInput) => api(URL, { method: 'POST', body: range }),
  /** A range keeps its destination: only its operator and prefix change. */
  update: (id: string, body: Pick<OperatorPrefixInput, 'operator' | 'prefix'>) => api(`${URL}/${id}`, { method: 'PUT', body }),
  remove: (id: string) => api(`${URL}/${id}`, { method: 'DELETE' }),
};

/** After an edit: the admin's list and audit rows, and the table the transfer form checks with. */
export function useRangeMutation<T>(call: (value: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => Promise.all([
      client.invalidateQueries({ queryKey: adminKeys.all }),
      client.invalidateQueries({ queryKey: operatorsKey }),
    ]),
  });
}
