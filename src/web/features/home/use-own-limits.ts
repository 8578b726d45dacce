import { useEffect, useState } from 'react';
import type { KycStatus } from '@core/api/kyc';
import { loadLimits } from '@web/lib/session';
import { readToken } from '@web/lib/token-store';
import { useJson } from '@web/lib/use-json';

/**
 * A signed-in sender's own limits (GET /api/kyc), told on the calculator too
 * (docs/rules/know-your-sender.md#limits), with their arithmetic (@core/kyc); nothing signed out.
 */
export function useOwnLimits(): { kyc: KycStatus | undefined; limits: typeof import('@core/kyc') | null } {
  // The token is read after the first render, which must match the prerendered page.
  const [signedIn, setSignedIn] = useState(false);
  useEffect(() => setSignedIn(readToken() !== null), []);
  const kyc = useJson<{ data: KycStatus }>(signedIn ? '/api/kyc' : null).data?.data;
  // The limits' arithmetic is fetched only for a signed-in sender: signed out, the home page's
  // JavaScript stays within its budget (docs/decisions/005-web-shell-budget.md).
  const [limits, setLimits] = useState<typeof import('@core/kyc') | null>(null);
  useEffect(() => {
    if (kyc) void loadLimits().then(setLimits);
  }, [kyc]);
  return { kyc, limits };
}
