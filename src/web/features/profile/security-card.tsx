import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LogOut, ShieldCheck } from 'lucide-react';
import { useSession } from '@web/lib/session';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog';
import { useToast } from '@web/components/ui/toast';
import { errorText } from '@web/lib/translate';
import { profileApi } from './profile-api';

/** Security card: sign out on every device (every session revoked on the server). */
export function SecurityCard() {
  const { t } = useTranslation(['auth', 'common']);
  const { toast } = useToast();
  const { logout } = useSession();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  const signOutEverywhere = async () => {
    setBusy(true);
    try {
      const { message } = await profileApi.logoutEverywhere();
      setOpen(false);
      toast({ variant: 'success', title: message });
      await logout();
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
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('profile.security.confirmTitle')}</DialogTitle>
            <DialogDescription>{t('profile.security.confirmText')}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              {t('common:actions.cancel')}
            </Button>
            <Button variant="destructive" onClick={signOutEverywhere} loading={busy} data-testid="logout-everywhere-confirm">
              {busy ? t('profile.security.busy') : t('profile.security.confirm')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
