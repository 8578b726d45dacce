import { useTranslation } from 'react-i18next';
import { isFinalStatus } from '@core/status';
import { Button } from '@web/components/ui/button';
import { useErrorText } from '@web/components/ui/form';
import { useSession } from '@web/lib/session';
import type { StaffRequest } from './admin-api';
import { approveBlocked, staffActions } from './money-form';
import type { useApproveAction } from './use-approve-action';
import type { useStatusAction } from './use-status-action';

export interface RowActions {
  action: ReturnType<typeof useStatusAction>;
  approve: ReturnType<typeof useApproveAction>;
  onOpen: (row: StaffRequest) => void;
  onReject: (row: StaffRequest) => void;
}

/**
 * A queue row's buttons (docs/rules/back-office.md#staff-queue): a closed transfer changes status no
 * more, so its reason replaces them; an open one shows only the moves its status allows, and one
 * refused for now is greyed with its reason written under the buttons. A held transfer's moves all
 * wait for the same reason, written once.
 */
export function RequestActions({ row, action, approve, onOpen, onReject }: { row: StaffRequest } & RowActions) {
  const { t } = useTranslation(['admin', 'common', 'transfer']);
  const errorText = useErrorText();
  const { user } = useSession();
  const act = (status: 'processing' | 'completed') => void action.run({ id: row.id, status, expected_status: row.status });
  const can = staffActions(row);
  const closed = isFinalStatus(row.status);
  const moneyStep = can.payment ? 'recordPayment' : can.payout ? 'recordPayout' : can.refund ? 'recordRefund' : null;
  const reasonId = `refused-${row.id}`;
  // Held: one reason for every greyed move, approving included; otherwise each move's own.
  const heldReason = can.held ? errorText(can.held) : undefined;
  const reasons = {
    process: can.processBlocked && !can.held ? errorText(can.processBlocked) : undefined,
    complete: can.completeBlocked && !can.held ? errorText(can.completeBlocked) : undefined,
    reject: can.rejectBlocked && !can.held ? errorText(can.rejectBlocked) : undefined,
    // Whoever cannot approve it (they sent it, processed it or paid it out) sees why beside the button.
    approve: can.approve && user && !can.held ? errorText(approveBlocked(row, user.id) ?? undefined) : undefined,
  };
  const describedBy = (key: keyof typeof reasons) => (heldReason ? `${reasonId}-held` : reasons[key] ? `${reasonId}-${key}` : undefined);
  const greyed = (key: keyof typeof reasons) => Boolean(heldReason || reasons[key]);
  const move = (key: 'process' | 'complete' | 'reject', variant: 'outline' | 'success' | 'destructive', onClick: () => void) =>
    can[key] || can[`${key}Blocked`] ? (
      <Button size="sm" variant={variant} disabled={greyed(key) || action.pendingId === row.id} onClick={onClick} aria-describedby={describedBy(key)}>
        {t(`actions.${key}`)}
      </Button>
    ) : null;
  return (
    <div className="flex flex-wrap items-center gap-2 border-t border-slate-100 pt-3" role="group" aria-label={t('requests.actionsFor', { reference: row.reference })}>
      {closed ? (
        <p className="mr-auto text-xs text-muted-foreground" data-testid="closed-reason">{t('requests.closedReason', { status: t(`status.${row.status}`, { ns: 'common' }) })}</p>
      ) : (
        <>
          {move('process', 'outline', () => act('processing'))}
          {/* Complete needs the payment received and the payout sent: recorded in the details. */}
          {move('complete', 'success', () => act('completed'))}
          {move('reject', 'destructive', () => onReject(row))}
        </>
      )}
      {can.approve ? (
        <Button size="sm" variant="secondary" loading={approve.pendingId === row.id} onClick={() => void approve.run(row.id)}
          disabled={greyed('approve')} aria-describedby={describedBy('approve')}>
          {t('actions.approve')}
        </Button>
      ) : null}
      {/* The money step the transfer waits for: its form is in the details dialog. */}
      {moneyStep ? <Button size="sm" variant="secondary" onClick={() => onOpen(row)}>{t(`actions.${moneyStep}`)}</Button> : null}
      <Button size="sm" variant="ghost" onClick={() => onOpen(row)}>{t('actions.details')}</Button>
      {!closed && heldReason ? <p id={`${reasonId}-held`} className="basis-full text-xs text-slate-700" data-testid="held-reason">{heldReason}</p> : null}
      {(['process', 'complete', 'reject', 'approve'] as const).map((key) => (reasons[key] && (key === 'approve' || !closed) ? (
        <p key={key} id={`${reasonId}-${key}`} className="basis-full text-xs text-slate-700" data-testid={`${key}-reason`}>{reasons[key]}</p>
      ) : null))}
    </div>
  );
}
