import { z } from 'zod';
import { PaymentInitiateSchema } from '../../../core/schemas.js';
import { requireUser } from '../../lib/guards.js';
import { notFound, unauthorized } from '../../lib/http-error.js';
import type { ApiModule } from '../module.js';
import { findRequest } from '../transfers/repo.js';
import { capturePayPalReturn, findByOrder, initiatePayment, paypalCheckout } from './service.js';

const ReturnQuery = z.object({ token: z.string().max(100).optional() });
const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().trim().min(1).max(200, { error: 'transfer.idempotencyKeyTooLong' }).optional() });

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/payments/initiate', {
    // Spec §5 rule 1 comes before every field rule: a signed-out caller is told to sign in.
    preValidation: async (request) => {
      if (!request.auth) throw unauthorized('validation.signInRequired');
    },
    schema: { body: PaymentInitiateSchema, headers: IdempotencyHeaders },
  }, async (request, reply) => {
    const user = requireUser(request);
    const result = await initiatePayment(ctx, user, request.body, request.headers['idempotency-key'], request.lang);
    return reply.status(201).send(result);
  });

  // Back to PayPal's approval page for a PayPal transfer not paid yet (the owner only).
  app.post('/payments/:id/paypal', { schema: { params: z.object({ id: z.string() }) } }, async (request) => {
    const user = requireUser(request);
    const row = await findRequest(ctx.db, request.params.id);
    if (!row || row.profile_id !== user.profile_id) throw notFound();
    return { data: { payment_url: await paypalCheckout(ctx, row) } };
  });

  // PayPal sends the payer's browser back here (D7); no session header comes along, so the
  // order id is the only input and the capture happens server to server.
  app.get('/payments/paypal/return', { schema: { querystring: ReturnQuery } }, async (request, reply) => {
    const row = request.query.token ? await capturePayPalReturn(ctx, request.query.token) : null;
    return reply.redirect(row ? `/pay/${row.id}` : '/history');
  });

  app.get('/payments/paypal/cancel', { schema: { querystring: ReturnQuery } }, async (request, reply) => {
    const row = request.query.token ? await findByOrder(ctx, request.query.token) : null;
    return reply.redirect(row ? `/pay/${row.id}?paypal=cancelled` : '/history');
  });
};
export default routes;
