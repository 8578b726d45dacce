import { AppError } from '@core/errors.js';
import * as repo from './repo.js';

// The address pickers' lists. A country code the data does not know names no resource.

export const countries = repo.listCountries;
export const isKnownCountry = repo.isKnownCountry;

function knownCountry(country: string): string {
  if (!repo.isKnownCountry(country)) throw new AppError('not_found');
  return country;
}

export const statesOf = (country: string) => repo.listStates(knownCountry(country));

/** The cities of a state, or of the whole country without one. */
export const citiesOf = (country: string, state?: string) =>
  repo.listCities(knownCountry(country), state || undefined).map((name) => ({ name }));
