import { useTranslation } from 'react-i18next';
import { FileCheck2, MessageSquareReply } from 'lucide-react';
import { Badge, StatusBadge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { directionLabel, formatDateTime } from '@web/lib/format';
import { amountText, requesterName } from './admin-format';
import type { StaffRequest } from './admin-api';
import { PaymentBadge, PayoutBadge } from './money-section';
import { RequestActions, type RowActions } from './request-actions';
import { WorkBadges } from './work-badges';

/** One transfer of the queue: who, what, its state and the actions it allows now. */
export function RequestCard({ row, lng, ...actions }: { row: StaffRequest; lng: string } & RowActions) {
  const { t } = useTranslation(['admin', 'common', 'transfer']);
  // A proof waiting to be checked: uploaded while the payment is still awaited.
  const proofToCheck = row.has_proof && row.payment_status === 'awaiting';
  return (
    <li data-testid="request-row" data-id={row.id} data-held={row.on_hold || undefined}>
      <Card className="flex flex-col gap-3 p-4">
        {/* The same column tracks on every row, so the queue reads as a table; nothing is cut, long text wraps. */}
        <div className="grid gap-x-4 gap-y-2 sm:grid-cols-2 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.25fr)_minmax(0,0.9fr)_minmax(0,0.8fr)]">
          <div className="min-w-0">
            <p className="font-semibold break-words text-slate-900">{requesterName(row.requester)}</p>
            <p className="text-xs text-muted-foreground"><span className="font-medium text-slate-700">{row.reference}</span></p>
            <p className="text-xs text-muted-foreground"><time dateTime={row.created_at}>{formatDateTime(row.created_at, lng)}</time></p>
          </div>
          <div className="min-w-0 text-sm">
            <p className="break-words">{directionLabel(t, row.direction)}</p>
            <p className="break-words text-muted-foreground">{String(row.destination_details.recipient_name ?? row.destination_details.account_holder ?? t('details.unknownRecipient'))}</p>
          </div>
          <div className="flex flex-wrap content-start items-center gap-x-2 gap-y-1">
            <span className="font-semibold tabular-nums">{amountText(row.amount, row.currency, lng)}</span>
            <StatusBadge status={row.status}>{t(`status.${row.status}`, { ns: 'common' })}</StatusBadge>
            <WorkBadges row={row} />
            {proofToCheck ? (
              <Badge variant="blue" className="gap-1" data-testid="proof-arrived"><FileCheck2 aria-hidden className="size-3.5" />{t('requests.proofArrived')}</Badge>
            ) : null}
            {row.sender_replied ? (
              <Badge variant="blue" className="gap-1" data-testid="sender-replied"><MessageSquareReply aria-hidden className="size-3.5" />{t('requests.senderReplied')}</Badge>
            ) : null}
          </div>
          {/* The money: payment in (flagged when the amount differs) and payout out. */}
          <dl className="flex flex-col gap-1 text-xs" aria-label={t('requests.moneyOf', { reference: row.reference })}>
            <div className="flex flex-wrap items-center gap-1"><dt className="text-muted-foreground">{t('requests.payment')}</dt><dd><PaymentBadge transfer={row} /></dd></div>
            <div className="flex flex-wrap items-center gap-1"><dt className="text-muted-foreground">{t('requests.payout')}</dt><dd><PayoutBadge transfer={row} /></dd></div>
          </dl>
        </div>
        <RequestActions row={row} {...actions} />
      </Card>
    </li>
  );
}
