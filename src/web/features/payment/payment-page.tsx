import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, CircleSlash } from 'lucide-react';
import { awaitsPayment } from '@core/money-states';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { SenderStateLine } from '@web/components/sender-state';
import { isApiError } from '@web/lib/api';
import { channelLabel, moneyFromDecimal } from '@web/lib/format';
import { useRates } from '@web/lib/queries';
import { startPaypalCheckout, useTransfer, type TransferDetail } from '@web/lib/transfers';
import { rateText } from '@web/lib/rate-lines';
import { CopyButton } from './copy-button';
import { ProofCard } from './proof-card';

/** Rejected or cancelled: it will not be carried out and nothing is to be paid for it. */
type ClosedStatus = 'rejected' | 'cancelled';
const isClosed = (status: string): status is ClosedStatus => status === 'rejected' || status === 'cancelled';

/**
 * What happened to a closed transfer and to the sender's money: the reason staff gave, and the
 * refund owed (when), made, or that nothing was charged. Never how to pay.
 */
function ClosedNotice({ transfer, status }: { transfer: TransferDetail; status: ClosedStatus }) {
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

/**
 * The app's own payment page — amount, where to pay, the reference and the proof upload
 * (docs/rules/money-states.md#payment-states) while the payment is awaited; once the transfer is
 * rejected or cancelled, what happened instead, never how to pay.
 */
export default function PaymentPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const transfer = useTransfer(id);
  const rates = useRates(false);
  const [paypalError, setPaypalError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  if (transfer.isPending) return <PageShell><LoadingState /></PageShell>;
  if (transfer.isError || !transfer.data) {
    return (
      <PageShell width="narrow">
        <Alert variant="destructive">{transfer.error?.message ?? t('common:errors.notFound')}</Alert>
        <Button asChild variant="outline" className="mt-4"><Link to="/history">{t('pay.toHistory')}</Link></Button>
      </PageShell>
    );
  }
  const tr = transfer.data;
  const total = moneyFromDecimal(tr.total, tr.currency, lng);
  const payOnPayPal = tr.paypal_checkout && tr.status === 'pending' && tr.payment_status === 'awaiting';
  const payable = awaitsPayment(tr);
  const closed = isClosed(tr.status) ? tr.status : null;

  const toPayPal = async () => {
    setLeaving(true);
    try {
      const res = await startPaypalCheckout(tr.id);
      window.location.assign(res.data.payment_url);
    } catch (err) {
      setPaypalError(isApiError(err) ? err.message : t('common:errors.generic'));
      setLeaving(false);
    }
  };

  return (
    <PageShell width="narrow">
      {closed ? <PageHeader title={t(`pay.closed.${closed}Title`)} />
        : <PageHeader title={t(payable ? 'pay.title' : 'pay.followTitle')} description={t(payable ? 'pay.description' : 'pay.followDescription')} />}
      {closed ? <ClosedNotice transfer={tr} status={closed} /> : null}
      {params.get('paypal') === 'cancelled' && !closed ? <Alert variant="warning" className="mb-4">{t('pay.paypalCancelled')}</Alert> : null}
      {tr.payment_status === 'received' ? (
        <Alert variant="success" className="mb-4 flex items-center gap-2"><CheckCircle2 aria-hidden className="size-5" />{t('pay.received')}</Alert>
      ) : null}

      <Card className="p-5 sm:p-6">
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-slate-600">{t(payable ? 'pay.amountToPay' : 'pay.total')}</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="text-2xl font-bold tabular-nums" data-testid="pay-total">{total}</span>
              {payable ? <CopyButton value={tr.total} what="amount" /> : null}
            </dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('pay.reference')}</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span className="font-mono text-2xl font-bold tracking-wide" data-testid="pay-reference">{tr.reference}</span>
              {payable ? <CopyButton value={tr.reference} what="reference" /> : null}
            </dd>
          </div>
          {!payable || tr.paypal_checkout || !tr.payment_instructions ? null : (
            <div className="sm:col-span-2">
              <dt className="text-sm text-slate-600">{t('pay.whereToPay')}</dt>
              <dd className="mt-1 flex flex-wrap items-start justify-between gap-2 rounded-md bg-slate-50 p-3">
                <span className="min-w-0 whitespace-pre-line break-words font-medium" data-testid="pay-instructions">{tr.payment_instructions}</span>
                <CopyButton value={tr.payment_instructions} what="account" />
              </dd>
              <dd className="mt-1 text-sm text-slate-700">{t('pay.quoteReference', { reference: tr.reference })}</dd>
            </div>
          )}
          <div>
            <dt className="text-sm text-slate-600">{t('pay.transfer')}</dt>
            <dd className="font-medium">{channelLabel(t, tr.source_provider)} → {channelLabel(t, tr.destination_provider)}</dd>
          </div>
          {/* One sentence of where it stands (src/core/sender-state.ts), never three badges that may disagree. */}
          <div>
            <dt className="text-sm text-slate-600">{t('pay.status')}</dt>
            <dd className="mt-1"><SenderStateLine item={tr} /></dd>
          </div>
          {tr.payment_amount ? (
            <div>
              <dt className="text-sm text-slate-600">{t('pay.paidAmount')}</dt>
              <dd className="tabular-nums">{moneyFromDecimal(tr.payment_amount, tr.currency, lng)}</dd>
            </div>
          ) : null}
          {tr.payout_reference ? (
            <div>
              <dt className="text-sm text-slate-600">{t('receipt.payoutReference')}</dt>
              <dd className="break-all font-mono">{tr.payout_reference}</dd>
            </div>
          ) : null}
          <div>
            <dt className="text-sm text-slate-600">{t('form.fee')}</dt>
            <dd className="tabular-nums">{moneyFromDecimal(tr.fee, tr.currency, lng)}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('form.theyGet')}</dt>
            <dd className="tabular-nums" data-testid="pay-payout">{moneyFromDecimal(tr.payout_amount, tr.payout_currency, lng)}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('form.rate')}</dt>
            <dd className="tabular-nums" data-testid="pay-rate">{rateText(t, { ...tr, reference_rate: tr.rate, margin: '0' }, lng, rates.data)}</dd>
          </div>
        </dl>
        <p className="mt-4 text-xs text-slate-600" data-testid="price-fixed">{t('pay.priceFixed')}</p>
      </Card>

      {payOnPayPal ? (
        <Card className="mt-6 p-5 sm:p-6">
          <p className="text-sm text-slate-700">{t('pay.paypalHint')}</p>
          {paypalError ? <Alert variant="destructive" className="mt-3">{paypalError}</Alert> : null}
          <Button className="mt-3" onClick={() => void toPayPal()} loading={leaving}>{t('pay.payWithPayPal')}</Button>
        </Card>
      ) : tr.paypal_checkout || closed || tr.payment_status !== 'awaiting' ? null : (
        // Once the money is in, no proof is asked for any more.
        <ProofCard transfer={tr} />
      )}

      <div className="mt-6 flex flex-wrap gap-3">
        <Button asChild><Link to="/history">{t('pay.toHistory')}</Link></Button>
        <Button asChild variant="outline"><Link to="/dashboard">{t('pay.toDashboard')}</Link></Button>
      </div>
    </PageShell>
  );
}
