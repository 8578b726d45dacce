import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CheckCircle2 } from 'lucide-react';
import { awaitsPayment } from '@core/money-states';
import { senderState } from '@core/sender-state';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { SenderStateLine } from '@web/components/sender-state';
import { isApiError } from '@web/lib/api';
import { startPaypalCheckout, useTransfer } from '@web/lib/transfers';
import { ClosedNotice, isClosed } from './closed-notice';
import { CollectCard } from './collect-card';
import { ProofCard } from './proof-card';
import { RecipientCorrectionCard } from './recipient-correction-card';
import { TransferFacts } from './transfer-facts';

/**
 * The app's own payment page — amount, where to pay, the reference and the proof upload
 * (docs/rules/money-states.md#payment-states) while the payment is awaited; once the transfer is
 * rejected or cancelled, what happened instead, never how to pay.
 */
export default function PaymentPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const { t } = useTranslation(['transfer', 'common']);
  const transfer = useTransfer(id);
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
  // Held by a compliance check: nothing is to be paid until it is released (src/core/sender-state.ts).
  const held = tr.on_hold === true;
  const frozen = senderState(tr).advice === 'frozen';
  const payOnPayPal = !held && tr.paypal_checkout && tr.status === 'pending' && tr.payment_status === 'awaiting';
  const payable = !held && awaitsPayment(tr);
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
        : <PageHeader title={t(payable ? 'pay.title' : 'pay.followTitle')} description={t(payable ? 'pay.description' : held ? 'pay.heldDescription' : 'pay.followDescription')} />}
      {/* Closed with its money frozen (a confirmed match closed out): the sender's sentence and whom to ask, never a refund. */}
      {closed ? frozen ? <SenderStateLine item={tr} className="mb-4 w-full" /> : <ClosedNotice transfer={tr} status={closed} /> : null}
      {params.get('paypal') === 'cancelled' && !closed ? <Alert variant="warning" className="mb-4">{t('pay.paypalCancelled')}</Alert> : null}
      {tr.payment_status === 'received' ? (
        <Alert variant="success" className="mb-4 flex items-center gap-2"><CheckCircle2 aria-hidden className="size-5" />{t('pay.received')}</Alert>
      ) : null}

      {closed ? null : <RecipientCorrectionCard transferId={tr.id} />}
      <TransferFacts transfer={tr} payable={payable} />

      {payOnPayPal ? (
        <Card className="mt-6 p-5 sm:p-6">
          <p className="text-sm text-slate-700">{t('pay.paypalHint')}</p>
          {paypalError ? <Alert variant="destructive" className="mt-3">{paypalError}</Alert> : null}
          <Button className="mt-3" onClick={() => void toPayPal()} loading={leaving}>{t('pay.payWithPayPal')}</Button>
        </Card>
      ) : held || tr.paypal_checkout || closed || tr.payment_status !== 'awaiting' ? null : (
        // Once the money is in, no proof is asked for any more. Approving on the phone, where offered, comes first.
        <>
          <CollectCard transfer={tr} />
          <ProofCard transfer={tr} />
        </>
      )}

      <div className="mt-6 flex flex-wrap gap-3">
        <Button asChild><Link to="/history">{t('pay.toHistory')}</Link></Button>
        <Button asChild variant="outline"><Link to="/dashboard">{t('pay.toDashboard')}</Link></Button>
      </div>
    </PageShell>
  );
}
