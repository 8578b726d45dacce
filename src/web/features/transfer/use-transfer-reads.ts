import { useKyc } from '@web/lib/kyc';
import { useOperators } from '@web/lib/operators';
import { useFees, useRates } from '@web/lib/queries';
import { useSavedRecipients } from '@web/lib/transfers';

/**
 * What the transfer page reads: prices, saved recipients, the payout operators' numbers and the
 * sender's limits; `answered` once each has answered (or failed once).
 */
export function useTransferReads() {
  const fees = useFees();
  const rates = useRates();
  const recipients = useSavedRecipients();
  const operators = useOperators();
  const kyc = useKyc();
  const answered = [fees, rates, recipients, operators, kyc].every((q) => !q.isPending || q.failureCount > 0);
  return { fees, rates, recipients, operators, kyc, answered };
}
