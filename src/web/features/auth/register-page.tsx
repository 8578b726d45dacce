import { useEffect, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { RegisterSchema } from '../../../core/schemas';
import { useSession } from '../../lib/session';
import { PageShell } from '../../components/page';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { useToast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { authApi, REDIRECT_DELAY_MS } from '../../lib/auth-api';
import { LocationFields, type LocationValue } from './location-fields';
import { OAuthButtons, OrDivider } from './oauth-buttons';
import { PasswordInput, PasswordStrength } from '../../components/password-field';
import { isValidPhone, PhoneField } from '../../components/phone-field';
import { errorText, translateKey } from '../../lib/translate';
import { VerifyEmailStep } from './verify-email-step';

/** The shared schema, plus the per-country phone check the browser can make (the server makes it too). */
const FormSchema = RegisterSchema.superRefine((v, ctx) => {
  if (v.phone && !isValidPhone(v.phone)) ctx.addIssue({ code: 'custom', path: ['phone'], message: 'auth.errors.phoneInvalid' });
});
type FormInput = z.input<typeof FormSchema>;
type FormOutput = z.output<typeof FormSchema>;
type FieldName = keyof FormInput;

export default function RegisterPage() {
  const { t } = useTranslation(['auth', 'validation', 'common']);
  const { toast } = useToast();
  const { login } = useSession();
  const navigate = useNavigate();
  const [step, setStep] = useState<'form' | 'verify'>('form');
  const [pending, setPending] = useState<{ email: string; message?: string | undefined } | null>(null);
  const [formError, setFormError] = useState<{ text: string; alreadyRegistered: boolean } | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(FormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { full_name: '', phone: '', email: '', password: '', address: '', country: '', state: '', city: '' },
  });
  const { register, control, handleSubmit, formState, setError, clearErrors, watch, setValue } = form;
  const password = watch('password') ?? '';
  const location: LocationValue = { country: watch('country') ?? '', state: watch('state') ?? '', city: watch('city') ?? '' };
  const err = (name: FieldName) => translateKey(t, formState.errors[name]?.message);
  /** Spec §5: editing a field clears its error. */
  const field = (name: FieldName) => register(name, { onChange: () => clearErrors(name) });

  const signedIn = async (token: string, message: string) => {
    await login(token);
    setSuccess(message);
    timer.current = window.setTimeout(() => navigate('/'), REDIRECT_DELAY_MS);
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await authApi.register(values);
      if (answer.token) {
        await signedIn(answer.token, t('register.success'));
      } else if (answer.requiresVerification) {
        setPending({ email: values.email, message: answer.message });
        setStep('verify');
      }
    } catch (e) {
      const text = errorText(e, t('register.failed'));
      if (isApiError(e) && e.fields) {
        for (const [name, message] of Object.entries(e.fields)) {
          if (name in FormSchema.shape) setError(name as FieldName, { message });
        }
      }
      setFormError({ text, alreadyRegistered: isApiError(e) && e.status === 409 });
      toast({ variant: 'destructive', title: t('register.failedTitle'), description: text });
    }
  });

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
              <OrDivider />
              <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" data-testid="register-form">
                {formError ? (
                  <Alert variant="destructive" className="sm:col-span-2" data-testid="register-error">
                    {formError.text}{' '}
                    {formError.alreadyRegistered ? (
                      <Link to="/login" className="font-medium underline">
                        {t('register.signInInstead')}
                      </Link>
                    ) : null}
                  </Alert>
                ) : null}
                <FormField label={t('register.fullName')} error={err('full_name')} required className="sm:col-span-2">
                  <Input autoComplete="name" {...field('full_name')} />
                </FormField>
                <FormField label={t('register.email')} error={err('email')} hint={t('register.emailHint')} required className="sm:col-span-2">
                  <Input type="email" autoComplete="email" inputMode="email" {...field('email')} />
                </FormField>
                {/* The field wraps the phone input itself, so its label and error reach the input. */}
                <Controller
                  control={control}
                  name="phone"
                  render={({ field: f }) => (
                    <FormField label={t('register.phone')} error={err('phone')} required className="sm:col-span-2">
                      <PhoneField
                        value={f.value}
                        onChange={(v) => {
                          f.onChange(v);
                          clearErrors('phone');
                        }}
                        onBlur={f.onBlur}
                      />
                    </FormField>
                  )}
                />
                <div className="flex flex-col gap-2 sm:col-span-2">
                  <FormField label={t('register.password')} error={err('password')} hint={t('register.passwordHint')} required>
                    <PasswordInput autoComplete="new-password" {...field('password')} />
                  </FormField>
                  <PasswordStrength password={password} />
                </div>
                <FormField label={t('register.address')} hint={t('register.optional')} className="sm:col-span-2">
                  <Input autoComplete="street-address" {...field('address')} />
                </FormField>
                <LocationFields
                  value={location}
                  errors={{ country: err('country'), city: err('city') }}
                  onChange={(changed, next) => {
                    setValue('country', next.country);
                    setValue('state', next.state);
                    setValue('city', next.city);
                    clearErrors(changed);
                  }}
                />
                <div className="flex flex-col gap-3 sm:col-span-2">
                  <Button type="submit" size="lg" loading={formState.isSubmitting} data-testid="register-submit">
                    {formState.isSubmitting ? t('register.busy') : t('register.submit')}
                  </Button>
                  <p className="text-center text-sm text-slate-700">
                    {t('register.haveAccount')}{' '}
                    <Link to="/login" className="font-medium text-brand-700 underline-offset-4 hover:underline">
                      {t('register.signIn')}
                    </Link>
                  </p>
                </div>
              </form>
            </div>
          )}
        </CardContent>
      </Card>
    </PageShell>
  );
}
