import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RateSources } from '@core/api/rates';
import { api } from '@web/lib/api';

// The admin's rates (docs/rules/fees-and-rates.md#rate-sources): their sources, the rates and
// references staff set, the maximum age, and the ECB's reference file.

const SOURCES_KEY = ['admin', 'rate-sources'] as const;

export function useRateSources() {
  return useQuery({
    queryKey: SOURCES_KEY,
    queryFn: async ({ signal }) => (await api<{ data: RateSources }>('/api/rates/sources', { signal })).data,
  });
}

export function useSaveRates() {
  const client = useQueryClient();
  const settled = () => Promise.all([
    client.invalidateQueries({ queryKey: SOURCES_KEY }), client.invalidateQueries({ queryKey: ['rates'] }),
    client.invalidateQueries({ queryKey: ['admin'] }),
  ]);
  return {
    rate: useMutation({
      mutationFn: ({ key, value, reference }: { key: string; value: string; reference?: string | null }) =>
        api(`/api/rates/${key}`, { method: 'PATCH', body: reference === undefined ? { value } : { value, reference } }),
      onSettled: settled,
    }),
    maxAge: useMutation({
      mutationFn: (hours: number) => api('/api/rates/max-age', { method: 'PUT', body: { hours } }),
      onSettled: settled,
    }),
  };
}

/** POST /api/rates/ecb: the ECB's reference rates file, uploaded by hand. */
export function useEcbUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return api('/api/rates/ecb', { method: 'POST', body });
    },
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: SOURCES_KEY }), client.invalidateQueries({ queryKey: ['rates'] })]),
  });
}
