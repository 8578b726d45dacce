import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatPhone } from '@core/phone';
import { senderMustPay } from '@core/sender-state';
import { DeliveryNote, useDelivery } from '@web/components/delivery-note';
import { Badge, StatusBadge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@web/components/ui/dialog';
import { Alert } from '@web/components/ui/alert';
import { LoadingState } from '@web/components/ui/spinner';
import { SenderStateLine } from '@web/components/sender-state';
import { channelLabel, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { eventKey, eventVariant } from '@web/lib/money-labels';
import { ReturnedPayoutNote } from './returned-payout-note';
import { useRates } from '@web/lib/queries';
import { rateText } from '@web/lib/rate-lines';
import { recipientName, useTransfer, type TransferDetail } from '@web/lib/transfers';
import { TransferThread } from './thread';
import { TrackingShare } from './tracking-share';

type Step = TransferDetail['history'][number] & { proof?: undefined };
type ProofStep = { proof: TransferDetail['proofs'][number]; created_at: string };

/** The status and money steps with each proof the sender uploaded, oldest first. */
function timeline(d: TransferDetail): (Step | ProofStep)[] {
  const proofs: ProofStep[] = d.proofs.map((proof) => ({ proof, created_at: proof.created_at }));
  return [...d.history as Step[], ...proofs].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
}

/**
 * One transfer's details and its status timeline: every change, who and when
 * (docs/rules/transfers.md#history).
 */
export function TransferDetailsDialog({ transferId, onClose, focusReply = false }: {
  transferId: string | null;
  onClose: () => void;
  /** Opened from "Reply": land on the question and the reply box, focused. */
  focusReply?: boolean;
}) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const detail = useTransfer(transferId ?? undefined);
  const d = detail.data;
  const delivery = useDelivery();
  const rates = useRates(false);

  return (
    <Dialog open={transferId !== null} onOpenChange={(open) => { if (!open) onClose(); }}>
      <DialogContent className="max-w-xl" onOpenAutoFocus={(e) => { if (focusReply) e.preventDefault(); }}>
        <DialogHeader>
          <DialogTitle>{t('history.detailsTitle', { reference: d?.reference ?? '' })}</DialogTitle>
          <DialogDescription>{d ? `${channelLabel(t, d.source_provider)} → ${channelLabel(t, d.destination_provider)}` : ''}</DialogDescription>
        </DialogHeader>
        {detail.isPending ? <LoadingState /> : detail.isError || !d ? (
          <Alert variant="destructive">{detail.error?.message ?? t('common:errors.generic')}</Alert>
        ) : (
          <div className="grid gap-5">
            <SenderStateLine item={d} className="justify-self-start" />
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div><dt className="text-slate-600">{t('form.amountLabel')}</dt><dd className="font-medium tabular-nums">{moneyFromDecimal(d.amount, d.currency, lng)}</dd></div>
              <div><dt className="text-slate-600">{t('form.fee')}</dt><dd className="tabular-nums">{moneyFromDecimal(d.fee, d.currency, lng)}</dd></div>
              <div><dt className="text-slate-600">{t('form.total')}</dt><dd className="font-medium tabular-nums">{moneyFromDecimal(d.total, d.currency, lng)}</dd></div>
              <div><dt className="text-slate-600">{t('form.theyGet')}</dt><dd className="tabular-nums">{moneyFromDecimal(d.payout_amount, d.payout_currency, lng)}</dd></div>
              <div><dt className="text-slate-600">{t('form.rate')}</dt><dd className="tabular-nums" data-testid="details-rate">{rateText(t, { ...d, reference_rate: d.rate, margin: '0' }, lng, rates.data)}</dd></div>
              <div><dt className="text-slate-600">{t('form.recipient')}</dt><dd>{recipientName(d) ?? t('history.unknownRecipient')}</dd></div>
              {d.destination_details.recipient_phone ? <div><dt className="text-slate-600">{t('form.recipientPhone')}</dt><dd className="whitespace-nowrap">{formatPhone(d.destination_details.recipient_phone)}</dd></div> : null}
              {delivery(d) ? <div className="col-span-2"><dt className="text-slate-600">{t('delivery.label')}</dt><dd><DeliveryNote delivery={delivery(d)} long /></dd></div> : null}
              {d.payment_amount ? <div><dt className="text-slate-600">{t('pay.paidAmount')}</dt><dd className="tabular-nums">{moneyFromDecimal(d.payment_amount, d.currency, lng)}</dd></div> : null}
              {d.payment_reference ? <div><dt className="text-slate-600">{t('pay.paymentReference')}</dt><dd className="break-all font-mono">{d.payment_reference}</dd></div> : null}
              {d.provider_txn_id ? <div><dt className="text-slate-600">{t('receipt.providerReference')}</dt><dd className="break-all font-mono">{d.provider_txn_id}</dd></div> : null}
              {d.payout_reference ? <div><dt className="text-slate-600">{t('receipt.payoutReference')}</dt><dd className="break-all font-mono">{d.payout_reference}</dd></div> : null}
              {d.refund_reference ? <div><dt className="text-slate-600">{t('pay.refundReference')}</dt><dd className="break-all font-mono">{d.refund_reference}</dd></div> : null}
              {d.source_details.note ? <div className="col-span-2"><dt className="text-slate-600">{t('form.notes')}</dt><dd className="break-words">{d.source_details.note}</dd></div> : null}
            </dl>
            <TrackingShare transferId={d.id} trackingUrl={d.tracking_url} />
            <TransferThread transferId={d.id} messages={d.messages} actionMessage={d.action_needed ? d.action_message : null} focusReply={focusReply} />
            <section aria-labelledby="timeline-title">
              <h3 id="timeline-title" className="font-semibold">{t('history.timeline')}</h3>
              <ol className="mt-3 border-l-2 border-slate-200 pl-4" data-testid="timeline">
                {timeline(d).map((h, i) => h.proof ? (
                  <li key={`proof-${h.proof.id}`} className="relative mb-4 last:mb-0" data-testid="timeline-proof">
                    <span aria-hidden className="absolute -left-[23px] top-1 size-3 rounded-full border-2 border-white bg-brand-700" />
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant="blue">{t('history.proofReceived')}</Badge>
                      <time className="text-xs text-slate-600" dateTime={h.created_at}>{formatDateTime(h.created_at, lng)}</time>
                    </div>
                    <p className="mt-1 break-all text-sm text-slate-700">{h.proof.filename}</p>
                  </li>
                ) : (
                  <li key={i} className="relative mb-4 last:mb-0">
                    <span aria-hidden className="absolute -left-[23px] top-1 size-3 rounded-full border-2 border-white bg-brand-700" />
                    <div className="flex flex-wrap items-center gap-2">
                      {/* A money step names what happened to the money; a status step, the status. */}
                      {h.event ? (
                        <Badge variant={eventVariant(h.event)}>{t(eventKey(h.event))}</Badge>
                      ) : <StatusBadge status={h.to_status}>{t(`status.${h.to_status}`)}</StatusBadge>}
                      <time className="text-xs text-slate-600" dateTime={h.created_at}>{formatDateTime(h.created_at, lng)}</time>
                    </div>
                    <p className="mt-1 text-sm text-slate-700">
                      {h.from_status ? t(h.event ? 'history.recordedBy' : 'history.byRole', { role: t(`history.roles.${h.actor_role ?? 'system'}`, { defaultValue: h.actor_role ?? '' }) }) : t('history.created')}
                    </p>
                    {h.event === 'payout_returned' ? <ReturnedPayoutNote code={h.note} />
                      : h.note ? <p className="mt-1 text-sm italic text-slate-700">“{h.note}”</p> : null}
                  </li>
                ))}
              </ol>
            </section>
            {/* Pay while paying is the next step (never while held); a proof sent, its page. */}
            {senderMustPay(d) || (d.has_proof && !d.on_hold && d.status === 'pending' && d.payment_status === 'awaiting') ? (
              <Button asChild><Link to={`/pay/${d.id}`}>{d.has_proof ? t('history.viewPayment') : t('history.payNow')}</Link></Button>
            ) : null}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
