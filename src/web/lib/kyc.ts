// The sender's identity level and limits (GET /api/kyc, docs/rules/know-your-sender.md).
import { useQuery } from '@tanstack/react-query';
import type { KycStatus, KycWindowState } from '@core/api/kyc';
import { nearLimit } from '@core/kyc';
import { parseAmount } from '@core/money';
import { api } from './api';

export type { KycStatus, KycWindowState };

export const kycKeys = { me: ['kyc'] as const };

/** POST /api/kyc/reviews: the documents sent are to be reviewed for `level`. */
export const requestKycReview = (level: number) => api('/api/kyc/reviews', { method: 'POST', body: { level } });

export function useKyc(enabled = true) {
  return useQuery({
    queryKey: kycKeys.me,
    queryFn: async ({ signal }) => (await api<{ data: KycStatus }>('/api/kyc', { signal })).data,
    enabled,
  });
}

/** Whether a window has 80 % or more of its limit used: the screens warn from there. */
export function windowNearLimit(w: KycWindowState): boolean {
  if (w.limit === null || w.window === 'transfer') return false;
  return nearLimit(BigInt(parseAmount(w.used, 'EUR') ?? 0), BigInt(parseAmount(w.limit, 'EUR') ?? 0));
}
