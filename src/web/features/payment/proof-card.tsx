import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { isFinalStatus } from '@core/status';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { Input } from '@web/components/ui/input';
import { transferKeys, type TransferDetail } from '@web/lib/transfers';
import { uploadProof } from './upload';

const MAX_BYTES = 5 * 1024 * 1024;
const ACCEPT = 'image/png,image/jpeg,image/webp,application/pdf,.png,.jpg,.jpeg,.webp,.pdf';

/** The proof-of-payment upload, with progress and a clear result. */
export function ProofCard({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation(['transfer', 'common']);
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    if (!file) return setResult({ ok: false, message: t('proofMissing') });
    if (file.size > MAX_BYTES) return setResult({ ok: false, message: t('pay.tooLarge') });
    setProgress(0);
    const res = await uploadProof(transfer.id, file, setProgress);
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
    <Card className="mt-6 p-5 sm:p-6">
      <h2 className="text-lg font-semibold">{t('pay.proofTitle')}</h2>
      {transfer.has_proof ? <p className="mt-1 text-sm text-green-800" data-testid="pay-has-proof">{t('pay.hasProof')}</p> : null}
      {isFinalStatus(transfer.status) ? (
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
  );
}
