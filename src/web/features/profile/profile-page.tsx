import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { formatDate } from '@web/lib/format';
import { errorText } from '@web/lib/translate';
import { useMyProfile, type MyProfile } from './profile-api';
import { IdentityCard } from './identity-card';
import { ProfileForm } from './profile-form';
import { RecipientsCard } from './recipients-card';
import { PasswordCard } from './password-card';
import { SecurityCard } from './security-card';
import { TwoStepCard } from './two-step-card';
import { YourDataSection } from './your-data-section';

/** Profile screen: the form, a password reset, saved recipients, statistics and security. */
export default function ProfilePage() {
  const { t } = useTranslation(['auth', 'common', 'transfer']);
  const { toast } = useToast();
  const profile = useMyProfile();

  // A load failure is a toast "Unable to load profile".
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
            <IdentityCard profile={profile.data} />
            <Link to="/verify" className="font-medium text-brand-700 underline" data-testid="profile-verify-link">{t('transfer:verify.link')}</Link>
            <RecipientsCard />
          </div>
          <div className="flex min-w-0 flex-col gap-6">
            <StatsCard profile={profile.data} />
            <PasswordCard profile={profile.data} />
            <TwoStepCard profile={profile.data} />
            <SecurityCard />
            <YourDataSection profile={profile.data} />
          </div>
        </div>
      )}
    </PageShell>
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
