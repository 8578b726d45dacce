import { useId, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferStatus } from '@core/status';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { DialogFooter } from '@web/components/ui/dialog';
import { Field, Form, FormError, useErrorText } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { useZodForm } from '@web/components/ui/zod-form';
import { useSession } from '@web/lib/session';
import type { StaffDetail, StaffRequest } from './admin-api';
import { approveBlocked, staffActions } from './money-form';
import { RejectDialog } from './reject-dialog';
import { MAX_STATUS_NOTE, statusFormSchema } from './status-form';
import { useApproveAction } from './use-approve-action';
import { useStatusAction } from './use-status-action';

// The staff details' moves (docs/rules/back-office.md#staff-queue): process, reject, approve and
// complete, each refused one greyed with its reason written beside it.

export function StatusActionsForm({ row, detail, onMoved }: { row: StaffRequest; detail: StaffDetail | undefined; onMoved: () => void }) {
  const { t } = useTranslation(['admin', 'common', 'validation', 'transfer']);
  const action = useStatusAction();
  const form = useZodForm(statusFormSchema, { status: null, note: '' });
  const current = detail ?? row;
  const status: TransferStatus = current.status;
  const can = staffActions({ ...current, paypal_checkout: detail?.paypal_checkout });
  const [completeReasonId, rejectReasonId, processReasonId, approveReasonId] = [useId(), useId(), useId(), useId()];
  const { user } = useSession();
  // Whoever cannot approve it (they sent it, processed it or paid it out) sees why on the button.
  const approveReason = detail && user ? approveBlocked(detail, user.id) : null;
  const reason = useErrorText();
  const approve = useApproveAction();
  const [approveRefused, setApproveRefused] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState(false);

  /** A button names the status to move to, then submits the form (checked, then sent). */
  const move = (to: TransferStatus) => (event: MouseEvent<HTMLButtonElement>) => {
    form.setValue('status', to);
    event.currentTarget.form?.requestSubmit();
  };

  return (
    <>
      <Form
        form={form}
        onSubmit={async (change) => {
          await action.change({ ...change, id: row.id, expected_status: status });
          form.reset();
          onMoved();
        }}
        fallbackError={t('states.error', { ns: 'common' })}
        className="flex flex-col gap-4"
      >
        {can.process || can.complete || can.completeBlocked ? (
          <section aria-labelledby="d-act" className="flex flex-col gap-3">
            <h3 id="d-act" className="font-semibold">{t('details.act')}</h3>
            <Field name="note" label={t('details.note')} hint={t('details.noteHint')}>
              <Textarea maxLength={MAX_STATUS_NOTE} />
            </Field>
          </section>
        ) : null}

        <FormError />

        {/* Why Complete or Reject is refused, named by the button it explains. */}
        {can.completeBlocked ? <p id={completeReasonId} className="text-sm text-slate-700" data-testid="complete-reason">{reason(can.completeBlocked ?? undefined)}</p> : null}
        {/* Held: every move waits for the hold, said once (under Complete's id, which the other buttons point to). */}
        {can.rejectBlocked && !can.held ? <p id={rejectReasonId} className="text-sm text-slate-700">{reason(can.rejectBlocked ?? undefined)}</p> : null}
        {can.processBlocked && !can.held ? <p id={processReasonId} className="text-sm text-slate-700" data-testid="process-reason">{reason(can.processBlocked)}</p> : null}
        {can.approve && approveReason && !can.held ? <p id={approveReasonId} className="text-sm text-slate-700" data-testid="approve-reason">{reason(approveReason)}</p> : null}
        {approveRefused ? <Alert variant="destructive" data-testid="approve-refused">{approveRefused}</Alert> : null}

        <DialogFooter className="flex-wrap">
          <Button variant="outline" disabled={!can.process} loading={action.pending && action.pendingId === row.id} onClick={move('processing')}
            aria-describedby={can.held ? completeReasonId : can.processBlocked ? processReasonId : undefined}>
            {t('actions.process')}
          </Button>
          <Button variant="destructive" disabled={!can.reject || action.pending} onClick={() => setRejecting(true)}
            aria-describedby={can.held ? completeReasonId : can.rejectBlocked ? rejectReasonId : undefined}>
            {t('actions.reject')}
          </Button>
          {can.approve ? (
            <Button variant="secondary" loading={approve.pending} disabled={Boolean(approveReason || can.held)}
              aria-describedby={can.held ? completeReasonId : approveReason ? approveReasonId : undefined}
              onClick={async () => setApproveRefused(await approve.approve(row.id))}>
              {t('actions.approve')}
            </Button>
          ) : null}
          <Button variant="success" disabled={!can.complete || action.pending} onClick={move('completed')}
            aria-describedby={can.completeBlocked ? completeReasonId : undefined}>
            {t('actions.markCompleted')}
          </Button>
        </DialogFooter>
      </Form>
      {rejecting ? <RejectDialog transfer={{ ...row, status }} onClose={() => setRejecting(false)} /> : null}
    </>
  );
}
