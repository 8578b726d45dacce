import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoginSchema } from '@core/schemas';
import { afterSignIn, isStaff, useSession, type SessionUser } from '@web/lib/session';
import { PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { CheckboxField, Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { authApi, isMfaChallenge, looksSuccessful, needsVerification, REDIRECT_DELAY_MS } from '@web/lib/auth-api';
import { OAuthButtons } from './oauth-buttons';
import { PasswordInput } from '@web/components/password-field';
import { errorText } from '@web/lib/translate';
import { VerifyEmailStep } from './verify-email-step';
import { MfaStep } from './mfa-step';

const OAUTH_FAILURES = [
  'oauth_unavailable', 'oauth_failed', 'oauth_cancelled', 'oauth_email_required', 'oauth_rate_limited', 'oauth_confirm_email', 'oauth_link_invalid',
] as const;
const PROVIDER_NAMES: Record<string, string> = { google: 'Google', facebook: 'Facebook' };

/** Where the guard sent them from, if it did. */
function useReturnPath(): string | null {
  const state = useLocation().state as { from?: unknown } | null;
  return typeof state?.from === 'string' && state.from.startsWith('/') && !state.from.startsWith('//') ? state.from : null;
}

/** Where to go after signing in: back where the guard sent them from, else a sender's dashboard (staff: home, as before). */
const landing = (user: SessionUser | null, returnTo: string | null) => returnTo ?? (user && !isStaff(user) ? '/dashboard' : '/');

/** A sign-in waiting for its code, handed over by the reset-password page or the provider return. */
function usePendingMfaToken(): string | null {
  const state = useLocation().state as { mfaToken?: unknown } | null;
  return typeof state?.mfaToken === 'string' ? state.mfaToken : null;
}

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const { login } = useSession();
  const navigate = useNavigate();
  const returnTo = useReturnPath();
  const [params] = useSearchParams();
  const form = useZodForm(LoginSchema, { email: '', password: '', remember: false });
  const [reset, setReset] = useState<{ busy: boolean; message?: string; success?: boolean; error?: string }>({ busy: false });
  const [verifying, setVerifying] = useState(false);
  const pendingMfaToken = usePendingMfaToken();
  const [mfaToken, setMfaToken] = useState<string | null>(pendingMfaToken);
  const [restartMessage, setRestartMessage] = useState('');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const email = form.watch('email').trim();

  // Back from Google or Facebook without a sign-in: say why (the server's redirect names it).
  const failure = params.get('error');
  const provider = PROVIDER_NAMES[params.get('provider') ?? ''] ?? 'Google';
  const oauthMessage = (OAUTH_FAILURES as readonly string[]).includes(failure ?? '') ? t(`oauth.${failure}`, { provider }) : null;

  /** The reset is asked for the e-mail typed above; without one, say so. */
  const forgot = async () => {
    if (!email) {
      setReset({ busy: false, error: t('validation:enterEmailToReset') });
      return;
    }
    setReset({ busy: true });
    try {
      const { message } = await authApi.requestReset(email);
      const text = message || t('reset.sentFallback');
      setReset({ busy: false, message: text, success: looksSuccessful(text) });
    } catch (err) {
      setReset({ busy: false, error: errorText(err, t('reset.failed')) });
    }
  };

  return (
    <PageShell width="narrow">
      <Card className="mx-auto max-w-md">
        <CardHeader>
          <CardTitle as="h1" className="text-2xl">
            {verifying ? t('verify.title') : mfaToken ? t('mfa.stepTitle') : t('login.title')}
          </CardTitle>
          {verifying || mfaToken ? null : <p className="text-sm text-muted-foreground">{t('login.subtitle')}</p>}
        </CardHeader>
        <CardContent>
          {mfaToken ? (
            <MfaStep
              mfaToken={mfaToken}
              onSignedIn={async (token) => {
                const user = await login(token);
                navigate(...afterSignIn(user, landing(user, returnTo)));
              }}
              onRestart={(message) => {
                setMfaToken(null);
                setRestartMessage(message);
              }}
            />
          ) : verifying ? (
            <div className="flex flex-col gap-4">
              {/* The step's own description says it once, with what to do: no second box. */}
              <VerifyEmailStep
                email={email}
                message={t('verify.loginDescription', { email })}
                onBack={() => {
                  setVerifying(false);
                  form.clearErrors('root');
                }}
                backLabel={t('verify.backToLogin')}
                onVerified={async (token) => {
                  const user = await login(token);
                  toast({ variant: 'success', title: t('verify.verifiedTitle') });
                  timer.current = window.setTimeout(() => navigate(landing(user, returnTo), { replace: true }), REDIRECT_DELAY_MS);
                }}
              />
            </div>
          ) : (
            <>
              {oauthMessage ? (
                <Alert variant={failure === 'oauth_confirm_email' ? 'default' : 'destructive'} className="mb-4" data-testid="oauth-error">
                  {oauthMessage}
                </Alert>
              ) : null}
              <OAuthButtons />
              <Form
                form={form}
                onSubmit={async (values) => {
                  setRestartMessage('');
                  const answer = await authApi.login(values);
                  if (isMfaChallenge(answer)) {
                    setMfaToken(answer.mfa_token);
                    return;
                  }
                  const user = await login(answer.token);
                  const [to, opts] = afterSignIn(user, landing(user, returnTo));
                  navigate(to, { replace: true, ...opts });
                }}
                onFailure={(err) => setVerifying(isApiError(err) && needsVerification(err.body))}
                fallbackError={t('login.failed')}
                className="flex flex-col gap-4"
                data-testid="login-form"
              >
                <FormError data-testid="login-error" />
                {restartMessage ? <Alert variant="destructive">{restartMessage}</Alert> : null}
                <Field name="email" label={t('login.email')} required onValueChange={() => reset.error && setReset({ busy: false })}>
                  <Input type="email" inputMode="email" autoComplete="username" />
                </Field>
                <Field
                  name="password"
                  label={t('login.password')}
                  required
                  labelAction={
                    <button
                      type="button"
                      onClick={forgot}
                      disabled={reset.busy}
                      className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline disabled:opacity-60"
                      data-testid="forgot-password"
                    >
                      {reset.busy ? t('reset.sending') : t('login.forgot')}
                    </button>
                  }
                >
                  <PasswordInput autoComplete="current-password" />
                </Field>
                {reset.error ? (
                  <Alert variant="destructive" data-testid="reset-error">
                    {reset.error}
                  </Alert>
                ) : reset.message ? (
                  <Alert variant={reset.success ? 'success' : 'default'} data-testid="reset-message">
                    {reset.message}
                  </Alert>
                ) : null}
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
            </>
          )}
        </CardContent>
      </Card>
    </PageShell>
  );
}
