// Transaction monitoring's calls (docs/rules/monitoring.md) and their TanStack Query hooks; types from the API's schemas.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CaseTransition, MonitoringCaseDetail, MonitoringCaseSummary, MonitoringRuleState, MonitoringRuleUpdate,
} from '@core/api/monitoring';
import type { CaseStatus } from '@core/monitoring/cases';
import { api, fetchBlob, queryString } from '@web/lib/api';
import { saveFile } from './admin-api';

export type { MonitoringCaseDetail, MonitoringCaseSummary, MonitoringRuleState };

const keys = {
  all: ['admin', 'monitoring'] as const,
  rules: ['admin', 'monitoring', 'rules'] as const,
  cases: (status: string) => ['admin', 'monitoring', 'cases', status] as const,
  case: (id: string) => ['admin', 'monitoring', 'case', id] as const,
};

export function useMonitoringRules() {
  return useQuery({
    queryKey: keys.rules,
    queryFn: async ({ signal }) => (await api<{ data: MonitoringRuleState[] }>('/api/monitoring/rules', { signal })).data,
  });
}

export function useUpdateMonitoringRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ rule, ...body }: MonitoringRuleUpdate & { rule: string }) =>
      api<{ data: MonitoringRuleState }>(`/api/monitoring/rules/${rule}`, { method: 'PUT', body }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.rules }),
  });
}

export function useMonitoringCases(status: CaseStatus | '') {
  return useQuery({
    queryKey: keys.cases(status),
    queryFn: async ({ signal }) => (await api<{ data: MonitoringCaseSummary[] }>(`/api/monitoring/cases${queryString({ status: status || undefined })}`, { signal })).data,
  });
}

export function useMonitoringCase(id: string | null) {
  return useQuery({
    queryKey: keys.case(id ?? ''),
    queryFn: async ({ signal }) => (await api<{ data: MonitoringCaseDetail }>(`/api/monitoring/cases/${id}`, { signal })).data,
    enabled: Boolean(id),
  });
}

export function useCaseTransition() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: CaseTransition & { id: string }) =>
      api<{ data: MonitoringCaseDetail }>(`/api/monitoring/cases/${id}/transition`, { method: 'POST', body }),
    // A transition releases holds: the queue's transfers change too.
    onSettled: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
}

/** Downloads a case's report (each download is audited by the server). */
export async function downloadReport(id: string, format: 'json' | 'pdf'): Promise<void> {
  saveFile(await fetchBlob(`/api/monitoring/cases/${id}/report.${format}`), `str-report-${id}.${format}`);
}
