import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListImportJob, ListsOverview } from '@core/api/screening';
import type { Rescreen, ScreeningAlert } from '@core/api/screening-alerts';
import type { CloseOutInput, CloseOutJson } from '@core/api/transfers';
import { api } from '@web/lib/api';

// Screening as the Compliance tab reads and acts on it (docs/rules/screening.md#holds-and-alerts):
// the sanctions lists and their imports, the re-screening's progress, the alerts and their decisions,
// and a transfer closed out after a confirmed match.

const keys = { lists: ['admin', 'screening', 'lists'] as const, rescreen: ['admin', 'screening', 'rescreen'] as const, alerts: (s: string) => ['admin', 'screening', 'alerts', s] as const };

export function useScreeningLists() {
  return useQuery({ queryKey: keys.lists, queryFn: async ({ signal }) => (await api<{ data: ListsOverview }>('/api/screening/lists', { signal })).data });
}

/** The re-screening after a new list version, followed every 2 s until it is finished. */
export function useRescreen() {
  return useQuery({
    queryKey: keys.rescreen, queryFn: async ({ signal }) => (await api<{ data: Rescreen | null }>('/api/screening/rescreen', { signal })).data,
    refetchInterval: (q) => (q.state.data && !q.state.data.finished_at ? 2_000 : false),
  });
}

/**
 * A list's files uploaded: the import is a job of the server's, followed until it is done or
 * failed; the lists and the re-screening are read again then.
 */
export function useListImport() {
  const client = useQueryClient();
  const upload = useMutation({
    mutationFn: async ({ source, files }: { source: string; files: File[] }) => {
      const body = new FormData();
      body.append('source', source);
      for (const f of files) body.append('files', f, f.name);
      return (await api<{ data: ListImportJob }>('/api/screening/lists', { method: 'POST', body })).data;
    },
  });
  const importId = upload.data?.id;
  const job = useQuery({
    queryKey: ['admin', 'screening', 'import', importId],
    enabled: !!importId,
    queryFn: async ({ signal }) => (await api<{ data: ListImportJob }>(`/api/screening/lists/imports/${importId}`, { signal })).data,
    refetchInterval: (q) => (q.state.data?.state === 'done' || q.state.data?.state === 'failed' ? false : 1_000),
  });
  const state = job.data ?? upload.data;
  const finished = state?.state === 'done' || state?.state === 'failed';
  useEffect(() => {
    if (!finished) return;
    void client.invalidateQueries({ queryKey: keys.lists });
    void client.invalidateQueries({ queryKey: keys.rescreen });
  }, [finished, client]);
  return { upload, state, finished };
}

export function useAlertDecision(alertId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { decision: 'false_positive' | 'confirmed'; note: string }) =>
      api<{ data: ScreeningAlert }>(`/api/screening/alerts/${alertId}/decision`, { method: 'POST', body }),
    // A decision releases holds: the queue's transfers change too.
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export function useScreeningAlerts(status: string) {
  return useQuery({
    queryKey: keys.alerts(status),
    queryFn: async ({ signal }) => (await api<{ data: ScreeningAlert[] }>(`/api/screening/alerts${status ? `?status=${status}` : ''}`, { signal })).data,
  });
}

/**
 * Closing out a transfer after a confirmed match (docs/rules/screening.md#closing-out-a-confirmed-match):
 * one staff member proposes it with a reason, another confirms; the queue and the dialog are read again.
 */
export function useCloseOut(transferId: string) {
  const client = useQueryClient();
  const settled = () => client.invalidateQueries({ queryKey: ['admin'] });
  const propose = useMutation({
    mutationFn: (body: CloseOutInput) => api<{ data: CloseOutJson }>(`/api/transfer-requests/${transferId}/close-out`, { method: 'POST', body }),
    onSettled: settled,
  });
  const confirm = useMutation({
    mutationFn: () => api<{ data: CloseOutJson }>(`/api/transfer-requests/${transferId}/close-out/confirm`, { method: 'POST', body: {} }),
    onSettled: settled,
  });
  return { propose, confirm };
}
