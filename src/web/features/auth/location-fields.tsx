import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '@web/components/ui/form-field';
import { Select } from '@web/components/ui/select';
import { Combobox, type ComboOption } from './combobox';
import { useCities, useCountries, useStates } from '@web/lib/geo-api';
import { useCountryNames } from '@web/components/phone-field';

export interface LocationValue {
  /** ISO code, e.g. "GA". */
  country: string;
  /** State name ('' when none). */
  state: string;
  city: string;
}

/**
 * Register fields: a searchable country, a state depending on it (optional) and a city
 * depending on both (required; one missing from the list can be typed). Changing the country
 * resets state and city; changing the state resets the city.
 */
export function LocationFields({
  value,
  onChange,
  errors,
}: {
  value: LocationValue;
  onChange: (field: keyof LocationValue, next: LocationValue) => void;
  errors: Partial<Record<keyof LocationValue, string | undefined>>;
}) {
  const { t } = useTranslation('auth');
  const countryName = useCountryNames();
  const countries = useCountries();
  const states = useStates(value.country);
  const stateId = states.data?.find((s) => s.name === value.state)?.id ?? '';
  const cities = useCities(value.country, stateId);

  const countryOptions = useMemo<ComboOption[]>(
    () =>
      (countries.data ?? [])
        // No emoji flag: shown as an empty box where the system has no emoji font.
        .map((c) => ({ value: c.id, label: countryName(c.id) === c.id ? c.name : countryName(c.id), keywords: `${c.name} ${c.id}` }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [countries.data, countryName],
  );
  const cityOptions = useMemo<ComboOption[]>(() => (cities.data ?? []).map((name) => ({ value: name, label: name })), [cities.data]);

  return (
    <>
      <FormField label={t('register.country')} error={errors.country} required>
        <Combobox
          value={value.country}
          onChange={(country) => {
            if (country !== value.country) onChange('country', { country, state: '', city: '' });
          }}
          options={countryOptions}
          loading={countries.isPending}
          placeholder={countries.isError ? t('register.geoUnavailable') : t('register.countryPlaceholder')}
          data-testid="country-input"
        />
      </FormField>
      <FormField label={t('register.state')} hint={t('register.optional')}>
        <Select
          value={value.state}
          onChange={(e) => onChange('state', { ...value, state: e.target.value, city: '' })}
          disabled={!value.country || states.isPending || (states.data?.length ?? 0) === 0}
          data-testid="state-select"
        >
          <option value="">
            {!value.country
              ? t('register.chooseCountryFirst')
              : states.isPending
                ? t('combobox.loading')
                : (states.data?.length ?? 0) === 0
                  ? t('register.noStates')
                  : t('register.statePlaceholder')}
          </option>
          {(states.data ?? []).map((s) => (
            // The profile keeps the data's name; the reader sees it in their language.
            <option key={s.id} value={s.name}>
              {s.label}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={t('register.city')} error={errors.city} required hint={value.country && cities.data?.length === 0 ? t('register.cityType') : undefined}>
        <Combobox
          value={value.city}
          onChange={(city) => onChange('city', { ...value, city })}
          options={cityOptions}
          allowCustom
          disabled={!value.country}
          loading={Boolean(value.country) && cities.isPending}
          placeholder={value.country ? t('register.cityPlaceholder') : t('register.chooseCountryFirst')}
          data-testid="city-input"
        />
      </FormField>
    </>
  );
}
