import { useQuery } from '@tanstack/react-query';
import type { OperatorsResponse } from '@core/api/operators';
import { api } from './api';

// Kept off the home page's bundle: only the transfer form and the back office read the ranges.

export const operatorsKey = ['operators'] as const;

/**
 * The operators' number ranges a payout number is checked against, as the server checks it
 * (docs/rules/corridors.md#phone-country-rules).
 */
export function useOperators() {
  return useQuery({
    queryKey: operatorsKey,
    queryFn: async ({ signal }) => (await api<OperatorsResponse>('/api/operators', { signal })).data,
    staleTime: 60_000,
  });
}
