import { QuoteResponseSchema, QuoteValidityResponseSchema } from '@core/api/pricing.js';
import { QuoteRequestSchema, QuoteValidityInputSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { PUBLIC_WORK_LIMIT } from '@server/lib/request-rate-limit.js';
import { checkQuote } from '../kyc/service.js';
import type { ApiModule } from '../module.js';
import { listValidity } from './repo.js';
import { makeQuote, setQuoteValidity, type QuoteAsk } from './service.js';

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/quotes', {
    config: { access: 'public', rateLimit: PUBLIC_WORK_LIMIT },
    schema: {
      summary: 'A firm price with an id and an expiry, from what the sender pays (amount) or what the recipient gets (payout): fee, total, rate, payout, the reference rate and our margin, and the corridor\'s limits; for a signed-in sender, refused over their own limits',
      body: QuoteRequestSchema, response: replies({ 200: QuoteResponseSchema }),
    },
  }, async (request) => {
    const { priced, answer } = await makeQuote(ctx, request.auth?.profile_id ?? null, request.body as QuoteAsk);
    // A signed-in sender is told of their own limits before the transfer screen (docs/rules/know-your-sender.md#limits).
    if (request.auth) await checkQuote(ctx, request.auth.profile_id, priced.quote.amount, priced.quote.currency);
    return { data: answer };
  });

  app.get('/quotes/validity', {
    config: { access: 'admin' },
    schema: { summary: 'How long each corridor\'s quotes hold, in minutes (admin)', response: replies({ 200: QuoteValidityResponseSchema }) },
  }, async () => ({ data: await listValidity(ctx.db) }));

  app.put('/quotes/validity', {
    config: { access: 'admin' },
    schema: { summary: 'Sets how long a corridor\'s quotes hold, for the quotes made after (admin, audited)', body: QuoteValidityInputSchema, response: replies({ 200: QuoteValidityResponseSchema }) },
  }, async (request) => ({ data: await setQuoteValidity(ctx.db, ctx.prices, actorOf(request), request.body) }));
};
export default routes;
