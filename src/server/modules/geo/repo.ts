import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Country } from '@core/api/geo.js';

/** A region as the data names it (in English, mostly). */
export interface DataRegion { id: string; name: string }

// Countries, states and cities the app serves from its own origin, read from the
// country-state-city package's data files. Countries load on first use (about 100 kB); the cities
// file (8 MB) is read once, on the first city request, and kept as one small list per country.

const require = createRequire(import.meta.url);
const ASSETS = path.join(path.dirname(require.resolve('country-state-city/package.json')), 'lib', 'assets');
const readAsset = <T>(file: string): T => JSON.parse(readFileSync(path.join(ASSETS, file), 'utf8')) as T;

let countries: Country[] | null = null;
let countryIds: Set<string> | null = null;
let statesByCountry: Map<string, DataRegion[]> | null = null;
/** country → state id → city names (sorted); '' holds the cities of no known state. */
let citiesByCountry: Map<string, Map<string, string[]>> | null = null;

const byName = (a: string, b: string) => a.localeCompare(b, 'en');

/**
 * France's list is its regions, the level its cities are filed under: the 13 of metropolitan
 * France (Corsica's code is 20R) and the 5 overseas regions (971-976). The data also lists the 96
 * departments, Paris and Lyon's metropolis and the overseas collectivities (their own countries
 * here): mixed in, a person could not tell a region from a department, and no city is under them.
 */
const isFrenchRegion = (code: string) => /^[A-Z]{3}$/.test(code) || code === '20R' || /^97[1-6]$/.test(code);

/** The data files some departments as cities ("Département de l'Essonne"): never shown as one. */
const isCityName = (name: string) => !name.startsWith('Département ');

export function listCountries(): Country[] {
  if (!countries) {
    const raw = readAsset<Array<{ name: string; isoCode: string; flag: string; phonecode: string }>>('country.json');
    countries = raw
      .map((c) => ({ id: c.isoCode, name: c.name, emoji: c.flag, phone_code: c.phonecode.replace(/^\+/, '') }))
      .sort((a, b) => byName(a.name, b.name));
    countryIds = new Set(countries.map((c) => c.id));
  }
  return countries;
}

export function isKnownCountry(id: string): boolean {
  listCountries();
  return countryIds!.has(id.toUpperCase());
}

export function listStates(countryId: string): DataRegion[] {
  if (!statesByCountry) {
    const raw = readAsset<Array<{ name: string; isoCode: string; countryCode: string }>>('state.json');
    statesByCountry = new Map();
    for (const s of raw) {
      let list = statesByCountry.get(s.countryCode);
      if (!list) statesByCountry.set(s.countryCode, (list = []));
      if (s.countryCode === 'FR' && !isFrenchRegion(s.isoCode)) continue;
      list.push({ id: s.isoCode, name: s.name });
    }
    for (const list of statesByCountry.values()) list.sort((a, b) => byName(a.name, b.name));
  }
  return statesByCountry.get(countryId.toUpperCase()) ?? [];
}

/** The cities of a state, or of the whole country when no state is given (names, sorted, unique). */
export function listCities(countryId: string, stateId?: string): string[] {
  if (!citiesByCountry) {
    const raw = readAsset<Array<[name: string, country: string, state: string]>>('city.json');
    citiesByCountry = new Map();
    for (const [name, country, state] of raw) {
      if (!isCityName(name)) continue;
      let states = citiesByCountry.get(country);
      if (!states) citiesByCountry.set(country, (states = new Map()));
      let list = states.get(state);
      if (!list) states.set(state, (list = []));
      list.push(name);
    }
    for (const states of citiesByCountry.values()) for (const list of states.values()) list.sort(byName);
  }
  const states = citiesByCountry.get(countryId.toUpperCase());
  if (!states) return [];
  if (stateId) return states.get(stateId) ?? [];
  return [...new Set([...states.values()].flat())].sort(byName);
}
