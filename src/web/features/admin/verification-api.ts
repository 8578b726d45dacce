import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { KycReviewDecision, KycReviewDetail, KycReviewSummary } from '@core/api/kyc-reviews';
import type { ReviewStatus } from '@core/kyc-reviews';
import type { MrzResult } from '@core/mrz';
import { api, apiData } from '@web/lib/api';

// Identity reviews for staff (docs/rules/know-your-sender.md#reviews): the queue, one review, a decision.

const keys = {
  all: ['kyc-reviews'] as const,
  list: (status: ReviewStatus) => ['kyc-reviews', 'list', status] as const,
  one: (id: string) => ['kyc-reviews', 'one', id] as const,
};

/** POST /api/kyc/documents/:id/mrz: a document's machine-readable zone as staff typed it, read and checked. */
export const readTypedMrz = (documentId: string, lines: string[]) =>
  apiData<MrzResult>(`/api/kyc/documents/${documentId}/mrz`, { method: 'POST', body: { lines } });

export function useReviewQueue(status: ReviewStatus) {
  return useQuery({
    queryKey: keys.list(status),
    queryFn: async ({ signal }) => (await api<{ data: KycReviewSummary[] }>(`/api/kyc/reviews?status=${status}`, { signal })).data,
  });
}

export function useReview(id: string | null) {
  return useQuery({
    queryKey: keys.one(id ?? ''),
    queryFn: async ({ signal }) => (await api<{ data: KycReviewDetail }>(`/api/kyc/reviews/${id}`, { signal })).data,
    enabled: id !== null,
  });
}

export function useDecideReview(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: KycReviewDecision) => (await api<{ data: KycReviewDetail }>(`/api/kyc/reviews/${id}/decision`, { method: 'POST', body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
