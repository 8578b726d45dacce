import { useTranslation } from 'react-i18next';
import type { TransferStatus } from '@core/status';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useChangeStatus, type StatusChangeInput } from './admin-api';

/**
 * A status change with its messages: "Status updated to {status} successfully!" or
 * "Failed to update status: {message}" (the server's 409 text already carries that prefix).
 */
export function useStatusAction() {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const mutation = useChangeStatus();

  async function run(input: StatusChangeInput): Promise<boolean> {
    const label = (s: TransferStatus) => t(`status.${s}`, { ns: 'common' }).toLowerCase();
    try {
      await mutation.mutateAsync(input);
      toast({ variant: 'success', title: t('status.updated', { status: label(input.status) }) });
      return true;
    } catch (e) {
      const message = isApiError(e) ? e.message : String(e);
      const prefix = t('status.failed', { message: '' });
      toast({ variant: 'destructive', title: message.startsWith(prefix.trim()) ? message : t('status.failed', { message }) });
      return false;
    }
  }

  return { run, pending: mutation.isPending, pendingId: mutation.isPending ? mutation.variables?.id : undefined };
}
