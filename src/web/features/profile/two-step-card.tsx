import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Smartphone } from 'lucide-react';
import { MfaCodeSchema } from '@core/schemas';
import { Button, buttonVariants } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@web/components/ui/dialog';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { mfaApi } from '@web/lib/auth-api';
import { isStaff, useSession } from '@web/lib/session';
import { profileKeys, type MyProfile } from './profile-api';

/**
 * Two-step sign-in on the profile (docs/rules/accounts.md#two-step-sign-in): on or off; set it up;
 * a sender who turned it on may turn it off with a current code or a recovery code. Staff keep it.
 */
export function TwoStepCard({ profile }: { profile: MyProfile }) {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const { refresh } = useSession();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const form = useZodForm(MfaCodeSchema, { code: '' });
  const staff = isStaff(profile);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Smartphone aria-hidden className="size-5 text-brand-700" />
          {t('mfa.cardTitle')}
        </CardTitle>
        <CardDescription data-testid="two-step-status">
          {profile.totp_enabled ? t('mfa.cardOn') : t('mfa.cardOff')} {staff ? t('mfa.cardStaff') : null}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!profile.totp_enabled ? (
          <Link to="/two-step" className={buttonVariants({ variant: 'outline' })}>
            {t('mfa.setUp')}
          </Link>
        ) : staff ? null : (
          <Button variant="outline" onClick={() => setOpen(true)}>
            {t('mfa.turnOff')}
          </Button>
        )}
      </CardContent>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('mfa.turnOff')}</DialogTitle>
            <DialogDescription>{t('mfa.turnOffDescription')}</DialogDescription>
          </DialogHeader>
          <Form
            form={form}
            onSubmit={async ({ code }) => {
              const { message } = await mfaApi.disable(code);
              setOpen(false);
              form.reset();
              toast({ variant: 'success', title: message });
              await refresh();
              await queryClient.invalidateQueries({ queryKey: profileKeys.me });
            }}
            fallbackError={t('common:errors.generic')}
            className="flex flex-col gap-4"
          >
            <FormError />
            <Field name="code" label={t('mfa.code')} required>
              <Input autoComplete="one-time-code" autoCapitalize="none" spellCheck={false} maxLength={32} />
            </Field>
            <SubmitButton variant="destructive" busyLabel={t('mfa.turningOff')}>
              {t('mfa.turnOffSubmit')}
            </SubmitButton>
          </Form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
