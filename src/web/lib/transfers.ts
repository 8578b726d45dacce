// The sending-money API as the transfer, payment, dashboard and history screens use it.
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CheckoutResponse, InitiatedResponse } from '@core/api/payments';
import type { RecipientListResponse } from '@core/api/recipients';
import type { TrackingLinkResponse } from '@core/api/tracking';
import type {
  DestinationDetails, TransactionJson, TransactionPage, TransferDetail, TransferDetailResponse, TransferSummaryResponse,
} from '@core/api/transfers';
import type { PaymentInitiateSchema } from '@core/schemas';
import { api, queryString } from './api';

export type { DestinationDetails, TransferDetail };
/** GET /api/transactions rows: the transaction plus its request's price and references. */
export type TransactionItem = TransactionJson;

export const transferKeys = {
  all: ['transfers'] as const,
  transactions: (filters: Record<string, string>) => ['transfers', 'transactions', filters] as const,
  summary: ['transfers', 'summary'] as const,
  detail: (id: string) => ['transfers', 'detail', id] as const,
  recipients: ['recipients'] as const,
};

/** The sender's transactions, newest first, a page at a time (cursor). */
export function useTransactions(filters: Record<string, string>) {
  return useInfiniteQuery({
    queryKey: transferKeys.transactions(filters),
    queryFn: ({ pageParam, signal }) => api<TransactionPage>(`/api/transactions${queryString({ ...filters, cursor: pageParam })}`, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    placeholderData: keepPreviousData,
  });
}

export function useTransactionList(filters: Record<string, string>) {
  return useQuery({
    queryKey: transferKeys.transactions(filters),
    queryFn: async ({ signal }) => (await api<TransactionPage>(`/api/transactions${queryString(filters)}`, { signal })).data,
  });
}

export function useSummary() {
  return useQuery({
    queryKey: transferKeys.summary,
    queryFn: async ({ signal }) => (await api<TransferSummaryResponse>('/api/transactions/summary', { signal })).data,
  });
}

export function useTransfer(id: string | undefined, refetchInterval: number | false = false) {
  return useQuery({
    queryKey: transferKeys.detail(id ?? ''),
    queryFn: async ({ signal }) => (await api<TransferDetailResponse>(`/api/transfer-requests/${id}`, { signal })).data,
    enabled: Boolean(id),
    refetchInterval,
  });
}

export function useSavedRecipients() {
  return useQuery({
    queryKey: transferKeys.recipients,
    queryFn: async ({ signal }) => (await api<RecipientListResponse>('/api/recipients', { signal })).data,
    staleTime: 30_000,
  });
}

/**
 * POST /api/payments/initiate: the transfer at a held quote's price. The same `idempotencyKey`
 * sent again answers the same transfer, never a second one.
 */
export function initiateTransfer(body: z.input<typeof PaymentInitiateSchema>, idempotencyKey: string, onResponse?: (res: Response) => void) {
  return api<InitiatedResponse>('/api/payments/initiate', { method: 'POST', body, headers: { 'Idempotency-Key': idempotencyKey }, onResponse });
}

/** POST …/cancel: the sender cancels a transfer not yet paid out. */
export const cancelTransfer = (requestId: string) => api(`/api/transfer-requests/${requestId}/cancel`, { method: 'POST' });

/** POST …/messages: the sender's reply in the transfer's conversation with the staff. */
export const sendTransferMessage = (requestId: string, body: { body: string }) =>
  api(`/api/transfer-requests/${requestId}/messages`, { method: 'POST', body });

/** The transfer's public tracking link: POST renews it, DELETE revokes it. */
export const changeTrackingLink = (requestId: string, method: 'DELETE' | 'POST') =>
  api<TrackingLinkResponse | undefined>(`/api/transfer-requests/${requestId}/tracking`, { method });

/** POST /api/payments/:id/paypal: the PayPal checkout the sender is sent to, to pay. */
export const startPaypalCheckout = (requestId: string) => api<CheckoutResponse>(`/api/payments/${requestId}/paypal`, { method: 'POST' });

/** The name a row shows for its recipient, or null when none is known ("unknown recipient"). */
export function recipientName(item: { destination_details?: DestinationDetails; metadata?: Record<string, unknown> }): string | null {
  const d = item.destination_details ?? {};
  const m = item.metadata ?? {};
  const pick = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  return pick(d.recipient_name) ?? pick(d.account_holder) ?? pick(m.recipient_name) ?? null;
}
