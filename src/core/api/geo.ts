import { z } from 'zod';
import { dataOf } from './common.js';

// Answers of the address pickers: countries, their states and their cities.

/** A country: ISO code, English name, flag emoji and calling code without "+". */
const CountrySchema = z.object({ id: z.string(), name: z.string(), emoji: z.string(), phone_code: z.string() });
export type Country = z.infer<typeof CountrySchema>;

/** A state or region: `name` is the data's own (what a profile keeps), `label` the name in the reader's language. */
const StateSchema = z.object({ id: z.string(), name: z.string(), label: z.string() });
export type State = z.infer<typeof StateSchema>;

const CitySchema = z.object({ name: z.string() });

export const CountriesResponseSchema = dataOf(z.array(CountrySchema));
export type CountriesResponse = z.infer<typeof CountriesResponseSchema>;
export const StatesResponseSchema = dataOf(z.array(StateSchema));
export type StatesResponse = z.infer<typeof StatesResponseSchema>;
export const CitiesResponseSchema = dataOf(z.array(CitySchema));
export type CitiesResponse = z.infer<typeof CitiesResponseSchema>;
