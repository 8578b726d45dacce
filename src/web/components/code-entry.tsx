import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { OTP_LENGTH, VerifyOtpSchema } from '@core/schemas';
import { Button } from './ui/button';
import { Field, Form, FormError, SubmitButton } from './ui/form';
import { useZodForm } from './ui/zod-form';
import { Input } from './ui/input';

/**
 * A 6-digit code entry (text, at most 6 characters) with its submit, an optional resend
 * and an optional way back. `onSubmit` throws to show its error under the field; `onResend`
 * reports its own.
 */
const CodeSchema = z.object({ otp: VerifyOtpSchema.shape.otp });

export function CodeEntry({
  description,
  submitLabel,
  busyLabel,
  onSubmit,
  onResend,
  onBack,
  backLabel,
  failureFallback,
}: {
  description: ReactNode;
  submitLabel: string;
  busyLabel: string;
  onSubmit: (code: string) => Promise<void>;
  onResend?: () => Promise<void>;
  onBack?: () => void;
  backLabel?: string;
  failureFallback: string;
}) {
  const { t } = useTranslation(['auth', 'validation']);
  const form = useZodForm(CodeSchema, { otp: '' });
  const [resending, setResending] = useState(false);
  const descriptionId = useId();

  const resend = async () => {
    if (!onResend) return;
    setResending(true);
    try {
      await onResend();
      form.reset({ otp: '' });
    } catch {
      /* the caller reported it */
    } finally {
      setResending(false);
    }
  };

  return (
    <Form
      form={form}
      onSubmit={({ otp }) => onSubmit(otp)}
      fallbackError={failureFallback}
      className="flex flex-col gap-5"
      aria-describedby={descriptionId}
    >
      <p id={descriptionId} className="text-sm text-slate-700">{description}</p>
      <div className="flex flex-col gap-2">
        <Field name="otp" label={t('code.label')} hint={t('code.hint')} required parse={(text) => text.replace(/\D/g, '').slice(0, OTP_LENGTH)}>
          <Input
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={OTP_LENGTH}
            pattern="\d{6}"
            className="max-w-48 text-center font-mono text-lg tracking-[0.4em]"
            data-testid="otp-input"
            autoFocus
          />
        </Field>
        <FormError />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton busyLabel={busyLabel} data-testid="otp-submit">
          {submitLabel}
        </SubmitButton>
        {onResend ? (
          <Button type="button" variant="outline" onClick={resend} loading={resending}>
            {resending ? t('code.resending') : t('code.resend')}
          </Button>
        ) : null}
        {onBack ? (
          <Button type="button" variant="ghost" onClick={onBack}>
            {backLabel}
          </Button>
        ) : null}
      </div>
    </Form>
  );
}
