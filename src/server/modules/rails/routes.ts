import { z } from 'zod';
import { CollectRequestSchema, CollectionResponseSchema, CollectionStatusSchema } from '@core/api/collections.js';
import { IdParamsSchema } from '@core/api/common.js';
import { BalanceWarningSchema, MobileRailParamsSchema, PayoutAttemptListSchema, RailListSchema, RailParamsSchema, RailResponseSchema, RailUpdateSchema } from '@core/api/rails.js';
import { AppError } from '@core/errors.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { PAYPAL_WEBHOOK_MAX_BYTES, paypalWebhookText } from './paypal-webhooks.js';
import { collectionStatus, listRails, payoutsOf, receiveCallback, receivePaypalWebhook, setBalanceWarning, setRailEnabled, startCollection } from './service.js';

// Payout rails (docs/rules/payout-rails.md): their state for staff, the admin's switch, a
// transfer's attempts, a sender's payment approved on their phone, and the operators' callbacks.

/** What an operator's callback is answered: its receipt, whatever it said. */
const ReceivedSchema = z.object({ received: z.literal(true) });

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/rails', {
    config: { access: 'staff' },
    schema: { summary: 'Each payout rail: configured (or the variables missing), switched on, last successful call, balance and its warning level, payouts under way and waiting for float (staff)', response: replies({ 200: RailListSchema }) },
  }, async () => ({ data: await listRails(ctx) }));

  app.put('/rails/:id', {
    config: { access: 'admin' },
    schema: {
      summary: 'Switches a payout rail on or off; payouts under way finish as they are (admin, audited)',
      params: RailParamsSchema, body: RailUpdateSchema, response: replies({ 200: RailResponseSchema }, ['rail_not_configured']),
    },
  }, async (request) => {
    const rail = await setRailEnabled(ctx, actorOf(request), request.params.id, request.body.enabled);
    if (rail === 'not_configured') throw new AppError('rail_not_configured');
    return { data: rail };
  });

  app.put('/rails/:id/balance-warning', {
    config: { access: 'admin' },
    schema: {
      summary: "Sets the balance below which a rail is shown with a warning, in the rail's currency, or none (admin, audited)",
      params: MobileRailParamsSchema, body: BalanceWarningSchema, response: replies({ 200: RailResponseSchema }),
    },
  }, async (request) => ({ data: await setBalanceWarning(ctx, actorOf(request), request.params.id, request.body.amount) }));

  app.get('/transfer-requests/:id/payouts', {
    config: { access: 'staff' },
    schema: { summary: "A transfer's payout attempts through its rail, newest first (staff)", params: IdParamsSchema, response: replies({ 200: PayoutAttemptListSchema }) },
  }, async (request) => ({ data: await payoutsOf(ctx, request.params.id) }));

  // "Approve on my phone": the sender's payment asked from their own wallet (docs/rules/payout-rails.md#collections).
  app.post('/transfer-requests/:id/collect', {
    config: { access: 'user' },
    schema: {
      summary: "Asks the operator to take the caller's transfer's total from their mobile-money wallet: they approve it on their phone, then the payment is received",
      params: IdParamsSchema, body: CollectRequestSchema,
      response: replies({ 202: CollectionResponseSchema }, ['collection_unavailable', 'collection_in_progress', 'collection_limit', 'recipient_phone_operator', 'payment_already_recorded', 'transfer_closed']),
    },
  }, async (request, reply) => {
    const collection = await startCollection(ctx, requireUser(request), request.params.id, request.body.msisdn);
    return reply.code(202).send({ data: collection });
  });

  app.get('/transfer-requests/:id/collection', {
    config: { access: 'user' },
    schema: {
      summary: "Whether the caller may approve their transfer's payment on their phone, and where their latest request stands",
      params: IdParamsSchema, response: replies({ 200: CollectionStatusSchema }),
    },
  }, async (request) => ({ data: await collectionStatus(ctx, requireUser(request), request.params.id) }));

  // The operators call these, unauthenticated and without a rate limit (an operator sends a
  // hundred a second from a few addresses): what arrives is stored and only makes us ask the
  // operator sooner about an attempt it names. MTN calls back with PUT as well as POST.
  const callbacks = [['airtel', 'POST'], ['mtn', 'POST'], ['mtn', 'PUT']] as const;
  for (const [operator, method] of callbacks) {
    app.route({
      method,
      url: `/rails/${operator}/callback`,
      config: { access: 'public' },
      // A callback is a few hundred bytes: one far larger is refused unread, never stored.
      bodyLimit: CALLBACK_MAX_BYTES,
      schema: { summary: `${operator === 'airtel' ? 'Airtel Money' : 'MTN MoMo'}'s callback (${method}): stored, then the operator is asked (operator)`, response: replies({ 200: ReceivedSchema }) },
      handler: async (request) => {
        await receiveCallback(ctx, operator, request.body, request.headers);
        return { received: true as const };
      },
    });
  }

  // PayPal's webhooks (PAYMENT.PAYOUTS-ITEM.*) are signals like the operators' callbacks: stored
  // and answered at once; PayPal is asked afterwards, by a job, whether it sent one, and only then
  // about the payout its item names (docs/rules/payout-rails.md#paypal-payouts). Its body is read
  // as the text PayPal sent and signed, and only as JSON, by a parser of a scope of its own (named
  // app too: scripts/error-codes-declared.test.ts finds routes as app.<verb>).
  await app.register(async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, paypalWebhookText);
    app.post('/rails/paypal/webhook', {
      config: { access: 'public' },
      bodyLimit: PAYPAL_WEBHOOK_MAX_BYTES,
      schema: { summary: "PayPal's payout item webhook: stored; once PayPal verifies its signature (PAYPAL_WEBHOOK_ID), PayPal is asked about the payout (operator)", response: replies({ 200: ReceivedSchema }) },
    }, async (request) => {
      await receivePaypalWebhook(ctx, typeof request.body === 'string' ? request.body : '', request.headers);
      return { received: true as const };
    });
  });
};
export default routes;

const CALLBACK_MAX_BYTES = 64 * 1024;
