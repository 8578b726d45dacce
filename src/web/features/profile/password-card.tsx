import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { PasswordChangeSchema } from '../../../core/schemas';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { PasswordInput, PasswordStrength } from '../../components/password-field';
import { authApi } from '../../lib/auth-api';
import { errorText, translateKey } from '../../lib/translate';
import { isReauthCodeSent, profileApi, profileKeys, type MyProfile } from './profile-api';

type Errors = { current_password?: string; current_code?: string; password?: string; confirm?: string };

/**
 * D13: the signed-in password change, confirmed with the current password (or, for an account
 * without one, a code mailed to it); every other session ends. A reset link remains for a
 * forgotten current password.
 */
export function PasswordCard({ profile }: { profile: MyProfile }) {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const hasPassword = profile.has_password;

  const field = (name: keyof Errors, set: (v: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setErrors((x) => ({ ...x, [name]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: Errors = {};
    if (hasPassword && !current) next.current_password = t('errors.currentPasswordRequired');
    if (codeSent && !code.trim()) next.current_code = t('validation:otpRequired');
    const parsed = PasswordChangeSchema.shape.password.safeParse(password);
    if (!parsed.success) next.password = translateKey(t, parsed.error.issues[0]?.message);
    if (password !== confirm) next.confirm = t('reset.mismatch');
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      const proof = hasPassword ? { current_password: current } : codeSent ? { current_code: code.trim() } : {};
      const { message } = await profileApi.changePassword({ password, ...proof });
      toast({ variant: 'success', title: t('profile.passwordChangedTitle'), description: message });
      setCurrent('');
      setCode('');
      setCodeSent(null);
      setPassword('');
      setConfirm('');
      queryClient.setQueryData<MyProfile>(profileKeys.me, (old) => (old ? { ...old, has_password: true } : old));
    } catch (err) {
      if (isReauthCodeSent(err)) {
        setCodeSent(errorText(err, ''));
        return;
      }
      if (isApiError(err) && err.fields) setErrors(err.fields);
      toast({ variant: 'destructive', title: t('profile.passwordChangeFailed'), description: errorText(err, t('common:errors.generic')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.passwordTitle')}</CardTitle>
        <CardDescription>{hasPassword ? t('profile.changePasswordSubtitle') : t('profile.setPasswordSubtitle')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <form onSubmit={submit} noValidate className="grid gap-4" data-testid="password-form">
          {hasPassword ? (
            <FormField label={t('profile.currentPassword')} error={errors.current_password} required>
              <PasswordInput autoComplete="current-password" value={current} onChange={field('current_password', setCurrent)} />
            </FormField>
          ) : null}
          {codeSent ? (
            <FormField label={t('profile.currentCode')} hint={codeSent} error={errors.current_code} required>
              <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={field('current_code', setCode)} />
            </FormField>
          ) : null}
          <FormField label={t('profile.newPassword')} hint={t('register.passwordHint')} error={errors.password} required>
            <PasswordInput autoComplete="new-password" value={password} onChange={field('password', setPassword)} />
          </FormField>
          <PasswordStrength password={password} />
          <FormField label={t('profile.confirmPassword')} error={errors.confirm} required>
            <PasswordInput autoComplete="new-password" value={confirm} onChange={field('confirm', setConfirm)} />
          </FormField>
          <div>
            <Button type="submit" loading={busy} data-testid="password-change-submit">
              {busy ? t('profile.changingPassword') : hasPassword ? t('profile.changePassword') : t('profile.setPassword')}
            </Button>
          </div>
        </form>
        {hasPassword ? <ForgotCurrentPassword email={profile.email} /> : null}
      </CardContent>
    </Card>
  );
}

/** Spec §2/§5: a password reset link mailed to the profile's address. */
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
