import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ProfileUpdateSchema } from '@core/schemas';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Field, Form, SubmitButton } from '@web/components/ui/form';
import { parseInto, useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { useToast } from '@web/components/ui/toast';
import { errorText } from '@web/lib/translate';
import { useCountries, useStates } from '@web/lib/geo-api';
import { profileApi, profileKeys, type MyProfile } from './profile-api';

// What sending money needs besides name and phone (docs/rules/know-your-sender.md#levels): the
// date of birth and the full address, shown and changed here.

const Values = z.object({ date_of_birth: z.string(), address: z.string(), city: z.string(), state: z.string(), country: z.string() });
type IdentityValues = z.infer<typeof Values>;

const identitySchema = Values.transform((v, ctx) => parseInto(ProfileUpdateSchema, {
  date_of_birth: v.date_of_birth, address: v.address, city: v.city, state: v.state, country: v.country,
}, ctx));

export function IdentityCard({ profile }: { profile: MyProfile }) {
  const { t } = useTranslation(['auth', 'common']);
  const { toast } = useToast();
  const queryClient = useQueryClient();
  const titleId = useId();
  const countries = useCountries();
  const initial: IdentityValues = {
    date_of_birth: profile.date_of_birth ?? '', address: profile.address ?? '', city: profile.city ?? '',
    state: profile.state ?? '', country: profile.country ?? '',
  };
  const form = useZodForm(identitySchema, initial);
  const country = form.watch('country');
  const state = form.watch('state');
  // The country's regions in the reader's language; the profile keeps the data's name. A name
  // typed before (or for a country without regions) stays offered as it is.
  const states = useStates(country);
  const regions = states.data ?? [];

  return (
    <Card data-testid="identity-card">
      <CardHeader>
        <CardTitle id={titleId}>{t('identity.title')}</CardTitle>
        <CardDescription>{t('identity.subtitle')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          onSubmit={async (body) => {
            const answer = await profileApi.save(body);
            queryClient.setQueryData<MyProfile>(profileKeys.me, (old) => (old ? { ...old, ...answer.data } : old));
            await queryClient.invalidateQueries({ queryKey: ['kyc'] });
            form.reset({
              date_of_birth: answer.data.date_of_birth ?? '', address: answer.data.address ?? '', city: answer.data.city ?? '',
              state: answer.data.state ?? '', country: answer.data.country ?? '',
            });
            toast({ variant: 'success', title: t('profile.savedTitle') });
          }}
          onFailure={(err) => toast({ variant: 'destructive', title: t('profile.saveFailedTitle'), description: errorText(err, t('profile.saveFailed')) })}
          fallbackError={t('profile.saveFailed')}
          className="grid gap-4"
          aria-labelledby={titleId}
          data-testid="identity-form"
        >
          <Field name="date_of_birth" label={t('identity.dateOfBirth')} hint={t('identity.dateOfBirthHint')} required>
            <Input type="date" autoComplete="bday" max={new Date().toISOString().slice(0, 10)} data-testid="identity-dob" />
          </Field>
          <Field name="address" label={t('register.address')} required>
            <Input autoComplete="street-address" data-testid="identity-address" />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field name="city" label={t('register.city')} required>
              <Input autoComplete="address-level2" data-testid="identity-city" />
            </Field>
            <Field name="state" label={t('register.stateOptional')}>
              {regions.length > 0 ? (
                <Select autoComplete="address-level1" data-testid="identity-state">
                  <option value="">{t('register.statePlaceholder')}</option>
                  {regions.map((r) => <option key={r.id} value={r.name}>{r.label}</option>)}
                  {!state || regions.some((r) => r.name === state) ? null : <option value={state}>{state}</option>}
                </Select>
              ) : (
                <Input autoComplete="address-level1" data-testid="identity-state" />
              )}
            </Field>
          </div>
          <Field name="country" label={t('register.country')} required onValueChange={() => form.setValue('state', '')}>
            <Select autoComplete="country" data-testid="identity-country">
              <option value="">{t('register.countryPlaceholder')}</option>
              {(countries.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>{c.name}</option>
              ))}
              {countries.data?.some((c) => c.id === initial.country) || !initial.country ? null : <option value={initial.country}>{initial.country}</option>}
            </Select>
          </Field>
          <div>
            <SubmitButton busyLabel={t('common:states.saving')} data-testid="identity-save">
              {t('common:actions.save')}
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
