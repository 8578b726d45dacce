// "Approve on my phone" as the payment page uses it (docs/rules/payout-rails.md#collections).
import { useQuery } from '@tanstack/react-query';
import type { CollectRequest, CollectionResponseSchema, CollectionStatusSchema } from '@core/api/collections';
import type { z } from 'zod';
import { api } from '@web/lib/api';

export type CollectionStatus = z.infer<typeof CollectionStatusSchema>['data'];

/** While the sender approves on their phone, the page asks this often where it stands. */
const POLL_MS = 3_000;

export const collectionKey = (id: string) => ['transfers', 'collection', id] as const;

/** Whether the sender may approve on their phone, and their latest request; polled while it waits for them. */
export function useCollection(id: string, enabled: boolean) {
  return useQuery({
    queryKey: collectionKey(id),
    queryFn: async ({ signal }) => (await api<z.infer<typeof CollectionStatusSchema>>(`/api/transfer-requests/${id}/collection`, { signal })).data,
    enabled,
    refetchInterval: (query) => (query.state.data?.collection?.state === 'approve_on_phone' || query.state.error ? POLL_MS : false),
  });
}

/** POST …/collect: the operator asks the sender's phone to approve the payment. */
export const startCollection = (id: string, body: CollectRequest) =>
  api<z.infer<typeof CollectionResponseSchema>>(`/api/transfer-requests/${id}/collect`, { method: 'POST', body });
