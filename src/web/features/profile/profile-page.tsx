import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session';
import { PageHeader, PageShell } from '../../components/page';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { CodeEntry } from '../../components/code-entry';
import { PasswordInput } from '../../components/password-field';
import { isValidPhone, PhoneField } from '../../components/phone-field';
import { errorText } from '../../lib/translate';
import { isReauthCodeSent, profileApi, profileKeys, useMyProfile, type MyProfile, type OwnerProof, type ProfileSaveAnswer } from './profile-api';
import { RecipientsCard } from './recipients-card';
import { PasswordCard } from './password-card';
import { SecurityCard } from './security-card';
import { useQueryClient } from '@tanstack/react-query';

/** Spec §2 profile screen: the form, a password reset, saved recipients, statistics and security. */
export default function ProfilePage() {
  const { t } = useTranslation(['auth', 'common']);
  const { toast } = useToast();
  const profile = useMyProfile();

  // Spec §8: a load failure is a toast "Unable to load profile".
  useEffect(() => {
    if (profile.isError) {
      toast({ variant: 'destructive', title: t('profile.loadFailedTitle'), description: errorText(profile.error, t('profile.loadFailed')) });
    }
  }, [profile.isError, profile.error, t, toast]);

  return (
    <PageShell width="wide">
      <PageHeader title={t('profile.title')} description={t('profile.subtitle')} />
      {profile.isPending ? (
        <LoadingState />
      ) : profile.isError ? (
        <Alert variant="destructive">
          {errorText(profile.error, t('profile.loadFailed'))}{' '}
          <button type="button" className="font-medium underline" onClick={() => void profile.refetch()}>
            {t('common:actions.retry')}
          </button>
        </Alert>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <div className="flex min-w-0 flex-col gap-6">
            <ProfileForm profile={profile.data} />
            <RecipientsCard />
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            <StatsCard profile={profile.data} />
            <PasswordCard profile={profile.data} />
            <SecurityCard />
          </div>
        </div>
      )}
    </PageShell>
  );
}

function ProfileForm({ profile }: { profile: MyProfile }) {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const { refresh } = useSession();
  const queryClient = useQueryClient();
  const [fullName, setFullName] = useState(profile.full_name ?? '');
  const [email, setEmail] = useState(profile.email);
  const [phone, setPhone] = useState(profile.phone ?? '');
  const [errors, setErrors] = useState<{ full_name?: string; email?: string; phone?: string; current_password?: string; current_code?: string }>({});
  const [busy, setBusy] = useState(false);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  // D13: a new e-mail needs the current password, or a code the server mailed to the current address.
  const [currentPassword, setCurrentPassword] = useState('');
  const [currentCode, setCurrentCode] = useState('');
  const [codeSent, setCodeSent] = useState<string | null>(null);
  const [resendProof, setResendProof] = useState<OwnerProof | null>(null);
  const emailChanging = email.trim().toLowerCase() !== profile.email.toLowerCase();

  const saved = async (data: ProfileSaveAnswer['data']) => {
    // Merge what the server answered into the form (spec §7) and the cached profile.
    setFullName(data.full_name ?? '');
    setPhone(data.phone ?? '');
    queryClient.setQueryData<MyProfile>(profileKeys.me, (old) => (old ? { ...old, ...data } : old));
    await refresh();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const changes: { full_name?: string; phone?: string; email?: string } = {};
    const next: typeof errors = {};
    if (fullName.trim() !== (profile.full_name ?? '')) changes.full_name = fullName;
    if (phone !== (profile.phone ?? '')) changes.phone = phone;
    if (email.trim().toLowerCase() !== profile.email.toLowerCase()) changes.email = email;
    if (changes.full_name !== undefined && !fullName.trim()) next.full_name = t('validation:fullNameRequired');
    if (changes.phone !== undefined && !isValidPhone(phone)) next.phone = phone ? t('errors.phoneInvalid') : t('validation:phoneRequired');
    if (changes.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) next.email = email.trim() ? t('validation:emailInvalid') : t('validation:emailRequired');
    let proof: OwnerProof = {};
    if (changes.email !== undefined && profile.has_password) {
      if (!currentPassword) next.current_password = t('errors.currentPasswordRequired');
      proof = { current_password: currentPassword };
    } else if (changes.email !== undefined && codeSent) {
      if (!currentCode.trim()) next.current_code = t('validation:otpRequired');
      proof = { current_code: currentCode.trim() };
    }
    setErrors(next);
    if (Object.keys(next).length) return;
    if (Object.keys(changes).length === 0) {
      toast({ title: t('validation:profileUpdateEmpty') });
      return;
    }
    setBusy(true);
    try {
      const answer = await profileApi.save({ ...changes, ...proof });
      await saved(answer.data);
      setCurrentPassword('');
      setCurrentCode('');
      setCodeSent(null);
      if (answer.pending_email) {
        setPendingEmail(answer.pending_email);
        // A password proves again for "resend"; a mailed code was used up.
        setResendProof(proof.current_password ? proof : null);
        toast({ variant: 'success', title: t('profile.codeSentTitle'), description: answer.message });
      } else {
        toast({ variant: 'success', title: t('profile.savedTitle') });
      }
    } catch (err) {
      if (isReauthCodeSent(err)) {
        setCodeSent(errorText(err, ''));
        return;
      }
      if (isApiError(err) && err.fields) setErrors(err.fields);
      toast({ variant: 'destructive', title: t('profile.saveFailedTitle'), description: errorText(err, t('profile.saveFailed')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.detailsTitle')}</CardTitle>
        <CardDescription>{t('profile.detailsSubtitle')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <form onSubmit={submit} noValidate className="grid gap-4" data-testid="profile-form">
          <FormField label={t('register.fullName')} error={errors.full_name} required>
            <Input
              autoComplete="name"
              value={fullName}
              onChange={(e) => {
                setFullName(e.target.value);
                setErrors((x) => ({ ...x, full_name: undefined }));
              }}
            />
          </FormField>
          <FormField label={t('register.email')} error={errors.email} hint={t('profile.emailHint')} required>
            <Input
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setErrors((x) => ({ ...x, email: undefined }));
              }}
            />
          </FormField>
          {emailChanging && profile.has_password ? (
            <FormField label={t('profile.currentPassword')} hint={t('profile.currentPasswordHint')} error={errors.current_password} required>
              <PasswordInput
                autoComplete="current-password"
                value={currentPassword}
                data-testid="profile-current-password"
                onChange={(e) => {
                  setCurrentPassword(e.target.value);
                  setErrors((x) => ({ ...x, current_password: undefined }));
                }}
              />
            </FormField>
          ) : null}
          {emailChanging && codeSent ? (
            <FormField label={t('profile.currentCode')} hint={codeSent} error={errors.current_code} required>
              <Input
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={currentCode}
                data-testid="profile-current-code"
                onChange={(e) => {
                  setCurrentCode(e.target.value);
                  setErrors((x) => ({ ...x, current_code: undefined }));
                }}
              />
            </FormField>
          ) : null}
          <FormField label={t('register.phone')} error={errors.phone} required>
            <PhoneField
              value={phone}
              onChange={(v) => {
                setPhone(v);
                setErrors((x) => ({ ...x, phone: undefined }));
              }}
            />
          </FormField>
          <div>
            <Button type="submit" loading={busy} data-testid="profile-save">
              {busy ? t('common:states.saving') : t('common:actions.save')}
            </Button>
          </div>
        </form>
        {pendingEmail ? (
          <div className="rounded-lg border border-brand-200 bg-brand-50/50 p-4" data-testid="email-confirm">
            <h3 className="mb-3 font-semibold">{t('profile.confirmEmailTitle')}</h3>
            <CodeEntry
              description={t('profile.confirmEmailDescription', { email: pendingEmail })}
              submitLabel={t('profile.confirmEmail')}
              busyLabel={t('verify.busy')}
              failureFallback={t('validation:otpInvalid')}
              onSubmit={async (code) => {
                const answer = await profileApi.confirmEmail(pendingEmail, code);
                setPendingEmail(null);
                setResendProof(null);
                setEmail(answer.data.email);
                await saved(answer.data);
                toast({ variant: 'success', title: answer.message ?? t('profile.savedTitle') });
              }}
              onResend={resendProof ? async () => {
                try {
                  const answer = await profileApi.save({ email: pendingEmail, ...resendProof });
                  toast({ variant: 'success', title: t('verify.resentTitle'), description: answer.message });
                } catch (err) {
                  toast({ variant: 'destructive', title: t('verify.resendFailed'), description: errorText(err, t('common:errors.generic')) });
                  throw err;
                }
              } : undefined}
              onBack={() => {
                setPendingEmail(null);
                setResendProof(null);
                setEmail(profile.email);
              }}
              backLabel={t('common:actions.cancel')}
            />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function StatsCard({ profile }: { profile: MyProfile }) {
  const { t, i18n } = useTranslation('auth');
  const items = [
    { label: t('profile.stats.total'), value: String(profile.stats.total), id: 'total' },
    { label: t('profile.stats.completed'), value: String(profile.stats.completed), id: 'completed' },
    { label: t('profile.stats.pending'), value: String(profile.stats.pending), id: 'pending' },
    { label: t('profile.stats.since'), value: formatDate(profile.created_at, i18n.resolvedLanguage ?? 'en'), id: 'since' },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('profile.stats.title')}</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-4">
          {items.map((item) => (
            <div key={item.id} className="rounded-lg bg-muted p-3" data-testid={`stat-${item.id}`}>
              <dt className="text-xs font-medium text-muted-foreground">{item.label}</dt>
              <dd className="mt-1 text-xl font-semibold text-slate-900">{item.value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
