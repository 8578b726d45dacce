import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ResetPasswordRequestSchema } from '@core/schemas';
import { useSession } from '@web/lib/session';
import { PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { authApi, isMfaChallenge, looksSuccessful } from '@web/lib/auth-api';
import { PasswordInput, PasswordStrength } from '@web/components/password-field';
import { checkNewPassword } from '@web/lib/new-password';

/**
 * /reset-password (docs/rules/accounts.md#passwords). With ?token= from the e-mailed link: choose
 * a new password (which signs out every other session and signs in here). Without it: ask for a
 * link.
 */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return <PageShell width="narrow">{token ? <ChooseNewPassword token={token} /> : <RequestLink />}</PageShell>;
}

const NewPasswordSchema = z.object({ password: z.string(), confirm: z.string() }).superRefine(checkNewPassword);

function ChooseNewPassword({ token }: { token: string }) {
  const { t } = useTranslation(['auth', 'validation']);
  const { toast } = useToast();
  const { login } = useSession();
  const navigate = useNavigate();
  const form = useZodForm(NewPasswordSchema, { password: '', confirm: '' });

  return (
    <Card className="mx-auto max-w-md">
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">{t('reset.newTitle')}</CardTitle>
        <p className="text-sm text-muted-foreground">{t('reset.newSubtitle')}</p>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          onSubmit={async ({ password }) => {
            const answer = await authApi.confirmReset(token, password);
            if (isMfaChallenge(answer)) {
              // Two-step sign-in: the new password is set; the code comes next, on the sign-in page.
              toast({ variant: 'success', title: t('reset.doneTitle'), description: answer.message });
              navigate('/login', { replace: true, state: { mfaToken: answer.mfa_token } });
              return;
            }
            await login(answer.token);
            toast({ variant: 'success', title: t('reset.doneTitle'), description: answer.message });
            navigate('/', { replace: true });
          }}
          fallbackError={t('reset.confirmFailed')}
          className="flex flex-col gap-4"
        >
          <FormError data-testid="reset-confirm-error">
            <Link to="/reset-password" className="font-medium underline">
              {t('reset.requestAnother')}
            </Link>
          </FormError>
          <div className="flex flex-col gap-2">
            <Field name="password" label={t('reset.newPassword')} required>
              <PasswordInput autoComplete="new-password" />
            </Field>
            <PasswordStrength password={form.watch('password')} />
          </div>
          <Field name="confirm" label={t('reset.confirmPassword')} required>
            <PasswordInput autoComplete="new-password" />
          </Field>
          <SubmitButton size="lg" busyLabel={t('reset.saving')}>
            {t('reset.save')}
          </SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}

function RequestLink() {
  const { t } = useTranslation(['auth', 'validation']);
  const [sent, setSent] = useState<string | null>(null);
  const form = useZodForm(ResetPasswordRequestSchema, { email: '' });

  return (
    <Card className="mx-auto max-w-md">
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">{t('reset.requestTitle')}</CardTitle>
        <p className="text-sm text-muted-foreground">{t('reset.requestSubtitle')}</p>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          onSubmit={async ({ email }) => {
            setSent(null);
            const { message } = await authApi.requestReset(email);
            setSent(message || t('reset.sentFallback'));
          }}
          fallbackError={t('reset.failed')}
          className="flex flex-col gap-4"
        >
          {sent ? <Alert variant={looksSuccessful(sent) ? 'success' : 'default'}>{sent}</Alert> : null}
          <FormError />
          <Field name="email" label={t('login.email')} required>
            <Input type="email" inputMode="email" autoComplete="email" />
          </Field>
          <SubmitButton busyLabel={t('reset.sending')}>{t('reset.send')}</SubmitButton>
          <p className="text-center text-sm">
            <Link to="/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
              {t('verify.backToLogin')}
            </Link>
          </p>
        </Form>
      </CardContent>
    </Card>
  );
}
