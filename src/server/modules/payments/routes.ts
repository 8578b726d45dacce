import { z } from 'zod';
import { IdParamsSchema } from '@core/api/common.js';
import { CheckoutResponseSchema, PayPalReturnSchema } from '@core/api/payments.js';
import { forRequest } from '@server/context.js';
import { replies } from '@server/lib/contract.js';
import { requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { authorizePayPalReturn, paypalCheckout, transferOfOrder } from '../transfers/service.js';

const ReturnQuery = z.object({ token: z.string().max(100).optional() });

// The PayPal gateway: back to PayPal's approval page, and PayPal's return and cancel (the
// transfer they pay is the transfers module's).

const routes: ApiModule = async (app, { ctx }) => {
  // Back to PayPal's approval page for a PayPal transfer not paid yet (the owner only).
  app.post('/payments/:id/paypal', {
    config: { access: 'user' },
    schema: { summary: 'Back to PayPal\'s approval page, for the caller\'s PayPal transfer not paid yet', params: IdParamsSchema, response: replies({ 200: CheckoutResponseSchema }, ['paypal_not_payable', 'paypal_unavailable']) },
  }, async (request) => ({ data: { payment_url: await paypalCheckout(forRequest(ctx, request), requireUser(request), request.params.id) } }));

  // PayPal sends the payer's browser back here; no session header comes along, so the order id
  // is the only input and the authorization happens server to server.
  app.get('/payments/paypal/return', {
    config: { access: 'public' },
    schema: { summary: 'PayPal sends the payer back here: the payment is authorized and the browser goes to the transfer\'s payment page', querystring: ReturnQuery, response: replies({ 302: PayPalReturnSchema }) },
  }, async (request, reply) => {
    const row = request.query.token ? await authorizePayPalReturn(forRequest(ctx, request), request.query.token) : null;
    return reply.redirect(row ? `/pay/${row.id}` : '/history');
  });

  app.get('/payments/paypal/cancel', {
    config: { access: 'public' },
    schema: { summary: 'PayPal sends the payer back here after cancelling: the browser goes to the transfer\'s payment page', querystring: ReturnQuery, response: replies({ 302: PayPalReturnSchema }) },
  }, async (request, reply) => {
    const row = request.query.token ? await transferOfOrder(ctx, request.query.token) : null;
    return reply.redirect(row ? `/pay/${row.id}?paypal=cancelled` : '/history');
  });
};
export default routes;
