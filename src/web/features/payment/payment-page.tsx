import { useRef, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Upload } from 'lucide-react';
import { isFinalStatus } from '../../../core/status';
import { PageHeader, PageShell } from '../../components/page';
import { Alert } from '../../components/ui/alert';
import { StatusBadge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { channelLabel, moneyFromDecimal } from '../../lib/format';
import { transferKeys, useTransfer } from '../transfer/api';
import { uploadProof } from './upload';

const MAX_BYTES = 5 * 1024 * 1024;
const ACCEPT = 'image/png,image/jpeg,image/webp,application/pdf,.png,.jpg,.jpeg,.webp,.pdf';

/** D7: the app's own payment page — amount, where to pay, the reference and the proof upload. */
export default function PaymentPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const queryClient = useQueryClient();
  const transfer = useTransfer(id);
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

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
  const closed = isFinalStatus(tr.status);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    if (!file) return setResult({ ok: false, message: t('proofMissing') });
    if (file.size > MAX_BYTES) return setResult({ ok: false, message: t('pay.tooLarge') });
    setProgress(0);
    const res = await uploadProof(tr.id, file, setProgress);
    setProgress(null);
    if (res.ok) {
      setResult({ ok: true, message: t('pay.uploaded') });
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
      void queryClient.invalidateQueries({ queryKey: transferKeys.all });
    } else {
      setResult({ ok: false, message: res.message ?? (res.status === 0 ? t('common:errors.network') : t('common:errors.generic')) });
    }
  };

  return (
    <PageShell width="narrow">
      <PageHeader title={t('pay.title')} description={t('pay.description')} />
      {params.get('paypal') === 'cancelled' ? <Alert variant="warning" className="mb-4">{t('pay.paypalCancelled')}</Alert> : null}
      {tr.payment_status === 'received' ? (
        <Alert variant="success" className="mb-4 flex items-center gap-2"><CheckCircle2 aria-hidden className="size-5" />{t('pay.received')}</Alert>
      ) : null}

      <Card className="p-5 sm:p-6">
        <dl className="grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-slate-600">{t('pay.amountToPay')}</dt>
            <dd className="text-2xl font-bold tabular-nums" data-testid="pay-total">{total}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('pay.reference')}</dt>
            <dd className="font-mono text-2xl font-bold tracking-wide" data-testid="pay-reference">{tr.reference}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-sm text-slate-600">{t('pay.whereToPay')}</dt>
            <dd className="mt-1 rounded-md bg-slate-50 p-3 font-medium" data-testid="pay-instructions">{tr.payment_instructions}</dd>
            <dd className="mt-1 text-sm text-slate-700">{t('pay.quoteReference', { reference: tr.reference })}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('pay.transfer')}</dt>
            <dd className="font-medium">{channelLabel(t, tr.source_provider)} → {channelLabel(t, tr.destination_provider)}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('pay.status')}</dt>
            <dd><StatusBadge status={tr.status}>{t(`status.${tr.status}`)}</StatusBadge></dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('form.fee')}</dt>
            <dd className="tabular-nums">{moneyFromDecimal(tr.fee, tr.currency, lng)}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-600">{t('form.theyGet')}</dt>
            <dd className="tabular-nums">{moneyFromDecimal(tr.payout_amount, tr.payout_currency, lng)}</dd>
          </div>
        </dl>
      </Card>

      <Card className="mt-6 p-5 sm:p-6">
        <h2 className="text-lg font-semibold">{t('pay.proofTitle')}</h2>
        {tr.has_proof ? <p className="mt-1 text-sm text-green-800" data-testid="pay-has-proof">{t('pay.hasProof')}</p> : null}
        {closed ? (
          <p className="mt-2 text-sm text-slate-700">{t('proofClosed')}</p>
        ) : (
          <form className="mt-3 grid gap-3" onSubmit={onSubmit} noValidate>
            <FormField label={t('pay.chooseFile')} hint={t('pay.fileHint')}>
              <Input ref={fileInput} type="file" name="file" accept={ACCEPT} data-testid="pay-file"
                onChange={(e) => { setFile(e.target.files?.[0] ?? null); setResult(null); }} />
            </FormField>
            {progress !== null ? (
              <div>
                <div role="progressbar" aria-label={t('pay.uploading')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}
                  className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
                  <div className="h-full bg-brand-700 transition-all" style={{ width: `${progress}%` }} />
                </div>
                <p className="mt-1 text-xs text-slate-700">{t('pay.progress', { percent: progress })}</p>
              </div>
            ) : null}
            {result ? <Alert variant={result.ok ? 'success' : 'destructive'} data-testid="pay-result">{result.message}</Alert> : null}
            <div>
              <Button type="submit" loading={progress !== null} data-testid="pay-upload">
                <Upload aria-hidden />
                {t('pay.upload')}
              </Button>
            </div>
          </form>
        )}
      </Card>

      <div className="mt-6 flex flex-wrap gap-3">
        <Button asChild><Link to="/history">{t('pay.toHistory')}</Link></Button>
        <Button asChild variant="outline"><Link to="/dashboard">{t('pay.toDashboard')}</Link></Button>
      </div>
    </PageShell>
  );
}
