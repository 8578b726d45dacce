import { useTranslation } from 'react-i18next';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useApprove } from './admin-api';

/**
 * Four-eyes approval from a button (docs/rules/back-office.md#four-eyes). The server says who may approve: its refusal (the
 * approver processed the transfer or recorded its payout, or sent it) is shown as it words it.
 */
export function useApproveAction() {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const mutation = useApprove();

  /** The refusal's text, or null when approved (then a toast says so). */
  async function approve(id: string): Promise<string | null> {
    try {
      await mutation.mutateAsync(id);
    } catch (e) {
      return isApiError(e) && e.message ? e.message : t('states.error', { ns: 'common' });
    }
    toast({ variant: 'success', title: t('approval.approved') });
    return null;
  }

  /** For the queue: the refusal in a toast. */
  async function run(id: string): Promise<void> {
    const refused = await approve(id);
    if (refused) toast({ variant: 'destructive', title: t('approval.failed'), description: refused });
  }

  return { approve, run, pending: mutation.isPending, pendingId: mutation.isPending ? mutation.variables : undefined };
}
