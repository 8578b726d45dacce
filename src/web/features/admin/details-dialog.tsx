import { useTranslation } from 'react-i18next';
import { isFinalStatus } from '@core/status';
import { StatusBadge } from '@web/components/ui/badge';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@web/components/ui/dialog';
import { LoadingState } from '@web/components/ui/spinner';
import { formatDateTime } from '@web/lib/format';
import { HoldsSection } from './holds-section';
import { useRequestDetails, type StaffRequest } from './admin-api';
import { requesterName } from './admin-format';
import { ActorsSection, ProofsSection, TravelRuleSection } from './details-sections';
import { HistorySection } from './history-section';
import { MoneySection } from './money-section';
import { PartiesSection } from './parties-section';
import { PayoutsSection } from './payouts-section';
import { StatusActionsForm } from './status-actions-form';
import { ThreadSection } from './thread-section';
import { WorkBadges } from './work-badges';

// One transfer for staff (docs/rules/back-office.md#staff-queue): who and how much, its holds,
// money, payout attempts, proofs, history and thread, and the moves staff may make.

export function DetailsDialog({ row, onClose }: { row: StaffRequest; onClose: () => void }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const details = useRequestDetails(row.id);
  const d = details.data;
  // The dialog's own answer is the fresher one; the queue's row shows until it comes.
  const current = d ?? row;

  return (
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }}>
      {/* A free band where toasts show (the top on phones, the bottom from sm), so none covers an action (docs/rules/back-office.md#staff-queue). */}
      <DialogContent className="top-24 max-h-[calc(100dvh-7rem)] max-w-2xl translate-y-0 sm:top-4 sm:max-h-[calc(100dvh-9rem)]">
        <DialogHeader>
          <DialogTitle className="flex flex-wrap items-center gap-2">
            {t('details.title', { reference: row.reference })}
            <StatusBadge status={current.status}>{t(`status.${current.status}`, { ns: 'common' })}</StatusBadge>
            <WorkBadges row={current} />
          </DialogTitle>
          <DialogDescription>{formatDateTime(row.created_at, lng)}</DialogDescription>
        </DialogHeader>

        <PartiesSection row={row} detail={d} />

        {/* Shown once the dialog's answer says whether PayPal or staff record the payment. */}
        {d ? <HoldsSection transfer={d} /> : null}
        {d ? <MoneySection transfer={d} /> : <LoadingState className="py-4" />}
        <PayoutsSection transfer={row} />
        {d ? <ActorsSection transfer={d} /> : null}
        {d ? <TravelRuleSection transfer={d} /> : null}

        <ProofsSection requestId={row.id} proofs={d?.proofs} pending={details.isPending} />
        <HistorySection detail={d} error={details.isError ? details.error : null} />

        <ThreadSection transferId={row.id} notes={d?.notes} sender={requesterName(row.requester)} actionNeeded={current.action_needed} closed={isFinalStatus(current.status)} />

        <StatusActionsForm row={row} detail={d} onMoved={() => void details.refetch()} />
      </DialogContent>
    </Dialog>
  );
}
