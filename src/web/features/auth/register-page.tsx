import { useEffect, useRef, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { RegisterSchema } from '@core/schemas';
import { useSession } from '@web/lib/session';
import { PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton, useFieldError } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { authApi, REDIRECT_DELAY_MS } from '@web/lib/auth-api';
import { LocationFields, type LocationValue } from './location-fields';
import { OAuthButtons } from './oauth-buttons';
import { PasswordInput, PasswordStrength } from '@web/components/password-field';
import { isValidPhone, PhoneField } from '@web/components/phone-field';
import { errorText } from '@web/lib/translate';
import { VerifyEmailStep } from './verify-email-step';

/** The shared schema, plus the per-country phone check the browser can make (the server makes it too). */
const FormSchema = RegisterSchema.superRefine((v, ctx) => {
  if (v.phone && !isValidPhone(v.phone)) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'auth.errors.phoneInvalid' });
});

export default function RegisterPage() {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const { login } = useSession();
  const navigate = useNavigate();
  const [step, setStep] = useState<'form' | 'verify'>('form');
  const [pending, setPending] = useState<{ email: string; message?: string | undefined } | null>(null);
  const [alreadyRegistered, setAlreadyRegistered] = useState(false);
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const form = useZodForm(FormSchema, { full_name: '', phone: '', email: '', password: '', address: '', country: '', state: '', city: '' });

  const signedIn = async (token: string, message: string) => {
    await login(token);
    setSuccess(message);
    timer.current = window.setTimeout(() => navigate('/dashboard'), REDIRECT_DELAY_MS);
  };

  return (
    <PageShell width="narrow">
      <Card className="mx-auto max-w-xl">
        <CardHeader>
          <p className="text-sm font-medium text-brand-700" data-testid="register-step">
            {t('register.step', { step: step === 'form' ? 1 : 2, total: 2 })}
          </p>
          <CardTitle as="h1" className="text-2xl">
            {step === 'form' ? t('register.title') : t('verify.title')}
          </CardTitle>
          {step === 'form' ? <p className="text-sm text-muted-foreground">{t('register.subtitle')}</p> : null}
        </CardHeader>
        <CardContent>
          {success ? (
            <Alert variant="success" className="mb-4" data-testid="register-success">
              {success}
            </Alert>
          ) : null}
          {step === 'verify' && pending ? (
            <VerifyEmailStep
              email={pending.email}
              message={pending.message}
              onBack={() => setStep('form')}
              backLabel={t('verify.back')}
              onVerified={async (token) => {
                toast({ variant: 'success', title: t('verify.verifiedTitle') });
                await signedIn(token, t('verify.verifiedTitle'));
              }}
            />
          ) : (
            <div>
              <OAuthButtons />
              <Form
                form={form}
                onSubmit={async (values) => {
                  setAlreadyRegistered(false);
                  // A sign-up never signs in: the code mailed to the address does.
                  const { message } = await authApi.register(values);
                  setPending({ email: values.email, message });
                  setStep('verify');
                }}
                onFailure={(e) => {
                  setAlreadyRegistered(isApiError(e) && e.code === 'email_already_registered');
                  toast({ variant: 'destructive', title: t('register.failedTitle'), description: errorText(e, t('register.failed')) });
                }}
                fallbackError={t('register.failed')}
                className="grid gap-4 sm:grid-cols-2"
                data-testid="register-form"
              >
                <FormError className="sm:col-span-2" data-testid="register-error">
                  {alreadyRegistered ? (
                    <Link to="/login" className="font-medium underline">
                      {t('register.signInInstead')}
                    </Link>
                  ) : null}
                </FormError>
                <Field name="full_name" label={t('register.fullName')} required className="sm:col-span-2">
                  <Input autoComplete="name" />
                </Field>
                <Field name="email" label={t('register.email')} hint={t('register.emailHint')} required className="sm:col-span-2">
                  <Input type="email" autoComplete="email" inputMode="email" />
                </Field>
                <Field name="phone" label={t('register.phone')} required className="sm:col-span-2">
                  {({ value, ...control }) => <PhoneField value={String(value)} defaultCountry={form.watch('country') || undefined} {...control} />}
                </Field>
                <div className="flex flex-col gap-2 sm:col-span-2">
                  <Field name="password" label={t('register.password')} hint={t('register.passwordHint')} required>
                    <PasswordInput autoComplete="new-password" />
                  </Field>
                  <PasswordStrength password={form.watch('password') ?? ''} />
                </div>
                <Field name="address" label={t('register.address')} hint={t('register.optional')} className="sm:col-span-2">
                  <Input autoComplete="street-address" />
                </Field>
                <RegisterLocation />
                <div className="flex flex-col gap-3 sm:col-span-2">
                  <SubmitButton size="lg" busyLabel={t('register.busy')} data-testid="register-submit">
                    {t('register.submit')}
                  </SubmitButton>
                  <p className="text-center text-sm text-slate-700">
                    {t('register.haveAccount')}{' '}
                    <Link to="/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                      {t('register.signIn')}
                    </Link>
                  </p>
                </div>
              </Form>
            </div>
          )}
        </CardContent>
      </Card>
    </PageShell>
  );
}

/** Country, state and city: three form values laid out by one component. */
function RegisterLocation() {
  const { watch, setValue, clearErrors } = useFormContext<z.input<typeof FormSchema>>();
  const errors = { country: useFieldError('country'), city: useFieldError('city') };
  const value: LocationValue = { country: watch('country') ?? '', state: watch('state') ?? '', city: watch('city') ?? '' };
  return (
    <LocationFields
      value={value}
      errors={errors}
      onChange={(changed, next) => {
        setValue('country', next.country);
        setValue('state', next.state);
        setValue('city', next.city);
        clearErrors(changed);
      }}
    />
  );
}
