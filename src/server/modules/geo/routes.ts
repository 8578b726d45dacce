import { z } from 'zod';
import { CitiesResponseSchema, CountriesResponseSchema, StatesResponseSchema } from '@core/api/geo.js';
import { replies } from '@server/lib/contract.js';
import type { ApiModule } from '../module.js';
import { citiesOf, countries, statesOf } from './service.js';

// The data only changes with a new release: browsers and proxies may keep it for a day.
const CACHE = 'public, max-age=86400';
const CountryParams = z.object({ country: z.string().max(10) });

const routes: ApiModule = async (app) => {
  app.get('/geo/countries', {
    config: { access: 'public' },
    schema: { summary: 'Every country, for address forms', response: replies({ 200: CountriesResponseSchema }) },
  }, async (_request, reply) => {
    reply.header('Cache-Control', CACHE);
    return { data: countries() };
  });

  app.get('/geo/countries/:country/states', {
    config: { access: 'public' },
    schema: { summary: 'A country\'s states or regions', params: CountryParams, response: replies({ 200: StatesResponseSchema }) },
  }, async (request, reply) => {
    const data = statesOf(request.params.country, request.lang);
    reply.header('Cache-Control', CACHE);
    // The labels follow the reader's language (its cookie, else Accept-Language).
    reply.header('Vary', 'Accept-Language, Cookie');
    return { data };
  });

  app.get('/geo/countries/:country/cities', {
    config: { access: 'public' },
    schema: {
      summary: 'A country\'s cities, or one state\'s',
      params: CountryParams,
      querystring: z.object({ state: z.string().max(10).optional() }),
      response: replies({ 200: CitiesResponseSchema }),
    },
  }, async (request, reply) => {
    const data = citiesOf(request.params.country, request.query.state);
    reply.header('Cache-Control', CACHE);
    return { data };
  });
};
export default routes;
