import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ResetPasswordConfirmSchema, ResetPasswordRequestSchema } from '../../../core/schemas';
import { useSession } from '../../lib/session';
import { PageShell } from '../../components/page';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { authApi, looksSuccessful } from '../../lib/auth-api';
import { PasswordInput, PasswordStrength } from '../../components/password-field';
import { errorText, translateKey } from '../../lib/translate';

/**
 * /reset-password (D8). With ?token= from the e-mailed link: choose a new password (which signs
 * out every other session and signs in here). Without it: ask for a link.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return <PageShell width="narrow">{token ? <ChooseNewPassword token={token} /> : <RequestLink />}</PageShell>;
}

function ChooseNewPassword({ token }: { token: string }) {
  const { t } = useTranslation(['auth', 'validation']);
  const { toast } = useToast();
  const { login } = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const parsed = ResetPasswordConfirmSchema.safeParse({ token, password });
    const next: typeof errors = {};
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.path[0] === 'token') return setFailure(translateKey(t, issue.message));
      next.password = translateKey(t, issue?.message);
    }
    if (password !== confirm) next.confirm = t('reset.mismatch');
    setErrors(next);
    if (next.password || next.confirm) return;
    setBusy(true);
    try {
      const answer = await authApi.confirmReset(token, password);
      await login(answer.token);
      toast({ variant: 'success', title: t('reset.doneTitle'), description: answer.message });
      navigate('/', { replace: true });
    } catch (err) {
      setFailure(errorText(err, t('reset.confirmFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="mx-auto max-w-md">
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">{t('reset.newTitle')}</CardTitle>
        <p className="text-sm text-muted-foreground">{t('reset.newSubtitle')}</p>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {failure ? (
            <Alert variant="destructive" data-testid="reset-confirm-error">
              {failure}{' '}
              <Link to="/reset-password" className="font-medium underline">
                {t('reset.requestAnother')}
              </Link>
            </Alert>
          ) : null}
          <div className="flex flex-col gap-2">
            <FormField label={t('reset.newPassword')} error={errors.password} required>
              <PasswordInput
                autoComplete="new-password"
                value={password}
                onChange={(e) => {
                  setPassword(e.target.value);
                  setErrors((x) => ({ ...x, password: undefined }));
                }}
              />
            </FormField>
            <PasswordStrength password={password} />
          </div>
          <FormField label={t('reset.confirmPassword')} error={errors.confirm} required>
            <PasswordInput
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => {
                setConfirm(e.target.value);
                setErrors((x) => ({ ...x, confirm: undefined }));
              }}
            />
          </FormField>
          <Button type="submit" size="lg" loading={busy}>
            {busy ? t('reset.saving') : t('reset.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function RequestLink() {
  const { t } = useTranslation(['auth', 'validation']);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSent(null);
    const parsed = ResetPasswordRequestSchema.safeParse({ email });
    if (!parsed.success) return setError(translateKey(t, parsed.error.issues[0]?.message));
    setBusy(true);
    try {
      const { message } = await authApi.requestReset(parsed.data.email);
      setSent(message || t('reset.sentFallback'));
    } catch (err) {
      setError(errorText(err, t('reset.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="mx-auto max-w-md">
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">{t('reset.requestTitle')}</CardTitle>
        <p className="text-sm text-muted-foreground">{t('reset.requestSubtitle')}</p>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4">
          {sent ? <Alert variant={looksSuccessful(sent) ? 'success' : 'default'}>{sent}</Alert> : null}
          <FormField label={t('login.email')} error={error ?? undefined} required>
            <Input
              type="email"
              inputMode="email"
              autoComplete="email"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setError(null);
              }}
            />
          </FormField>
          <Button type="submit" loading={busy}>
            {busy ? t('reset.sending') : t('reset.send')}
          </Button>
          <p className="text-center text-sm">
            <Link to="/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
              {t('verify.backToLogin')}
            </Link>
          </p>
        </form>
      </CardContent>
    </Card>
  );
}
