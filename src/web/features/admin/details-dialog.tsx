import { useEffect, useId, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FileText } from 'lucide-react';
import { isFinalStatus, type TransferStatus } from '@core/status';
import { Alert } from '@web/components/ui/alert';
import { StatusBadge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog';
import { Field, Form, FormError, useErrorText } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Textarea } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { rateText } from '@web/lib/rate-lines';
import { useSession } from '@web/lib/session';
import { channelLabel, formatDateTime } from '@web/lib/format';
import { eventKey } from '@web/lib/money-labels';
import { HoldsSection } from './holds-section';
import { fetchProof, useRequestDetails, type ProofFile, type StaffDetail, type StaffRequest } from './admin-api';
import { addressText, amountText, requesterName } from './admin-format';
import { approveBlocked, staffActions } from './money-form';
import { MoneySection } from './money-section';
import { RejectDialog } from './reject-dialog';
import { ThreadSection } from './thread-section';
import { useApproveAction } from './use-approve-action';
import { WorkBadges } from './work-badges';
import { MAX_STATUS_NOTE, statusFormSchema } from './status-form';
import { useStatusAction } from './use-status-action';

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  if (children == null || children === '') return null;
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** One proof of payment: an image inline, a PDF as a link (both fetched with the session token). */
function Proof({ requestId, proof }: { requestId: string; proof: ProofFile }) {
  const { t, i18n } = useTranslation('admin');
  const [file, setFile] = useState<{ url: string; type: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    fetchProof(requestId, proof.id, controller.signal)
      .then((blob) => { url = URL.createObjectURL(blob); setFile({ url, type: blob.type }); })
      .catch((e: unknown) => { if (!controller.signal.aborted) setError(isApiError(e) ? e.message : t('details.proofFailed')); });
    return () => { controller.abort(); if (url) URL.revokeObjectURL(url); };
  }, [requestId, proof.id, t]);
  let body: ReactNode;
  if (error) body = <Alert variant="destructive">{error}</Alert>;
  else if (!file) body = <LoadingState className="py-4" />;
  else if (file.type === 'application/pdf') {
    body = (
      <a href={file.url} target="_blank" rel="noreferrer" className="inline-flex items-center gap-2 text-brand-700 underline">
        <FileText aria-hidden className="size-4" /> {t('details.openPdf')}
      </a>
    );
  } else body = <img src={file.url} alt={t('details.proofAlt')} className="max-h-80 w-full rounded-md border border-border object-contain" />;
  return (
    <li className="flex flex-col gap-1">
      <p className="text-sm text-muted-foreground">
        {t('details.proofUploaded', { time: formatDateTime(proof.created_at, i18n.resolvedLanguage ?? 'en') })} · {proof.filename}
      </p>
      {body}
    </li>
  );
}

const ACTOR_ROLES = ['processed_by', 'approved_by', 'payment_recorded_by', 'payout_sent_by', 'refunded_by'] as const;

/** Who did what (docs/rules/back-office.md#four-eyes): the staff member behind each step, and the four-eyes approval the amount needs. */
function ActorsSection({ transfer }: { transfer: StaffDetail }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const done = ACTOR_ROLES.filter((role) => transfer.actors[role]);
  return (
    <section aria-labelledby="d-actors">
      <h3 id="d-actors" className="mb-1 font-semibold">{t('details.whoDidWhat')}</h3>
      <p className="mb-1 text-sm text-slate-700" data-testid="approval-state">
        {transfer.needs_approval ? t('approval.needed')
          : transfer.approval_required && transfer.approved_at ? t('approval.given', { when: formatDateTime(transfer.approved_at, lng) })
            : t('approval.notRequired')}
      </p>
      {done.length ? (
        <dl>
          {done.map((role) => {
            const actor = transfer.actors[role]!;
            return <Row key={role} label={t(`details.by.${role}`)}>{requesterName(actor)}</Row>;
          })}
        </dl>
      ) : <p className="text-sm text-muted-foreground">{t('details.noStaffYet')}</p>}
    </section>
  );
}

/** Who sent it and who gets it as they were when it was made (docs/rules/know-your-sender.md#travel-rule). */
function TravelRuleSection({ transfer }: { transfer: StaffDetail }) {
  const { t, i18n } = useTranslation('admin');
  // Shown on demand: compliance reading, not what the queue's work needs at every opening.
  const [open, setOpen] = useState(false);
  const rule = transfer.travel_rule;
  const o = rule?.originator;
  const b = rule?.beneficiary;
  return (
    <section aria-labelledby="d-travel" data-testid="travel-rule">
      <h3 id="d-travel" className="mb-1 font-semibold">{t('details.travelRule.title')}</h3>
      {!open ? (
        <Button type="button" size="sm" variant="outline" onClick={() => setOpen(true)}>{t('details.travelRule.show')}</Button>
      ) : !o || !b ? <p className="text-sm text-muted-foreground">{t('details.travelRule.none')}</p> : (
        <div className="grid sm:grid-cols-2 sm:gap-x-6">
          <dl>
            <Row label={t('details.travelRule.originator')}>{o.full_name}</Row>
            <Row label={t('details.travelRule.dateOfBirth')}>{o.date_of_birth}</Row>
            <Row label={t('details.travelRule.address')}>{addressText(o.address, i18n.language)}</Row>
            <Row label={t('details.travelRule.customerNumber')}><span className="font-mono text-xs">{o.customer_number}</span></Row>
            <Row label={t('details.travelRule.paidFrom')}>{channelLabel(t, o.account.provider)}</Row>
          </dl>
          <dl>
            <Row label={t('details.travelRule.beneficiary')}>{b.name ?? t('details.travelRule.noName')}</Row>
            <Row label={t(`details.travelRule.account.${b.account.kind}`)}>{b.account.value}</Row>
            <Row label={t('details.travelRule.country')}>{b.country}</Row>
          </dl>
        </div>
      )}
    </section>
  );
}

export function DetailsDialog({ row, onClose }: { row: StaffRequest; onClose: () => void }) {
  const { t, i18n } = useTranslation(['admin', 'common', 'validation', 'transfer']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const details = useRequestDetails(row.id);
  const action = useStatusAction();
  const form = useZodForm(statusFormSchema, { status: null, note: '' });
  const d = details.data;
  // The dialog's own answer is the fresher one; the queue's row shows until it comes.
  const current = d ?? row;
  const status: TransferStatus = current.status;
  const dest = current.destination_details;
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const can = staffActions({ ...current, paypal_checkout: d?.paypal_checkout });
  const completeReasonId = useId();
  const rejectReasonId = useId();
  const processReasonId = useId();
  const approveReasonId = useId();
  const { user } = useSession();
  // Whoever cannot approve it (they sent it, processed it or paid it out) sees why on the button.
  const approveReason = d && user ? approveBlocked(d, user.id) : null;
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
    <Dialog open onOpenChange={(o) => { if (!o) onClose(); }}>
      {/* A free band where toasts show (the top on phones, the bottom from sm), so none covers an action (docs/rules/back-office.md#staff-queue). */}
      <DialogContent className="top-24 max-h-[calc(100dvh-7rem)] max-w-2xl translate-y-0 sm:top-4 sm:max-h-[calc(100dvh-9rem)]">
        <DialogHeader>
          <DialogTitle className="flex flex-wrap items-center gap-2">
            {t('details.title', { reference: row.reference })}
            <StatusBadge status={status}>{t(`status.${status}`, { ns: 'common' })}</StatusBadge>
            <WorkBadges row={current} />
          </DialogTitle>
          <DialogDescription>{formatDateTime(row.created_at, lng)}</DialogDescription>
        </DialogHeader>

        <div className="grid gap-4 sm:grid-cols-2">
          <section aria-labelledby="d-sender">
            <h3 id="d-sender" className="mb-1 font-semibold">{t('details.sender')}</h3>
            <dl>
              <Row label={t('details.name')}>{requesterName(row.requester)}</Row>
              <Row label={t('details.email')}>{row.requester.email}</Row>
              <Row label={t('details.source')}>{channelLabel(t, row.source_provider)}</Row>
              <Row label={t('details.senderNote')}>{text((d?.source_details ?? row.source_details).note)}</Row>
            </dl>
          </section>
          <section aria-labelledby="d-recipient">
            <h3 id="d-recipient" className="mb-1 font-semibold">{t('details.recipient')}</h3>
            <dl>
              <Row label={t('details.destination')}>{channelLabel(t, row.destination_provider)}</Row>
              <Row label={t('details.name')}>{text(dest.recipient_name) || text(dest.account_holder) || t('details.unknownRecipient')}</Row>
              <Row label={t('details.phone')}>{text(dest.recipient_phone)}</Row>
              <Row label={t('details.email')}>{text(dest.recipient_email)}</Row>
              <Row label="IBAN">{text(dest.iban)}</Row>
              <Row label="BIC">{text(dest.bic)}</Row>
            </dl>
          </section>
          <section aria-labelledby="d-amounts" className="sm:col-span-2">
            <h3 id="d-amounts" className="mb-1 font-semibold">{t('details.amounts')}</h3>
            <dl className="grid sm:grid-cols-2 sm:gap-x-6">
              <Row label={t('details.amount')}>{amountText(row.amount, row.currency, lng)}</Row>
              <Row label={t('details.fee')}>{amountText(row.fee, row.currency, lng)}</Row>
              <Row label={t('details.total')}>{amountText(row.total, row.currency, lng)}</Row>
              <Row label={t('details.rate')}>{rateText(t, { ...row, reference_rate: row.rate, margin: '0' }, lng)}</Row>
              <Row label={t('details.payout')}>{amountText(row.payout_amount, row.payout_currency, lng)}</Row>
              <Row label={t('details.providerTxn')}>{current.provider_txn_id}</Row>
            </dl>
          </section>
        </div>

        {/* Shown once the dialog's answer says whether PayPal or staff record the payment. */}
        {d ? <HoldsSection transfer={d} /> : null}
        {d ? <MoneySection transfer={d} /> : <LoadingState className="py-4" />}
        {d ? <ActorsSection transfer={d} /> : null}
        {d ? <TravelRuleSection transfer={d} /> : null}

        <section aria-labelledby="d-proof">
          <h3 id="d-proof" className="mb-2 font-semibold">{t('details.proof')}</h3>
          {details.isPending ? <LoadingState className="py-4" /> : d?.proofs.length ? (
            <ol className="flex flex-col gap-4" data-testid="proofs">
              {d.proofs.map((proof) => <Proof key={proof.id} requestId={row.id} proof={proof} />)}
            </ol>
          ) : <p className="text-sm text-muted-foreground">{t('details.noProof')}</p>}
        </section>

        <section aria-labelledby="d-history">
          <h3 id="d-history" className="mb-2 font-semibold">{t('details.history')}</h3>
          {details.isError ? <Alert variant="destructive">{isApiError(details.error) ? details.error.message : t('states.error', { ns: 'common' })}</Alert> : null}
          {d && d.history.length === 0 ? <p className="text-sm text-muted-foreground">{t('details.noHistory')}</p> : null}
          <ol className="flex flex-col gap-2 border-l-2 border-border pl-4" data-testid="status-history">
            {d?.history.map((h, i) => (
              <li key={i} className="text-sm">
                <p>
                  <span className="font-medium">
                    {h.event ? t(`events.${eventKey(h.event)}`) : t('details.step', {
                      from: h.from_status ? t(`status.${h.from_status}`, { ns: 'common' }) : '—',
                      to: t(`status.${h.to_status}`, { ns: 'common' }),
                    })}
                  </span>{' '}
                  <span className="text-muted-foreground">· {formatDateTime(h.created_at, lng)}{h.actor_role ? ` · ${t(`details.actors.${h.actor_role}`, { defaultValue: h.actor_role })}` : ''}</span>
                </p>
                {h.note ? <p className="text-slate-700">{h.note}</p> : null}
              </li>
            ))}
          </ol>
        </section>

        <ThreadSection transferId={row.id} notes={d?.notes} sender={requesterName(row.requester)} actionNeeded={current.action_needed} closed={isFinalStatus(current.status)} />

        <Form
          form={form}
          onSubmit={async (change) => {
            await action.change({ ...change, id: row.id, expected_status: status });
            form.reset();
            void details.refetch();
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
          {can.rejectBlocked ? <p id={rejectReasonId} className="text-sm text-slate-700">{reason(can.rejectBlocked ?? undefined)}</p> : null}
          {can.processBlocked ? <p id={processReasonId} className="text-sm text-slate-700" data-testid="process-reason">{reason(can.processBlocked)}</p> : null}
          {can.approve && approveReason ? <p id={approveReasonId} className="text-sm text-slate-700" data-testid="approve-reason">{reason(approveReason)}</p> : null}
          {approveRefused ? <Alert variant="destructive" data-testid="approve-refused">{approveRefused}</Alert> : null}

          <DialogFooter className="flex-wrap">
            <Button variant="outline" disabled={!can.process} loading={action.pending && action.pendingId === row.id} onClick={move('processing')}
              aria-describedby={can.processBlocked ? processReasonId : undefined}>
              {t('actions.process')}
            </Button>
            <Button variant="destructive" disabled={!can.reject || action.pending} onClick={() => setRejecting(true)}
              aria-describedby={can.rejectBlocked ? rejectReasonId : undefined}>
              {t('actions.reject')}
            </Button>
            {can.approve ? (
              <Button variant="secondary" loading={approve.pending} disabled={Boolean(approveReason)}
                aria-describedby={approveReason ? approveReasonId : undefined}
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
      </DialogContent>
    </Dialog>
  );
}
