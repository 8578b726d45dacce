import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoginSchema, type Login } from '@core/schemas';
import { PasswordInput } from '@web/components/password-field';
import { Alert } from '@web/components/ui/alert';
import { CheckboxField, Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { useZodForm } from '@web/components/ui/zod-form';
import { authApi, looksSuccessful } from '@web/lib/auth-api';
import { errorText } from '@web/lib/translate';

/** The sign-in form's state: its address is read by the page too (the e-mail verification step). */
export const useLoginForm = () => useZodForm(LoginSchema, { email: '', password: '', remember: false });

interface ResetState { busy: boolean; message?: string; success?: boolean; error?: string }

/** "Forgot password": a reset asked for the e-mail typed above; without one, it says so. */
export function usePasswordReset(email: string) {
  const { t } = useTranslation(['auth', 'validation']);
  const [state, setState] = useState<ResetState>({ busy: false });
  const forgot = async () => {
    if (!email) {
      setState({ busy: false, error: t('validation:enterEmailToReset') });
      return;
    }
    setState({ busy: true });
    try {
      const { message } = await authApi.requestReset(email);
      const text = message || t('reset.sentFallback');
      setState({ busy: false, message: text, success: looksSuccessful(text) });
    } catch (err) {
      setState({ busy: false, error: errorText(err, t('reset.failed')) });
    }
  };
  /** A new address typed clears the refusal about the old one. */
  const clearError = () => state.error && setState({ busy: false });
  return { state, forgot, clearError };
}

function ResetNotice({ state }: { state: ResetState }) {
  if (state.error) return <Alert variant="destructive" data-testid="reset-error">{state.error}</Alert>;
  if (!state.message) return null;
  return <Alert variant={state.success ? 'success' : 'default'} data-testid="reset-message">{state.message}</Alert>;
}

interface PasswordSignInProps {
  form: ReturnType<typeof useLoginForm>;
  /** Kept by the page, so that its answer stays through the verification step and back. */
  reset: ReturnType<typeof usePasswordReset>;
  /** Why a sign-in waiting for its code must start again, shown above the fields. */
  restartMessage: string;
  onSubmit: (values: Login) => Promise<void>;
  onFailure: (err: unknown) => void;
}

/** The e-mail and password form, its "forgot password" link and the way to registration. */
export function PasswordSignIn({ form, reset, restartMessage, onSubmit, onFailure }: PasswordSignInProps) {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const forgotButton = (
    <button
      type="button"
      onClick={reset.forgot}
      disabled={reset.state.busy}
      className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline disabled:opacity-60"
      data-testid="forgot-password"
    >
      {reset.state.busy ? t('reset.sending') : t('login.forgot')}
    </button>
  );
  return (
    <Form form={form} onSubmit={onSubmit} onFailure={onFailure} fallbackError={t('login.failed')} className="flex flex-col gap-4" data-testid="login-form">
      <FormError data-testid="login-error" />
      {restartMessage ? <Alert variant="destructive">{restartMessage}</Alert> : null}
      <Field name="email" label={t('login.email')} required onValueChange={reset.clearError}>
        <Input type="email" inputMode="email" autoComplete="username" />
      </Field>
      <Field name="password" label={t('login.password')} required labelAction={forgotButton}>
        <PasswordInput autoComplete="current-password" />
      </Field>
      <ResetNotice state={reset.state} />
      <CheckboxField name="remember" label={t('login.remember')} />
      <SubmitButton size="lg" busyLabel={t('login.busy')} data-testid="login-submit">
        {t('login.submit')}
      </SubmitButton>
      <p className="text-center text-sm text-slate-700">
        {t('login.noAccount')}{' '}
        <Link to="/register" className="font-medium text-brand-700 underline-offset-4 hover:underline">
          {t('login.register')}
        </Link>
      </p>
    </Form>
  );
}
