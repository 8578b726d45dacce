import { useTranslation } from 'react-i18next';
import { CircleSlash } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { moneyFromDecimal } from '@web/lib/format';
import type { TransferDetail } from '@web/lib/transfers';

/** Rejected or cancelled: it will not be carried out and nothing is to be paid for it. */
export type ClosedStatus = 'rejected' | 'cancelled';
export const isClosed = (status: string): status is ClosedStatus => status === 'rejected' || status === 'cancelled';

/**
 * What happened to a closed transfer and to the sender's money: the reason staff gave, and the
 * refund owed (when), made, or that nothing was charged. Never how to pay.
 */
export function ClosedNotice({ transfer, status }: { transfer: TransferDetail; status: ClosedStatus }) {
  const { t, i18n } = useTranslation('transfer');
  const lng = i18n.resolvedLanguage ?? 'en';
  const paid = moneyFromDecimal(transfer.payment_amount ?? transfer.total, transfer.currency, lng);
  const reason = transfer.history.findLast((h) => !h.event && h.to_status === status)?.note;
  const money = transfer.payment_status === 'refund_due' ? t('pay.closed.refundDue', { amount: paid })
    : transfer.payment_status === 'refunded' ? t('pay.closed.refunded', { amount: paid, reference: transfer.refund_reference ?? '' })
      : transfer.payment_status === 'authorized' ? t('pay.closed.releasePending')
        : t('pay.closed.nothingOwed');
  return (
    <Alert variant="warning" className="mb-4 flex gap-2" data-testid="pay-closed">
      <CircleSlash aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div className="flex flex-col gap-1">
        <p className="font-semibold">{t(`pay.closed.${status}`)}</p>
        {reason ? <p>{t('pay.closed.reason', { reason })}</p> : null}
        <p>{money}</p>
      </div>
    </Alert>
  );
}
