import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ProfileUpdateSchema, type ProfileUpdate } from '@core/schemas';
import { CodeEntry } from '@web/components/code-entry';
import { isValidPhone, PhoneField } from '@web/components/phone-field';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Field, Form, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { useSession } from '@web/lib/session';
import { errorText } from '@web/lib/translate';
import { OwnerProofFields } from './owner-proof-fields';
import { isReauthCodeSent, profileApi, profileKeys, type MyProfile, type OwnerProof, type ProfileSaveAnswer } from './profile-api';

const FormValues = z.object({ full_name: z.string(), email: z.string(), phone: z.string(), current_password: z.string(), current_code: z.string() });
type Values = z.infer<typeof FormValues>;

const isNewEmail = (profile: MyProfile, email: string) => email.trim().toLowerCase() !== profile.email.toLowerCase();

/** What the form changes, with the owner's proof a new e-mail needs: the PATCH body. */
function changesOf(profile: MyProfile, v: Values, codeSent: boolean): Partial<ProfileUpdate> {
  const body: Partial<ProfileUpdate> = {};
  if (v.full_name.trim() !== (profile.full_name ?? '')) body.full_name = v.full_name;
  if (v.phone !== (profile.phone ?? '')) body.phone = v.phone;
  if (isNewEmail(profile, v.email)) {
    body.email = v.email;
    if (profile.has_password) body.current_password = v.current_password;
    else if (codeSent) body.current_code = v.current_code.trim();
  }
  return body;
}

/**
 * The changed values checked by the shared ProfileUpdateSchema (its "nothing changed" rule is a
 * notice, not a field error), the phone for its country, and the current password a new e-mail needs.
 */
function profileFormSchema(profile: MyProfile, codeSent: boolean) {
  return FormValues.superRefine((v, ctx) => {
    const body = changesOf(profile, v, codeSent);
    const checked = ProfileUpdateSchema.safeParse(body);
    for (const issue of checked.error?.issues ?? []) {
      if (issue.path.length) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
    if (body.phone && !isValidPhone(body.phone)) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'auth.errors.phoneInvalid' });
    if (body.email !== undefined && profile.has_password && !v.current_password) {
      ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'auth.errors.currentPasswordRequired' });
    }
  }).transform((v) => changesOf(profile, v, codeSent));
}

/**
 * The profile's details; a new e-mail is confirmed by a code sent to it
 * (docs/rules/accounts.md#passwords).
 */
export function ProfileForm({ profile }: { profile: MyProfile }) {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const { refresh } = useSession();
  const queryClient = useQueryClient();
  const titleId = useId();
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  // Without a password, a new e-mail needs a code the server mailed to the current address.
  const [codeSent, setCodeSent] = useState<string | null>(null);
  const [resendProof, setResendProof] = useState<OwnerProof | null>(null);
  const form = useZodForm(profileFormSchema(profile, codeSent !== null), {
    full_name: profile.full_name ?? '', email: profile.email, phone: profile.phone ?? '', current_password: '', current_code: '',
  });
  const emailChanging = isNewEmail(profile, form.watch('email'));

  const saved = async (data: ProfileSaveAnswer['data']) => {
    // Merge what the server answered into the form and the cached profile.
    form.reset({ ...form.getValues(), full_name: data.full_name ?? '', phone: data.phone ?? '', current_password: '', current_code: '' });
    queryClient.setQueryData<MyProfile>(profileKeys.me, (old) => (old ? { ...old, ...data } : old));
    await refresh();
  };

  const save = async (body: Partial<ProfileUpdate>) => {
    if (body.full_name === undefined && body.phone === undefined && body.email === undefined) {
      toast({ title: t('validation:profileUpdateEmpty') });
      return;
    }
    try {
      const answer = await profileApi.save(body);
      await saved(answer.data);
      setCodeSent(null);
      if (answer.pending_email) {
        setPendingEmail(answer.pending_email);
        // A password proves again for "resend"; a mailed code was used up.
        setResendProof(body.current_password ? { current_password: body.current_password } : null);
        toast({ variant: 'success', title: t('profile.codeSentTitle'), description: answer.message });
      } else {
        toast({ variant: 'success', title: t('profile.savedTitle') });
      }
    } catch (err) {
      if (!isReauthCodeSent(err)) throw err;
      setCodeSent(errorText(err, ''));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{t('profile.detailsTitle')}</CardTitle>
        <CardDescription>{t('profile.detailsSubtitle')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <Form
          form={form}
          onSubmit={save}
          onFailure={(err) => toast({ variant: 'destructive', title: t('profile.saveFailedTitle'), description: errorText(err, t('profile.saveFailed')) })}
          fallbackError={t('profile.saveFailed')}
          className="grid gap-4"
          aria-labelledby={titleId}
          data-testid="profile-form"
        >
          <Field name="full_name" label={t('register.fullName')} required>
            <Input autoComplete="name" />
          </Field>
          <Field name="email" label={t('register.email')} hint={t('profile.emailHint')} required>
            <Input type="email" autoComplete="email" />
          </Field>
          {emailChanging ? (
            <OwnerProofFields password={profile.has_password} codeSent={codeSent} passwordHint={t('profile.currentPasswordHint')} testIdPrefix="profile" />
          ) : null}
          <Field name="phone" label={t('register.phone')} required>
            {({ value, ...control }) => <PhoneField value={String(value)} {...control} />}
          </Field>
          <div>
            <SubmitButton busyLabel={t('common:states.saving')} data-testid="profile-save">
              {t('common:actions.save')}
            </SubmitButton>
          </div>
        </Form>
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
                form.setValue('email', answer.data.email);
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
                form.setValue('email', profile.email);
              }}
              backLabel={t('common:actions.cancel')}
            />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
