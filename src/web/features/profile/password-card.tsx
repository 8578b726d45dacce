import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Field, Form, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { useToast } from '@web/components/ui/toast';
import { checkNewPassword } from '@web/lib/new-password';
import { PasswordInput, PasswordStrength } from '@web/components/password-field';
import { authApi } from '@web/lib/auth-api';
import { errorText, translateKey } from '@web/lib/translate';
import { OwnerProofFields } from './owner-proof-fields';
import { isReauthCodeSent, profileApi, profileKeys, type MyProfile } from './profile-api';

const FormValues = z.object({ current_password: z.string(), current_code: z.string(), password: z.string(), confirm: z.string() });

/** The new password typed twice, with the owner's proof: the PUT body. */
function passwordFormSchema(hasPassword: boolean, codeSent: boolean) {
  return FormValues.superRefine((v, ctx) => {
    if (hasPassword && !v.current_password) ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'auth.errors.currentPasswordRequired' });
    if (codeSent && !v.current_code.trim()) ctx.addIssue({ code: 'custom', path: ['current_code'], message: 'validation.otpRequired' });
    checkNewPassword(v, ctx);
  }).transform((v) => ({
    password: v.password,
    ...(hasPassword ? { current_password: v.current_password } : codeSent ? { current_code: v.current_code.trim() } : {}),
  }));
}

const EMPTY = { current_password: '', current_code: '', password: '', confirm: '' };

/**
 * The signed-in password change (docs/rules/accounts.md#passwords), confirmed with the current
 * password (or, for an account without one, a code mailed to it); every other session ends. A
 * reset link remains for a forgotten current password.
 */
export function PasswordCard({ profile }: { profile: MyProfile }) {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const titleId = useId();
  const [codeSent, setCodeSent] = useState<string | null>(null);
  const hasPassword = profile.has_password;
  const form = useZodForm(passwordFormSchema(hasPassword, codeSent !== null), EMPTY);

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{t('profile.passwordTitle')}</CardTitle>
        <CardDescription>{hasPassword ? t('profile.changePasswordSubtitle') : t('profile.setPasswordSubtitle')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <Form
          form={form}
          onSubmit={async (body) => {
            try {
              const { message } = await profileApi.changePassword(body);
              toast({ variant: 'success', title: t('profile.passwordChangedTitle'), description: message });
              form.reset(EMPTY);
              setCodeSent(null);
              queryClient.setQueryData<MyProfile>(profileKeys.me, (old) => (old ? { ...old, has_password: true } : old));
            } catch (err) {
              if (!isReauthCodeSent(err)) throw err;
              setCodeSent(errorText(err, ''));
            }
          }}
          onFailure={(err) => toast({ variant: 'destructive', title: t('profile.passwordChangeFailed'), description: errorText(err, t('common:errors.generic')) })}
          fallbackError={t('common:errors.generic')}
          className="grid gap-4"
          aria-labelledby={titleId}
          data-testid="password-form"
        >
          <OwnerProofFields password={hasPassword} codeSent={codeSent} />
          <Field name="password" label={t('profile.newPassword')} hint={t('register.passwordHint')} required>
            <PasswordInput autoComplete="new-password" />
          </Field>
          <PasswordStrength password={form.watch('password')} />
          <Field name="confirm" label={t('profile.confirmPassword')} required>
            <PasswordInput autoComplete="new-password" />
          </Field>
          <div>
            <SubmitButton busyLabel={t('profile.changingPassword')} data-testid="password-change-submit">
              {hasPassword ? t('profile.changePassword') : t('profile.setPassword')}
            </SubmitButton>
          </div>
        </Form>
        {hasPassword ? <ForgotCurrentPassword email={profile.email} /> : null}
      </CardContent>
    </Card>
  );
}

/** A password reset link mailed to the profile's address. */
function ForgotCurrentPassword({ email }: { email: string }) {
  const { t } = useTranslation(['auth', 'validation']);
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const request = async () => {
    if (!email.trim()) {
      toast({ variant: 'destructive', title: translateKey(t, 'validation.resetEmailRequired') });
      return;
    }
    setBusy(true);
    try {
      const { message } = await authApi.requestReset(email);
      toast({ variant: 'success', title: t('profile.resetSentTitle'), description: message || t('reset.sentFallback') });
    } catch (err) {
      toast({ variant: 'destructive', title: t('reset.failed'), description: errorText(err, t('profile.resetFailed')) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col items-start gap-2 border-t pt-4">
      <p className="text-sm text-muted-foreground">{t('profile.forgotInstead')}</p>
      <Button variant="outline" onClick={request} loading={busy} data-testid="profile-reset-password">
        {busy ? t('reset.sending') : t('profile.requestReset')}
      </Button>
    </div>
  );
}
