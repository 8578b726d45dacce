import { PricePreviewResponseSchema, QuoteResponseSchema, QuoteValidityResponseSchema } from '@core/api/pricing.js';
import { QuoteRequestSchema, QuoteValidityInputSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf } from '@server/lib/guards.js';
import { PUBLIC_WORK_LIMIT, TYPING_PRICE_LIMIT } from '@server/lib/request-rate-limit.js';
import { checkQuote, type SignedInSender } from '../kyc/service.js';
import type { ApiModule } from '../module.js';
import { CEILING_RETRY_MINUTES, QuoteBounds } from './bounds.js';
import { listValidity } from './repo.js';
import type { PricedQuote } from '../fees/service.js';
import { makeQuote, previewPrice, setQuoteValidity, type QuoteAsk } from './service.js';

const routes: ApiModule = async (app, { ctx }) => {
  // A signed-in sender is told of their own limits before the transfer screen, and no quote is
  // kept for a price they may not pay (docs/rules/know-your-sender.md#limits).
  const admitFor = (owner: SignedInSender | null) => (owner
    ? (priced: PricedQuote) => checkQuote(ctx, owner, priced.quote.amount, priced.quote.currency) : undefined);

  // Stored quotes bounded (docs/rules/fees-and-rates.md#a-quote-is-a-promise): QUOTES_PER_HOUR in
  // any hour, every caller together; a signed-out caller's address keeps its last open ones.
  const bounds = new QuoteBounds(ctx.db, ctx.config.QUOTES_PER_HOUR, ctx.log);

  app.post('/quotes', {
    config: { access: 'public', rateLimit: PUBLIC_WORK_LIMIT },
    schema: {
      summary: 'A firm price with an id and an expiry, from what the sender pays (amount) or what the recipient gets (payout): fee, total, rate, payout, the reference rate and our margin, and the corridor\'s limits; for a signed-in sender, refused over their own limits',
      body: QuoteRequestSchema, response: replies({ 200: QuoteResponseSchema }, ['amount_invalid', 'kyc_required', 'limit_exceeded', 'pair_unsupported', 'rate_stale']),
    },
  }, async (request, reply) => {
    try {
      await bounds.admit();
    } catch (error) {
      reply.header('Retry-After', String(CEILING_RETRY_MINUTES * 60));
      throw error;
    }
    const quote = await makeQuote(ctx, request.auth?.profile_id ?? null, request.body as QuoteAsk, admitFor(request.auth ?? null));
    await bounds.kept(request.auth ? null : request.ip, quote.id, quote.expires_at);
    return { data: quote };
  });

  app.post('/quotes/preview', {
    config: { access: 'public', rateLimit: TYPING_PRICE_LIMIT },
    schema: {
      summary: 'The price of what is being typed, as a quote gives it but stored nowhere and promised to no one (no id, no expiry): what the screens show while the sender types; the review asks a quote',
      body: QuoteRequestSchema, response: replies({ 200: PricePreviewResponseSchema }, ['amount_invalid', 'kyc_required', 'limit_exceeded', 'pair_unsupported', 'rate_stale']),
    },
  }, async (request) => {
    return { data: await previewPrice(ctx, request.body as QuoteAsk, admitFor(request.auth ?? null)) };
  });

  app.get('/quotes/validity', {
    config: { access: 'admin' },
    schema: { summary: 'How long each corridor\'s quotes hold, in minutes (admin)', response: replies({ 200: QuoteValidityResponseSchema }) },
  }, async () => ({ data: await listValidity(ctx.db) }));

  app.put('/quotes/validity', {
    config: { access: 'admin' },
    schema: { summary: 'Sets how long a corridor\'s quotes hold, for the quotes made after (admin, audited)', body: QuoteValidityInputSchema, response: replies({ 200: QuoteValidityResponseSchema }, ['not_found']) },
  }, async (request) => ({ data: await setQuoteValidity(ctx.db, ctx.prices, actorOf(request), request.body) }));
};
export default routes;
