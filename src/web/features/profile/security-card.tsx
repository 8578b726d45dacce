import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogOut, ShieldCheck } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { useToast } from '@web/components/ui/toast';
import { errorText } from '@web/lib/translate';
import { profileApi } from './profile-api';

/**
 * Security card: sign out everywhere else (every other session revoked on the server; this one
 * stays signed in, docs/rules/accounts.md#sessions).
 */
export function SecurityCard() {
  const { t } = useTranslation(['auth', 'common']);
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const signOutEverywhere = async () => {
    setBusy(true);
    try {
      const { message } = await profileApi.logoutEverywhere();
      setOpen(false);
      toast({ variant: 'success', title: message });
    } catch (err) {
      toast({ variant: 'destructive', title: t('profile.security.failed'), description: errorText(err, t('common:errors.generic')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck aria-hidden className="size-5 text-brand-700" />
          {t('profile.security.title')}
        </CardTitle>
        <CardDescription>{t('profile.security.subtitle')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="outline" onClick={() => setOpen(true)} data-testid="logout-everywhere">
          <LogOut aria-hidden />
          {t('profile.security.everywhere')}
        </Button>
      </CardContent>
      <ConfirmDialog open={open} onKeep={() => setOpen(false)} onConfirm={() => void signOutEverywhere()} busy={busy}
        title={t('profile.security.confirmTitle')} description={t('profile.security.confirmText')}
        keepLabel={t('common:actions.cancel')} confirmLabel={busy ? t('profile.security.busy') : t('profile.security.confirm')}
        confirmTestId="logout-everywhere-confirm" />
    </Card>
  );
}
