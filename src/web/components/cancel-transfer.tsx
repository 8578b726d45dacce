import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { canCancel } from '@core/status';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { cancelTransfer, transferKeys, type TransactionItem } from '@web/lib/transfers';

/**
 * "Cancel" for a transfer the sender may still cancel (pending, not paid out), confirmed in the
 * app's dialog; nothing for any other.
 */
export function CancelTransferButton({ item }: { item: Pick<TransactionItem, 'transfer_request_id' | 'reference' | 'status' | 'payout_reference'> }) {
  const { t } = useTranslation(['transfer', 'common']);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [confirming, setConfirming] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  if (!canCancel(item.status) || item.payout_reference) return null;

  const cancel = async () => {
    setCancelling(true);
    try {
      await cancelTransfer(item.transfer_request_id);
      setConfirming(false);
      toast({ variant: 'success', title: t('history.cancelled') });
      await queryClient.invalidateQueries({ queryKey: transferKeys.all });
    } catch (err) {
      toast({ variant: 'destructive', title: t('history.cancelFailed'), description: isApiError(err) ? err.message : undefined });
    } finally {
      setCancelling(false);
    }
  };

  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setConfirming(true)} aria-label={t('history.cancelOf', { reference: item.reference })}>
        {t('history.cancel')}
      </Button>
      <ConfirmDialog open={confirming} onKeep={() => setConfirming(false)} onConfirm={() => void cancel()} busy={cancelling}
        title={t('history.cancelConfirm', { reference: item.reference })} description={t('history.cancelText')}
        keepLabel={t('history.keep')} confirmLabel={t('history.cancelConfirmButton')} />
    </>
  );
}
