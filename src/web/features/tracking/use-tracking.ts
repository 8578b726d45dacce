import { useQuery } from '@tanstack/react-query';
import type { TrackingResponse } from '@core/api/tracking';
import { api, isApiError } from '@web/lib/api';

/** GET /api/track/{token}, without a session: what the recipient's link shows, in `language`. */
export function useTracking(token: string, language: string | undefined) {
  return useQuery({
    queryKey: ['track', token, language],
    queryFn: async ({ signal }) => (await api<TrackingResponse>(`/api/track/${encodeURIComponent(token)}`, { signal, token: null })).data,
    // A 404 is an answer, not a hiccup: no retries for it.
    retry: (count, err) => !(isApiError(err) && err.status === 404) && count < 2,
  });
}
