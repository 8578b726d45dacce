// The back office's calls and their TanStack Query hooks; the answers' types come from the API's schemas.
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StatsResponse, VolumePoint, VolumeResponse } from '@core/api/admin';
import type { AuditEntry, AuditFilter, AuditPage } from '@core/api/audit';
import type { ApprovalThreshold, ApprovalThresholdList } from '@core/api/approvals';
import type { JobResponse, JobsResponse } from '@core/api/jobs';
import type { FeeTierJson } from '@core/api/pricing';
import type { ProfilePageResponse } from '@core/api/profiles';
import type {
  NoteInput, ProofJson, StaffNoteJson, StaffRequestJson, StaffRequestPage, StaffRequestResponse, StaffTransferDetail,
  StaffTransferDetailResponse, TransferRequestResponse,
} from '@core/api/transfers';
import type { FeeTierInput, PaymentRecord, PayoutRecord, RefundRecord, StatusUpdate } from '@core/schemas';
import type { TransferStatus } from '@core/status';
import type { Role } from '@web/lib/session';
import { api, fetchBlob, queryString } from '@web/lib/api';

export type { AuditEntry, VolumePoint };
export type StaffRequest = StaffRequestJson;
export type StaffDetail = StaffTransferDetail;
export type StaffNote = StaffNoteJson;
/** A proof of payment the sender uploaded; every one is kept, with its time. */
export type ProofFile = ProofJson;
export type StoredTier = FeeTierJson;

export type StaffFilters = {
  status: string; payment: string; payout: string; direction: string; from: string; to: string; q: string; sort: 'newest' | 'oldest';
  /** 'true' for only the transfers waiting for a second staff member's approval, or the sender's answer, late, or held. */
  needs_approval: '' | 'true'; action_needed: '' | 'true'; late: '' | 'true'; held: '' | 'true';
};
export const EMPTY_FILTERS: StaffFilters = {
  status: '', payment: '', payout: '', direction: '', from: '', to: '', q: '', sort: 'newest', needs_approval: '', action_needed: '', late: '', held: '',
};

/** Refresh period of the queue (the list and the stats). */
const QUEUE_REFRESH_MS = 30_000;

export const adminKeys = {
  all: ['admin'] as const,
  stats: ['admin', 'stats'] as const,
  requests: (f: StaffFilters) => ['admin', 'requests', f] as const,
  request: (id: string) => ['admin', 'request', id] as const,
  profiles: (q: string) => ['admin', 'profiles', q] as const,
  volume: (days: number) => ['admin', 'volume', days] as const,
  audit: (type: string) => ['admin', 'audit', type] as const,
  auditLog: (f: AuditFilter) => ['admin', 'audit-log', f] as const,
  jobs: ['admin', 'jobs'] as const,
  thresholds: ['admin', 'approval-thresholds'] as const,
};

export function useStats() {
  return useQuery({
    queryKey: adminKeys.stats,
    queryFn: async ({ signal }) => (await api<StatsResponse>('/api/admin/stats', { signal })).data,
    refetchInterval: QUEUE_REFRESH_MS,
  });
}

/** The staff list, page after page; every loaded page refreshes in place, so filters and scroll stay. */
export function useStaffRequests(filters: StaffFilters, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: adminKeys.requests(filters),
    queryFn: ({ pageParam, signal }) =>
      api<StaffRequestPage>(
        `/api/transfer-requests${queryString({ ...filters, limit: '25', cursor: pageParam })}`,
        { signal },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: QUEUE_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useRequestDetails(id: string | null) {
  return useQuery({
    queryKey: adminKeys.request(id ?? ''),
    queryFn: async ({ signal }) => (await api<StaffTransferDetailResponse>(`/api/transfer-requests/${id}`, { signal })).data,
    enabled: Boolean(id),
  });
}

/** A status change: the request body, the status the staff member saw included, and the transfer's id. */
export type StatusChangeInput = StatusUpdate & { id: string; expected_status: TransferStatus };

export function useChangeStatus() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: StatusChangeInput) =>
      api<TransferRequestResponse>(`/api/transfer-requests/${id}`, { method: 'PATCH', body }),
    // Success or refusal, the queue is reloaded: a 409 means someone else moved it.
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** What staff record about a transfer's money (docs/rules/money-states.md): each posts to its own endpoint, 409 when the state refuses it. */
export type MoneyRecordInput =
  | { id: string; action: 'payment'; body: PaymentRecord }
  | { id: string; action: 'payout'; body: PayoutRecord }
  | { id: string; action: 'refund'; body: RefundRecord };

export function useRecordMoney() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: MoneyRecordInput) =>
      api<TransferRequestResponse>(`/api/transfer-requests/${id}/${action}`, { method: 'POST', body }),
    // Success or refusal, the queue and the dialog are reloaded: a 409 means the state moved.
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Four-eyes (docs/rules/back-office.md#four-eyes): a second staff member approves a transfer at or above its currency's threshold. */
export function useApprove() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<StaffRequestResponse>(`/api/transfer-requests/${id}/approve`, { method: 'POST', body: {} }),
    // Success or refusal, the queue and the dialog are reloaded: a 409 may mean someone else approved it.
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** A note on the transfer's thread: internal, or to the sender (e-mailed), which may ask them for an action. */
export function useAddNote() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: NoteInput & { id: string }) =>
      api<{ data: StaffNote }>(`/api/transfer-requests/${id}/notes`, { method: 'POST', body }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

/** Hands a fetched file to the browser as a download named `filename`. */
/** GET /api/audit/export.csv: the audit log the filter selects, as CSV. */
export const exportAuditCsv = (filter: AuditFilter) => fetchBlob(`/api/audit/export.csv${queryString(filter)}`);

/** GET /api/transfer-requests/export.csv: the transfers the filters select, as CSV. */
export const exportRequestsCsv = (filters: StaffFilters) => fetchBlob(`/api/transfer-requests/export.csv${queryString(filters)}`);

/** A proof of payment's file, as staff open it. */
export const fetchProof = (requestId: string, proofId: string, signal?: AbortSignal) =>
  fetchBlob(`/api/transfer-requests/${requestId}/proofs/${proofId}`, signal);

/** POST /api/admin/users/:id/mfa/reset: an account's two-step sign-in reset (audited; the account is signed out). */
export const resetAccountTwoStep = (userId: string) => api<{ message: string }>(`/api/admin/users/${userId}/mfa/reset`, { method: 'POST' });

export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useProfiles(q: string) {
  return useInfiniteQuery({
    queryKey: adminKeys.profiles(q),
    queryFn: ({ pageParam, signal }) => {
      return api<ProfilePageResponse>(`/api/profiles${queryString({ q, cursor: pageParam })}`, { signal });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export function useSetRole() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) => api(`/api/profiles/${id}`, { method: 'PATCH', body: { role } }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useSaveTier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: FeeTierInput & { id?: string }) =>
      api(id ? `/api/fees/${id}` : '/api/fees', { method: id ? 'PATCH' : 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['fees'] }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useDeleteTier() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(`/api/fees/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['fees'] }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export function useAudit(targetType: string) {
  return useQuery({
    queryKey: adminKeys.audit(targetType),
    queryFn: async ({ signal }) =>
      (await api<AuditPage>(`/api/audit?target_type=${targetType}&limit=20`, { signal })).data,
  });
}

/** The whole audit log (the Audit tab), filtered, a page at a time. */
export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: adminKeys.auditLog(filter),
    queryFn: ({ pageParam, signal }) =>
      api<AuditPage>(`/api/audit${queryString({ ...filter, limit: '50', cursor: pageParam })}`, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
}

export function useVolume(days: number) {
  return useQuery({
    queryKey: adminKeys.volume(days),
    queryFn: async ({ signal }) =>
      (await api<VolumeResponse>(`/api/admin/volume?days=${days}`, { signal })).data,
  });
}

/** Background jobs that failed every attempt (docs/decisions/014-durable-jobs.md). */
export function useParkedJobs() {
  return useQuery({
    queryKey: adminKeys.jobs,
    queryFn: async ({ signal }) => (await api<JobsResponse>('/api/admin/jobs?state=failed', { signal })).data,
  });
}

/** Puts a parked job back in line; the list and the stats' count follow. */
export function useRetryJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<JobResponse>(`/api/admin/jobs/${encodeURIComponent(id)}/retry`, { method: 'POST' }),
    onSettled: () => Promise.all([
      client.invalidateQueries({ queryKey: adminKeys.jobs }),
      client.invalidateQueries({ queryKey: adminKeys.stats }),
    ]),
  });
}

/** Four-eyes thresholds per source currency (docs/rules/back-office.md#four-eyes). */
export function useApprovalThresholds() {
  return useQuery({
    queryKey: adminKeys.thresholds,
    queryFn: async ({ signal }) => (await api<ApprovalThresholdList>('/api/approval-thresholds', { signal })).data,
  });
}

/** The admin sets one currency's threshold; the queue's "needs approval" follows. */
export function useSetApprovalThreshold() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ currency, amount }: { currency: string; amount: string }) =>
      api<{ data: ApprovalThreshold }>(`/api/approval-thresholds/${currency}`, { method: 'PUT', body: { amount } }),
    onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
