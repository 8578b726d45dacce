import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Upload } from 'lucide-react';
import { z } from 'zod';
import type { WireCode } from '@core/errors';
import { PROOF_ACCEPT, proofFileError } from '@core/proof';
import { isFinalStatus } from '@core/status';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { ApiError, isApiError } from '@web/lib/api';
import { transferKeys, type TransferDetail } from '@web/lib/transfers';
import { uploadProof } from './upload';

/** The chosen file, checked against the proof rules (type, size) before it is sent. */
export const ProofFormSchema = z
  .object({ file: z.custom<File | null>((value) => value === null || (typeof value === 'object' && 'size' in value)) })
  .transform(({ file }, ctx) => {
    const error = proofFileError(file);
    if (error || !file) {
      ctx.addIssue({ code: 'custom', message: error ?? 'transfer.proofMissing', path: ['file'] });
      return z.NEVER;
    }
    return { file };
  });

/** Server refusals about the file itself (its type, its size, none sent): shown under the field. */
const FILE_ERROR_CODES: ReadonlySet<WireCode | undefined> = new Set<WireCode>(['proof_type', 'proof_missing', 'file_too_large']);

function onTheFile(error: unknown): unknown {
  if (!isApiError(error)) return error;
  return FILE_ERROR_CODES.has(error.code) ? new ApiError(error.status, error.message, { file: error.message }, error.body) : error;
}

/** The proof-of-payment upload, with progress and a clear result. */
export function ProofCard({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation(['transfer', 'common']);
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState(false);
  const form = useZodForm(ProofFormSchema, { file: null });

  return (
    <Card className="mt-6 p-5 sm:p-6">
      <h2 className="text-lg font-semibold">{t('pay.proofTitle')}</h2>
      {transfer.has_proof ? <p className="mt-1 text-sm text-green-800" data-testid="pay-has-proof">{t('pay.hasProof')}</p> : null}
      {isFinalStatus(transfer.status) ? (
        <p className="mt-2 text-sm text-slate-700">{t('proofClosed')}</p>
      ) : (
        <Form
          form={form}
          onSubmit={async ({ file }) => {
            setUploaded(false);
            setProgress(0);
            try {
              await uploadProof(transfer.id, file, setProgress);
            } catch (error) {
              throw onTheFile(error);
            } finally {
              setProgress(null);
            }
            setUploaded(true);
            form.reset();
            if (fileInput.current) fileInput.current.value = '';
            void queryClient.invalidateQueries({ queryKey: transferKeys.all });
          }}
          fallbackError={t('common:errors.generic')}
          className="mt-3 grid gap-3"
        >
          <Field name="file" label={t('pay.chooseFile')} hint={t('pay.fileHint')} onValueChange={() => setUploaded(false)}>
            {({ name, onChange, onBlur, ref }) => (
              <Input
                type="file"
                name={name}
                accept={PROOF_ACCEPT}
                data-testid="pay-file"
                ref={(element) => {
                  ref(element);
                  fileInput.current = element;
                }}
                onBlur={onBlur}
                onChange={(e) => onChange(e.target.files?.[0] ?? null)}
              />
            )}
          </Field>
          {progress !== null ? (
            <div>
              <div role="progressbar" aria-label={t('pay.uploading')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}
                className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
                <div className="h-full bg-brand-700 transition-all" style={{ width: `${progress}%` }} />
              </div>
              <p className="mt-1 text-xs text-slate-700">{t('pay.progress', { percent: progress })}</p>
            </div>
          ) : null}
          {uploaded ? <Alert variant="success" data-testid="pay-result">{t('pay.uploaded')}</Alert> : null}
          <FormError />
          <div>
            <SubmitButton data-testid="pay-upload">
              <Upload aria-hidden />
              {t('pay.upload')}
            </SubmitButton>
          </div>
        </Form>
      )}
    </Card>
  );
}
