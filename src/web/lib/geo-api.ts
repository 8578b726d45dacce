import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CitiesResponse, CountriesResponse, StatesResponse } from '@core/api/geo';
import { api, queryString } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

// The countries, states and cities the app serves itself, loaded only where a form needs them.
// They change only with a release: cached for the whole visit.

const forever = { staleTime: Infinity, gcTime: Infinity } as const;

export function useCountries() {
  return useQuery({
    queryKey: ['geo', 'countries'],
    queryFn: async ({ signal }) => (await api<CountriesResponse>('/api/geo/countries', { signal, token: null })).data,
    ...forever,
  });
}

/** A country's regions, labelled in the current language (asked again when the language changes). */
export function useStates(country: string) {
  useTranslation();
  const lang = currentLanguage();
  return useQuery({
    queryKey: ['geo', 'states', country, lang],
    queryFn: async ({ signal }) =>
      (await api<StatesResponse>(`/api/geo/countries/${encodeURIComponent(country)}/states`, { signal, token: null })).data,
    enabled: Boolean(country),
    ...forever,
  });
}

export function useCities(country: string, state: string) {
  return useQuery({
    queryKey: ['geo', 'cities', country, state],
    queryFn: async ({ signal }) => {
      return (await api<CitiesResponse>(`/api/geo/countries/${encodeURIComponent(country)}/cities${queryString({ state })}`, { signal, token: null }))
        .data.map((c) => c.name);
    },
    enabled: Boolean(country),
    ...forever,
  });
}
