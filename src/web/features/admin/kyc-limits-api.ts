import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KycLimits, KycLimitsUpdate } from '@core/api/kyc';
import { api } from '@web/lib/api';

// The limits of each identity level (docs/rules/know-your-sender.md#limits), as the admin reads and sets them.

const LIMITS_KEY = ['admin', 'kyc-limits'] as const;

export function useKycLimits() {
  return useQuery({
    queryKey: LIMITS_KEY,
    queryFn: async ({ signal }) => (await api<{ data: KycLimits[] }>('/api/kyc/limits', { signal })).data,
  });
}

export function useSetKycLimits() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ level, body }: { level: number; body: KycLimitsUpdate }) =>
      api<{ data: KycLimits }>(`/api/kyc/limits/${level}`, { method: 'PUT', body }),
    onSettled: () => client.invalidateQueries({ queryKey: LIMITS_KEY }),
  });
}
