import type { State } from '@core/api/geo.js';
import { AppError } from '@core/errors.js';
import type { Lang } from '@core/languages.js';
import { regionLabel } from '@core/region-names.js';
import * as repo from './repo.js';

// The address pickers' lists. A country code the data does not know names no resource.

export const countries = repo.listCountries;
export const isKnownCountry = repo.isKnownCountry;

function knownCountry(country: string): string {
  if (!repo.isKnownCountry(country)) throw new AppError('not_found');
  return country;
}

/** A country's regions, each with the name a profile keeps and the one the reader reads, in the reader's order. */
export function statesOf(country: string, lang: Lang): State[] {
  return repo.listStates(knownCountry(country))
    .map((s) => ({ id: s.id, name: s.name, label: regionLabel(country, s, lang) }))
    .sort((a, b) => a.label.localeCompare(b.label, lang));
}

/** The cities of a state, or of the whole country without one. */
export const citiesOf = (country: string, state?: string) =>
  repo.listCities(knownCountry(country), state || undefined).map((name) => ({ name }));
