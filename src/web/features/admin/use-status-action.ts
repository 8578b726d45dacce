import { useTranslation } from 'react-i18next';
import type { TransferStatus } from '@core/status';
import { useToast } from '@web/components/ui/toast';
import { ApiError, isApiError } from '@web/lib/api';
import { useChangeStatus, type StatusChangeInput } from './admin-api';

/**
 * A status change with its messages: "Status updated to {status} successfully!" or
 * "Failed to update status: {message}" (a `status_update_failed` answer's text already says so).
 */
export function useStatusAction() {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const mutation = useChangeStatus();

  const failureText = (e: unknown) => {
    if (isApiError(e) && e.code === 'status_update_failed') return e.message;
    return t('status.failed', { message: isApiError(e) ? e.message : String(e) });
  };

  /** For a form: the success in a toast; a refusal thrown as an ApiError with the failure text, its field errors kept. */
  async function change(input: StatusChangeInput): Promise<void> {
    try {
      await mutation.mutateAsync(input);
    } catch (e) {
      throw isApiError(e) ? new ApiError(e.status, failureText(e), e.fields, e.body) : e;
    }
    const label = (s: TransferStatus) => t(`status.${s}`, { ns: 'common' }).toLowerCase();
    toast({ variant: 'success', title: t('status.updated', { status: label(input.status) }) });
  }

  /** For a button: the outcome in a toast; true when the status moved. */
  async function run(input: StatusChangeInput): Promise<boolean> {
    try {
      await change(input);
      return true;
    } catch (e) {
      toast({ variant: 'destructive', title: failureText(e) });
      return false;
    }
  }

  return { run, change, pending: mutation.isPending, pendingId: mutation.isPending ? mutation.variables?.id : undefined };
}
