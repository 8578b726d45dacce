import { useQuery } from '@tanstack/react-query';
import type { FeesResponse, RatesResponse } from '@core/api/pricing';
import type { PublicConfig, PublicConfigResponse } from '@core/api/system';
import { api } from './api';

const queryKeys = {
  fees: ['fees'] as const,
  rates: ['rates'] as const,
  config: ['config'] as const,
};

/**
 * Fee tiers and corridors: the same rows the server charges with
 * (docs/rules/fees-and-rates.md#one-price-everywhere).
 */
export function useFees() {
  return useQuery({
    queryKey: queryKeys.fees,
    queryFn: ({ signal }) => api<FeesResponse>('/api/fees', { signal }),
    staleTime: 60_000,
  });
}

/** Rates refresh every 15 s while the page is open (docs/rules/fees-and-rates.md#rates). */
export function useRates(refetchInterval: number | false = 15_000) {
  return useQuery({
    queryKey: queryKeys.rates,
    queryFn: async ({ signal }) => (await api<RatesResponse>('/api/rates', { signal })).data,
    staleTime: 10_000,
    refetchInterval,
    refetchIntervalInBackground: false,
  });
}

/** GET /api/config: what the server tells every page (support address, switches, limits). */
export async function fetchAppConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return (await api<PublicConfigResponse>('/api/config', { signal })).data;
}

export function useAppConfig() {
  return useQuery({
    queryKey: queryKeys.config,
    queryFn: ({ signal }) => fetchAppConfig(signal),
    staleTime: Infinity,
    gcTime: Infinity,
  });
}
