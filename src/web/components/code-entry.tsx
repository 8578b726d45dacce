import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH } from '../../core/schemas';
import { Alert } from './ui/alert';
import { Button } from './ui/button';
import { FormField } from './ui/form-field';
import { Input } from './ui/input';
import { errorText } from '../lib/translate';

/**
 * A 6-digit code entry (text, at most 6 characters, spec §5) with its submit, an optional resend
 * and an optional way back. `onSubmit` and `onResend` throw to show their error under the field.
 */
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
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resending, setResending] = useState(false);
  const descriptionId = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const value = code.trim();
    if (!value) return setError(t('validation:otpRequired'));
    if (!new RegExp(`^\\d{${OTP_LENGTH}}$`).test(value)) return setError(t('validation:otpFormat'));
    setBusy(true);
    setError(null);
    try {
      await onSubmit(value);
    } catch (err) {
      setError(errorText(err, failureFallback));
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    if (!onResend) return;
    setResending(true);
    try {
      await onResend();
      setCode('');
      setError(null);
    } catch {
      /* the caller reported it */
    } finally {
      setResending(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-describedby={descriptionId}>
      <p id={descriptionId} className="text-sm text-slate-700">{description}</p>
      <FormField label={t('code.label')} error={error ?? undefined} hint={t('code.hint')} required>
        <Input
          value={code}
          onChange={(e) => {
            setCode(e.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH));
            setError(null);
          }}
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          pattern="\d{6}"
          className="max-w-48 text-center font-mono text-lg tracking-[0.4em]"
          data-testid="otp-input"
          autoFocus
        />
      </FormField>
      {error ? <Alert variant="destructive" className="sr-only">{error}</Alert> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={busy} data-testid="otp-submit">
          {busy ? busyLabel : submitLabel}
        </Button>
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
    </form>
  );
}
