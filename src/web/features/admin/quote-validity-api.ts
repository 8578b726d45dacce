import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QuoteValidityInput } from '@core/schemas';
import { api } from '@web/lib/api';

// How long each corridor's quotes hold (docs/rules/fees-and-rates.md#a-quote-is-a-promise), as the admin reads and sets it.

export interface CorridorValidity { direction: QuoteValidityInput['direction']; minutes: number }

const VALIDITY_KEY = ['admin', 'quote-validity'] as const;

export function useQuoteValidity() {
  return useQuery({
    queryKey: VALIDITY_KEY,
    queryFn: async ({ signal }) => (await api<{ data: CorridorValidity[] }>('/api/quotes/validity', { signal })).data,
  });
}

/** PUT /api/quotes/validity: audited by the server; the corridor's next quote holds that long. */
export function useSetQuoteValidity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuoteValidityInput) => api<{ data: CorridorValidity[] }>('/api/quotes/validity', { method: 'PUT', body }),
    onSettled: () => Promise.all([client.invalidateQueries({ queryKey: VALIDITY_KEY }), client.invalidateQueries({ queryKey: ['admin', 'audit'] })]),
  });
}
