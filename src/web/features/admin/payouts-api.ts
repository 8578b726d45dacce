// Payouts through an operator as staff follow them (docs/rules/payout-rails.md#needs-attention):
// a transfer's attempts and name checks, the payouts that need a person, and staff's decisions.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NameHoldJson, PayoutExceptionJson } from '@core/api/payout-exceptions';
import type { PayoutAttemptJson } from '@core/api/rails';
import { api } from '@web/lib/api';
import { adminKeys } from './admin-api';

export type PayoutAttempt = PayoutAttemptJson;
export type NameHold = NameHoldJson;
export type PayoutException = PayoutExceptionJson;

/** The list refreshes this often: an unknown attempt reaches staff by itself. */
const EXCEPTIONS_REFRESH_MS = 30_000;

const payoutKeys = {
  exceptions: [...adminKeys.all, 'payout-exceptions'] as const,
  attempts: (id: string) => [...adminKeys.all, 'payouts', id] as const,
  holds: (id: string) => [...adminKeys.all, 'name-holds', id] as const,
};

export function usePayoutExceptions() {
  return useQuery({
    queryKey: payoutKeys.exceptions,
    queryFn: async ({ signal }) => (await api<{ data: PayoutException[] }>('/api/payout-exceptions', { signal })).data,
    refetchInterval: EXCEPTIONS_REFRESH_MS,
  });
}

export function usePayoutAttempts(transferId: string) {
  return useQuery({
    queryKey: payoutKeys.attempts(transferId),
    queryFn: async ({ signal }) => (await api<{ data: PayoutAttempt[] }>(`/api/transfer-requests/${transferId}/payouts`, { signal })).data,
  });
}

export function useNameHolds(transferId: string) {
  return useQuery({
    queryKey: payoutKeys.holds(transferId),
    queryFn: async ({ signal }) => (await api<{ data: NameHold[] }>(`/api/transfer-requests/${transferId}/payouts/name-holds`, { signal })).data,
  });
}

/** A staff decision on a payout: each posts to its own endpoint; the answer or the refusal reloads the back office. */
export type PayoutDecision =
  | { kind: 'pay_anyway'; holdId: string; reason: string }
  | { kind: 'confirm'; holdId: string }
  | { kind: 'ask_sender'; holdId: string }
  | { kind: 'retry' | 'by_hand' | 'enquire' | 'confirm_pay_again' | 'ask_sender_after_return'; transferId: string }
  | { kind: 'pay_again'; transferId: string; how: 'retried' | 'by_hand'; reason: string };

function decisionCall(d: PayoutDecision): [string, object] {
  switch (d.kind) {
    case 'pay_anyway': return [`/api/payout-name-holds/${d.holdId}/pay-anyway`, { reason: d.reason }];
    case 'confirm': return [`/api/payout-name-holds/${d.holdId}/pay-anyway/confirm`, {}];
    case 'ask_sender': return [`/api/payout-name-holds/${d.holdId}/ask-sender`, {}];
    case 'retry': return [`/api/transfer-requests/${d.transferId}/payouts/retry`, {}];
    case 'by_hand': return [`/api/transfer-requests/${d.transferId}/payouts/by-hand`, {}];
    case 'enquire': return [`/api/transfer-requests/${d.transferId}/payouts/enquire`, {}];
    case 'pay_again': return [`/api/transfer-requests/${d.transferId}/payouts/pay-again`, { how: d.how, reason: d.reason }];
    case 'confirm_pay_again': return [`/api/transfer-requests/${d.transferId}/payouts/pay-again/confirm`, {}];
    case 'ask_sender_after_return': return [`/api/transfer-requests/${d.transferId}/payouts/ask-sender`, {}];
  }
}

export function usePayoutDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (d: PayoutDecision) => {
      const [url, body] = decisionCall(d);
      return api<{ data: unknown }>(url, { method: 'POST', body });
    },
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
