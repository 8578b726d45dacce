// Staff's decisions on a sender's collection that needs a person
// (docs/rules/payout-rails.md#collections-that-need-a-person): ask the operator again, or record
// the refund of money received twice. Either reloads the back office.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CollectionAttemptStaffJson } from '@core/api/collections';
import { api } from '@web/lib/api';
import { adminKeys } from './admin-api';

export type CollectionAttemptStaff = CollectionAttemptStaffJson;

export type CollectionDecision = { kind: 'enquire'; id: string } | { kind: 'refund'; id: string; reference: string };

export function useCollectionDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (d: CollectionDecision) => d.kind === 'enquire'
      ? api<{ data: CollectionAttemptStaff }>(`/api/collection-attempts/${d.id}/enquire`, { method: 'POST', body: {} })
      : api<{ data: CollectionAttemptStaff }>(`/api/collection-attempts/${d.id}/refund`, { method: 'POST', body: { reference: d.reference } }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
