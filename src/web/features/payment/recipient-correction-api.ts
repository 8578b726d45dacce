// The sender's corrected recipient when staff asked for it (docs/rules/payout-rails.md#name-check).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RecipientCorrectionState } from '@core/api/payout-exceptions';
import type { BankAccountCorrection, RecipientCorrection } from '@core/schemas';
import { api } from '@web/lib/api';
import { transferKeys } from '@web/lib/transfers';

const correctionKey = (id: string) => ['transfers', 'recipient-correction', id] as const;

/** What staff asked the sender to correct of this transfer's recipient, or null. */
export function useRecipientCorrection(transferId: string) {
  return useQuery({
    queryKey: correctionKey(transferId),
    queryFn: async ({ signal }) =>
      (await api<{ data: RecipientCorrectionState | null }>(`/api/transfer-requests/${transferId}/recipient-correction`, { signal })).data,
  });
}

/** PUT …/recipient: the corrected name and number; the transfer and the request reload. */
export function useCorrectRecipient(transferId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: RecipientCorrection) =>
      api<{ data: RecipientCorrectionState | null }>(`/api/transfer-requests/${transferId}/recipient`, { method: 'PUT', body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: correctionKey(transferId) });
      await client.invalidateQueries({ queryKey: transferKeys.detail(transferId) });
    },
  });
}

/** PUT …/recipient-account: the corrected account holder and IBAN of a bank payout sent back; the transfer and the request reload. */
export function useCorrectAccount(transferId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BankAccountCorrection) =>
      api<{ data: RecipientCorrectionState | null }>(`/api/transfer-requests/${transferId}/recipient-account`, { method: 'PUT', body }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: correctionKey(transferId) });
      await client.invalidateQueries({ queryKey: transferKeys.detail(transferId) });
    },
  });
}
