import { z } from 'zod';
import { notFound } from '../../lib/http-error.js';
import type { ApiModule } from '../module.js';
import { isKnownCountry, listCities, listCountries, listStates } from './data.js';

// Spec §3 picker items: countries { id, name, emoji }, states { id, name }, cities { name }.
// The data only changes with a new release: browsers and proxies may keep it for a day.
const CACHE = 'public, max-age=86400';
const CountryParams = z.object({ country: z.string().max(10) });

const routes: ApiModule = async (app) => {
  app.get('/geo/countries', async (_request, reply) => {
    reply.header('Cache-Control', CACHE);
    return { data: listCountries() };
  });

  app.get('/geo/countries/:country/states', { schema: { params: CountryParams } }, async (request, reply) => {
    if (!isKnownCountry(request.params.country)) throw notFound();
    reply.header('Cache-Control', CACHE);
    return { data: listStates(request.params.country) };
  });

  app.get('/geo/countries/:country/cities', {
    schema: { params: CountryParams, querystring: z.object({ state: z.string().max(10).optional() }) },
  }, async (request, reply) => {
    if (!isKnownCountry(request.params.country)) throw notFound();
    reply.header('Cache-Control', CACHE);
    return { data: listCities(request.params.country, request.query.state || undefined).map((name) => ({ name })) };
  });
};
export default routes;
