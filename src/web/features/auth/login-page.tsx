import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Login } from '@core/schemas';
import { afterSignIn, isStaff, useSession, type SessionUser } from '@web/lib/session';
import { PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { authApi, isMfaChallenge, needsVerification, REDIRECT_DELAY_MS } from '@web/lib/auth-api';
import { OAuthButtons } from './oauth-buttons';
import { PasswordSignIn, useLoginForm, usePasswordReset } from './password-sign-in';
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

/** Back from Google or Facebook without a sign-in: why (the server's redirect names it). */
function OAuthFailureNotice() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const failure = params.get('error');
  if (!(OAUTH_FAILURES as readonly string[]).includes(failure ?? '')) return null;
  const provider = PROVIDER_NAMES[params.get('provider') ?? ''] ?? 'Google';
  return (
    <Alert variant={failure === 'oauth_confirm_email' ? 'default' : 'destructive'} className="mb-4" data-testid="oauth-error">
      {t(`oauth.${failure}`, { provider })}
    </Alert>
  );
}

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const { login } = useSession();
  const navigate = useNavigate();
  const returnTo = useReturnPath();
  const form = useLoginForm();
  const [verifying, setVerifying] = useState(false);
  const pendingMfaToken = usePendingMfaToken();
  const [mfaToken, setMfaToken] = useState<string | null>(pendingMfaToken);
  const [restartMessage, setRestartMessage] = useState('');
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const email = form.watch('email').trim();
  const reset = usePasswordReset(email);

  const signIn = async (values: Login) => {
    setRestartMessage('');
    const answer = await authApi.login(values);
    if (isMfaChallenge(answer)) {
      setMfaToken(answer.mfa_token);
      return;
    }
    const user = await login(answer.token);
    const [to, opts] = afterSignIn(user, landing(user, returnTo));
    navigate(to, { replace: true, ...opts });
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
              <OAuthFailureNotice />
              <OAuthButtons />
              <PasswordSignIn
                form={form}
                reset={reset}
                restartMessage={restartMessage}
                onSubmit={signIn}
                onFailure={(err) => setVerifying(isApiError(err) && needsVerification(err.body))}
              />
            </>
          )}
        </CardContent>
      </Card>
    </PageShell>
  );
}
