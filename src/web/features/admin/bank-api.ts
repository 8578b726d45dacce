// The bank rail as the admin runs it (docs/rules/bank-rail.md): SEPA payout files and the bank's
// statements read back.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BankFileJson, BankStatementJson, BankStatementResult, UnmatchedBankLines } from '@core/api/bank';
import { api, fetchBlob } from '@web/lib/api';
import { adminKeys, saveFile } from './admin-api';

export type BankFile = BankFileJson;
export type BankStatement = BankStatementJson;
export type StatementImport = BankStatementResult;

const bankKeys = {
  files: [...adminKeys.all, 'bank', 'files'] as const,
  statements: [...adminKeys.all, 'bank', 'statements'] as const,
  unmatched: [...adminKeys.all, 'bank', 'unmatched'] as const,
};

export function useBankFiles() {
  return useQuery({ queryKey: bankKeys.files, queryFn: async ({ signal }) => (await api<{ data: BankFile[] }>('/api/bank/files', { signal })).data });
}

export function useBankStatements() {
  return useQuery({ queryKey: bankKeys.statements, queryFn: async ({ signal }) => (await api<{ data: BankStatement[] }>('/api/bank/statements', { signal })).data });
}

/** The bank statements' lines that matched nothing (newest 50), read only when `enabled`. */
export function useUnmatchedBankLines(enabled: boolean) {
  return useQuery({
    queryKey: bankKeys.unmatched, enabled,
    queryFn: async ({ signal }) => (await api<{ data: UnmatchedBankLines }>('/api/bank/statements/unmatched?limit=50', { signal })).data,
  });
}

/** A change to files or statements moves transfers, rails and the audit log: all of the admin's data is read again. */
function useBankMutation<T, R>(call: (value: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: adminKeys.all }) });
}

export const useCreateBankFile = () =>
  useBankMutation(async () => (await api<{ data: { id: string; count: number; control_sum: string } }>('/api/bank/files', { method: 'POST' })).data);

export const useCancelBankFile = () =>
  useBankMutation(({ id, reason }: { id: string; reason: string }) => api(`/api/bank/files/${id}/cancel`, { method: 'POST', body: { reason } }));

export const useImportBankStatement = () =>
  useBankMutation(async (file: File) => {
    const body = new FormData();
    body.append('file', file, file.name);
    return (await api<{ data: StatementImport }>('/api/bank/statements', { method: 'POST', body })).data;
  });

/** The file as written, saved under its name at the bank (each download is audited). */
export async function downloadBankFile(file: Pick<BankFile, 'id' | 'msg_id'>): Promise<void> {
  saveFile(await fetchBlob(`/api/bank/files/${file.id}`), `${file.msg_id}.xml`);
}
