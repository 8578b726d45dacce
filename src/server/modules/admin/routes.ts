import { z } from 'zod';
import {
  AdminFeeTierResponseSchema, DeletedResponseSchema, StaffFilterSchema, StatsResponseSchema,
  VolumeQuerySchema, VolumeResponseSchema,
} from '@core/api/admin.js';
import { IdParamsSchema } from '@core/api/common.js';
import { RatesResponseSchema } from '@core/api/pricing.js';
import { TransferRefundResponseSchema, TransferRequestResponseSchema } from '@core/api/transfers.js';
import {
  FeeTierInputSchema, FeeTierPatchSchema, PaymentRecordSchema, PayoutRecordSchema, RefundRecordSchema, StatusUpdateSchema,
} from '@core/schemas.js';
import { forRequest } from '@server/context.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { changeStatusAsStaff, recordPayment, recordPayout, refundTransfer, transferRequestToJson } from '../transfers/service.js';
import { createTier, deleteTier, exportStream, setRate, stats, updateTier, volume } from './service.js';

// The back office: staff process transfers; users, fee tiers and rates are the admin's alone.
// See docs/rules/back-office.md.

const RateParamsSchema = z.object({ key: z.string() });
const RateBodySchema = z.object({ value: z.union([z.string(), z.number()], { error: 'validation.rateInvalid' }) });

const routes: ApiModule = async (app, { ctx }) => {
  // ---- transfer requests (staff) ----

  app.patch('/transfer-requests/:id', {
    config: { access: 'staff' },
    schema: { params: IdParamsSchema, body: StatusUpdateSchema, response: replies({ 200: TransferRequestResponseSchema }) },
  }, async (request) => ({ data: await changeStatusAsStaff(forRequest(ctx, request), actorOf(request), request.params.id, request.body) }));

  // The money of a transfer (D11): each answers 409 with the reason when its state refuses it.
  app.post('/transfer-requests/:id/payment', {
    config: { access: 'staff' },
    schema: { params: IdParamsSchema, body: PaymentRecordSchema, response: replies({ 200: TransferRequestResponseSchema }) },
  }, async (request) => ({ data: transferRequestToJson(await recordPayment(ctx, actorOf(request), request.params.id, request.body, request.lang), ctx.config.publicUrl) }));

  app.post('/transfer-requests/:id/payout', {
    config: { access: 'staff' },
    schema: { params: IdParamsSchema, body: PayoutRecordSchema, response: replies({ 200: TransferRequestResponseSchema }) },
  }, async (request) => ({ data: transferRequestToJson(await recordPayout(ctx, actorOf(request), request.params.id, request.body), ctx.config.publicUrl) }));

  app.post('/transfer-requests/:id/refund', {
    config: { access: 'staff' },
    schema: { params: IdParamsSchema, body: RefundRecordSchema, response: replies({ 200: TransferRefundResponseSchema }) },
  }, async (request) => ({ data: await refundTransfer(ctx, actorOf(request), request.params.id, request.body, request.lang) }));

  app.get('/transfer-requests/export.csv', {
    config: { access: 'staff' },
    schema: { querystring: StaffFilterSchema, response: replies({ 200: z.any().describe('CSV (RFC 4180), one line per transfer request') }) },
  }, async (request, reply) => {
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="transfer-requests-${day}.csv"`)
      .send(await exportStream(ctx, actorOf(request), request.query));
  });

  // ---- counts and volume ----

  app.get('/admin/stats', {
    config: { access: 'staff' },
    schema: { response: replies({ 200: StatsResponseSchema }) },
  }, async (request) => ({ data: await stats(ctx.db, requireUser(request).role) }));

  app.get('/admin/volume', {
    config: { access: 'admin' },
    schema: { querystring: VolumeQuerySchema, response: replies({ 200: VolumeResponseSchema }) },
  }, async (request) => ({ data: await volume(ctx.db, request.query.days) }));

  // ---- fee tiers and rates (admin) ----

  app.post('/fees', {
    config: { access: 'admin' },
    schema: { body: FeeTierInputSchema, response: replies({ 201: AdminFeeTierResponseSchema }) },
  }, async (request, reply) => reply.status(201).send({ data: await createTier(ctx.db, ctx.prices, actorOf(request), request.body) }));

  app.patch('/fees/:id', {
    config: { access: 'admin' },
    schema: { params: IdParamsSchema, body: FeeTierPatchSchema, response: replies({ 200: AdminFeeTierResponseSchema }) },
  }, async (request) => ({
    data: await updateTier(ctx.db, ctx.prices, actorOf(request), request.params.id, request.body, request.lang),
  }));

  app.delete('/fees/:id', {
    config: { access: 'admin' },
    schema: { params: IdParamsSchema, response: replies({ 200: DeletedResponseSchema }) },
  }, async (request) => {
    await deleteTier(ctx.db, ctx.prices, actorOf(request), request.params.id);
    return { data: { id: request.params.id, deleted: true as const } };
  });

  app.patch('/rates/:key', {
    config: { access: 'admin' },
    schema: { params: RateParamsSchema, body: RateBodySchema, response: replies({ 200: RatesResponseSchema }) },
  }, async (request) => ({
    data: await setRate(ctx.db, ctx.prices, actorOf(request), request.params.key, request.body.value, request.lang),
  }));
};
export default routes;
