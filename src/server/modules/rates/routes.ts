import { z } from 'zod';
import { RatesResponseSchema } from '@core/api/pricing.js';
import { RateBodySchema, RateMaxAgeSchema, RateSourcesResponseSchema } from '@core/api/rates.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { sendCached } from '@server/lib/price-cache.js';
import { readFilePart, requireBoundary, uploadFailure } from '@server/lib/uploads.js';
import type { ApiModule } from '../module.js';
import { AppError } from '@core/errors.js';
import { MAX_ECB_FILE_BYTES, importEcbRates } from './ecb.js';
import { currentRates, rateSources, setMaxAge, setRate } from './service.js';

const RateParamsSchema = z.object({ key: z.string() });

const routes: ApiModule = async (app, { ctx }) => {
  // Served from memory until an admin edits a rate (docs/decisions/016-price-cache-and-scale-out.md).
  app.get('/rates', {
    config: { access: 'public' },
    schema: { summary: 'Every exchange rate both ways, and when they were last set', response: replies({ 200: RatesResponseSchema }) },
  }, async (request, reply) =>
    sendCached(request, reply, await ctx.prices.get('rates', async () => RatesResponseSchema.parse({ data: await currentRates(ctx.db) }))));

  // The admin sets one forward rate; the answer is the whole set.
  app.patch('/rates/:key', {
    config: { access: 'admin' },
    schema: { summary: 'Sets an exchange rate (admin)', params: RateParamsSchema, body: RateBodySchema, response: replies({ 200: RatesResponseSchema }) },
  }, async (request) => ({
    data: await setRate(ctx.db, ctx.prices, actorOf(request), request.params.key, request.body.value, request.body.reference),
  }));

  // Each rate with its reference, source, margin and age; the maximum age (docs/rules/fees-and-rates.md#rate-sources).
  app.get('/rates/sources', {
    config: { access: 'admin' },
    schema: { summary: 'Each rate with its reference, source, margin and age, and the maximum age (admin)', response: replies({ 200: RateSourcesResponseSchema }) },
  }, async () => ({ data: await rateSources(ctx.db) }));

  // The ECB's reference-rate file uploaded by the admin (multipart, one part named `file`).
  app.post('/rates/ecb', {
    config: { access: 'admin' },
    schema: {
      summary: 'Imports the ECB\'s euro reference rates (eurofxref-daily.xml or eurofxref-hist-90d.xml, multipart part "file"): the latest day\'s USD rate becomes EUR→USD\'s reference (admin)',
      consumes: ['multipart/form-data'],
      response: replies({ 200: RateSourcesResponseSchema }, ['ecb_file_invalid', 'upload_incomplete']),
    },
  }, async (request) => {
    if (!request.isMultipart()) throw new AppError('ecb_file_invalid');
    requireBoundary(request);
    // Over the limit is not the ECB's file (docs/rules/fees-and-rates.md#rate-sources), as when fetched.
    const tooLarge = () => new AppError('ecb_file_invalid');
    let text: string | null = null;
    try {
      for await (const part of request.parts({ limits: { fileSize: MAX_ECB_FILE_BYTES, files: 1 } })) {
        if (part.type === 'file') {
          // Read to its end, then judged: a file cut at the limit is refused, never read cut.
          const data = await readFilePart(part, tooLarge);
          if (part.fieldname === 'file') text = data.toString('utf8');
        }
      }
    } catch (error) {
      throw uploadFailure(error, tooLarge);
    }
    if (text === null) throw new AppError('ecb_file_invalid');
    await importEcbRates(ctx.db, ctx.prices, actorOf(request), text);
    return { data: await rateSources(ctx.db) };
  });

  app.put('/rates/max-age', {
    config: { access: 'admin' },
    schema: { summary: 'Sets how old a rate may get before quotes on it are refused, in hours (admin)', body: RateMaxAgeSchema, response: replies({ 200: RateSourcesResponseSchema }) },
  }, async (request) => ({ data: await setMaxAge(ctx.db, ctx.prices, actorOf(request), request.body.hours) }));
};
export default routes;
