import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { expandRateSet, RATE_KEYS } from '../../../core/rates.js';
import { FeeTierInputSchema, RateUpdateSchema, StatusUpdateSchema } from '../../../core/schemas.js';
import { t } from '../../i18n.js';
import { ADMIN, requireRole, STAFF } from '../../lib/guards.js';
import { HttpError, notFound } from '../../lib/http-error.js';
import type { Role } from '../auth/tokens.js';
import type { ApiModule } from '../module.js';
import { loadRates } from '../rates/repo.js';
import { transferRequestToJson } from '../transfers/serialize.js';
import { changeStatus } from '../transfers/status-service.js';
import { exportStream } from './export-csv.js';
import { AUDIT_TARGETS, createTier, deleteTier, listAudit, setRate, updateTier } from './settings-service.js';
import { StaffFilterSchema } from './staff-requests.js';
import { dailyVolume, requestCounts, userAndTierCounts } from './stats.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IdParams = z.object({ id: z.string() });

/** A malformed id names no resource: 404, like an unknown one. */
function uuidOr404(id: string): string {
  if (!UUID.test(id)) throw notFound();
  return id;
}

/** Checked on request, before the body is validated: signed out 401, wrong role 403. */
const only = (roles: readonly Role[]) => async (request: FastifyRequest) => { requireRole(request, roles); };

const VolumeQuerySchema = z.object({
  days: z.coerce.number({ error: 'admin.validation.daysRange' }).int({ error: 'admin.validation.daysRange' })
    .min(1, { error: 'admin.validation.daysRange' }).max(366, { error: 'admin.validation.daysRange' }).default(30),
});

const AuditQuerySchema = z.object({
  target_type: z.enum(AUDIT_TARGETS, { error: 'admin.validation.auditTargetInvalid' }).optional(),
  target_id: z.string({ error: 'validation.checkInput' }).max(100, { error: 'validation.tooLong' }).optional(),
  cursor: z.coerce.number({ error: 'validation.cursorInvalid' }).int({ error: 'validation.cursorInvalid' })
    .positive({ error: 'validation.cursorInvalid' }).optional(),
  limit: z.coerce.number({ error: 'validation.limitRange' }).int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' }).max(100, { error: 'validation.limitRange' }).default(50),
});

const RateBodySchema = z.object({ value: z.union([z.string(), z.number()], { error: 'validation.rateInvalid' }) });

const routes: ApiModule = async (app, { ctx }) => {
  // ---- transfer requests (staff) ----

  app.patch('/transfer-requests/:id', { onRequest: only(STAFF), schema: { params: IdParams, body: StatusUpdateSchema } }, async (request) => {
    const actor = requireRole(request, STAFF);
    const body = request.body as z.infer<typeof StatusUpdateSchema>;
    const row = await changeStatus(ctx, {
      requestId: uuidOr404((request.params as z.infer<typeof IdParams>).id),
      to: body.status,
      actor,
      as: 'staff',
      note: body.note || null,
      // D5: the payout reference is what the sender's receipt shows once the payout is done.
      payoutReference: body.status === 'completed' ? body.provider_reference || null : null,
      ...(body.expected_status ? { expectedStatus: body.expected_status } : {}),
    });
    return { data: transferRequestToJson(row) };
  });

  app.get('/transfer-requests/export.csv', { onRequest: only(STAFF), schema: { querystring: StaffFilterSchema } }, async (request, reply) => {
    const filter = request.query as z.infer<typeof StaffFilterSchema>;
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="transfer-requests-${day}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(exportStream(ctx.db, filter));
  });

  // ---- stats ----

  app.get('/admin/stats', { onRequest: only(STAFF) }, async (request) => {
    const caller = requireRole(request, STAFF);
    const requests = await requestCounts(ctx.db);
    // D2: user and tier counts are the admin's alone.
    return { data: caller.role === 'admin' ? { requests, ...(await userAndTierCounts(ctx.db)) } : { requests } };
  });

  app.get('/admin/volume', { onRequest: only(ADMIN), schema: { querystring: VolumeQuerySchema } }, async (request) => {
    const { days } = request.query as z.infer<typeof VolumeQuerySchema>;
    const { from, to, points } = await dailyVolume(ctx.db, days);
    return { data: { days, from, to, points } };
  });

  app.get('/admin/audit', { onRequest: only(ADMIN), schema: { querystring: AuditQuerySchema } }, async (request) => {
    const query = request.query as z.infer<typeof AuditQuerySchema>;
    return listAudit(ctx.db, query);
  });

  // ---- fee tiers and rates (admin): new values apply to new transfers only (D3) ----

  app.post('/fees', { onRequest: only(ADMIN), schema: { body: FeeTierInputSchema } }, async (request, reply) => {
    const actor = requireRole(request, ADMIN);
    const tier = await createTier(ctx.db, actor.profile_id, request.body as z.infer<typeof FeeTierInputSchema>);
    return reply.status(201).send({ data: tier });
  });

  app.patch('/fees/:id', { onRequest: only(ADMIN), schema: { params: IdParams, body: FeeTierInputSchema } }, async (request) => {
    const actor = requireRole(request, ADMIN);
    const id = uuidOr404((request.params as z.infer<typeof IdParams>).id);
    return { data: await updateTier(ctx.db, actor.profile_id, id, request.body as z.infer<typeof FeeTierInputSchema>) };
  });

  app.delete('/fees/:id', { onRequest: only(ADMIN), schema: { params: IdParams } }, async (request) => {
    const actor = requireRole(request, ADMIN);
    const id = uuidOr404((request.params as z.infer<typeof IdParams>).id);
    await deleteTier(ctx.db, actor.profile_id, id);
    return { data: { id, deleted: true } };
  });

  app.patch('/rates/:key', { onRequest: only(ADMIN), schema: { params: z.object({ key: z.string() }), body: RateBodySchema } }, async (request) => {
    const actor = requireRole(request, ADMIN);
    const { key } = request.params as { key: string };
    if (!(RATE_KEYS as readonly string[]).includes(key)) throw notFound();
    const parsed = RateUpdateSchema.safeParse({ key, value: (request.body as z.infer<typeof RateBodySchema>).value });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'validation.rateInvalid';
      throw new HttpError(400, message, { fields: { value: t(request.lang, message) } });
    }
    await setRate(ctx.db, actor.profile_id, parsed.data.key, parsed.data.value);
    return { data: expandRateSet(await loadRates(ctx.db)) };
  });
};
export default routes;
