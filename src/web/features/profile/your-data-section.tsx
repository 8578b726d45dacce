import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { Download, UserX } from 'lucide-react';
import type { MyDataExport } from '@core/api/privacy';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog';
import { Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { useToast } from '@web/components/ui/toast';
import { useSession } from '@web/lib/session';
import { errorText } from '@web/lib/translate';
import { OwnerProofFields } from './owner-proof-fields';
import { isReauthCodeSent, profileApi, type MyProfile } from './profile-api';

// A sender's own data (docs/rules/your-data.md): the download of everything held about them, and
// the closure of their account, confirmed with the owner's proof.

const FormValues = z.object({ current_password: z.string(), current_code: z.string() });

function closeFormSchema(hasPassword: boolean, codeSent: boolean) {
  return FormValues.superRefine((v, ctx) => {
    if (hasPassword && !v.current_password) ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'auth.errors.currentPasswordRequired' });
    if (codeSent && !v.current_code.trim()) ctx.addIssue({ code: 'custom', path: ['current_code'], message: 'validation.otpRequired' });
  }).transform((v) => (hasPassword ? { current_password: v.current_password } : codeSent ? { current_code: v.current_code.trim() } : {}));
}

const EMPTY = { current_password: '', current_code: '' };

/** Saves the export as a file: the browser's own download of a JSON blob. */
function saveAsFile(data: MyDataExport) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `my-data-${data.exported_at.slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function YourDataSection({ profile }: { profile: MyProfile }) {
  const { t } = useTranslation(['auth', 'common']);
  const { toast } = useToast();
  const [downloading, setDownloading] = useState(false);
  const [closing, setClosing] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      saveAsFile(await profileApi.exportMyData());
    } catch (err) {
      toast({ variant: 'destructive', title: t('yourData.downloadFailed'), description: errorText(err, t('common:errors.generic')) });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Card data-testid="your-data">
      <CardHeader>
        <CardTitle>{t('yourData.title')}</CardTitle>
        <CardDescription>
          {t('yourData.subtitle')}{' '}
          <Link to="/privacy" className="font-medium text-brand-700 underline">{t('yourData.privacyLink')}</Link>.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={() => void download()} loading={downloading} data-testid="download-my-data">
          <Download aria-hidden />
          {t('yourData.download')}
        </Button>
        <Button variant="outline" className="text-red-700" onClick={() => setClosing(true)} data-testid="close-account">
          <UserX aria-hidden />
          {t('yourData.close')}
        </Button>
      </CardContent>
      <CloseAccountDialog open={closing} onClose={() => setClosing(false)} hasPassword={profile.has_password} />
    </Card>
  );
}

/** The confirmation: what closing does, the owner's proof, and why it is refused (an unfinished transfer, money owed). */
function CloseAccountDialog({ open, onClose, hasPassword }: { open: boolean; onClose: () => void; hasPassword: boolean }) {
  const { t } = useTranslation(['auth', 'common']);
  const { toast } = useToast();
  const { logout } = useSession();
  const titleId = useId();
  const [codeSent, setCodeSent] = useState<string | null>(null);
  const form = useZodForm(closeFormSchema(hasPassword, codeSent !== null), EMPTY);

  return (
    <Dialog open={open} onOpenChange={(next) => { if (!next) onClose(); }}>
      <DialogContent aria-labelledby={titleId} data-testid="close-account-dialog">
        <DialogHeader>
          <DialogTitle id={titleId}>{t('yourData.confirmTitle')}</DialogTitle>
          <DialogDescription>{t('yourData.confirmText')}</DialogDescription>
        </DialogHeader>
        <Form
          form={form}
          onSubmit={async (body) => {
            try {
              const { message } = await profileApi.closeAccount(body);
              toast({ variant: 'success', title: t('yourData.closedTitle'), description: message });
              // The server ended every session already: forget this one and leave.
              await logout('/');
            } catch (err) {
              if (!isReauthCodeSent(err)) throw err;
              setCodeSent(errorText(err, ''));
            }
          }}
          fallbackError={t('common:errors.generic')}
          className="grid gap-4"
        >
          <OwnerProofFields password={hasPassword} codeSent={codeSent} testIdPrefix="close-account" />
          <FormError data-testid="close-account-error" />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>{t('common:actions.cancel')}</Button>
            <SubmitButton variant="destructive" busyLabel={t('yourData.closing')} data-testid="close-account-confirm">
              {t('yourData.confirm')}
            </SubmitButton>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
