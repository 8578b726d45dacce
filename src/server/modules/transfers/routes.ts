import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import { CursorQuerySchema } from '../../../core/schemas.js';
import { isFinalStatus, isStaff } from '../../../core/status.js';
import { requireUser } from '../../lib/guards.js';
import { HttpError, badRequest, notFound } from '../../lib/http-error.js';
import { listStaffRequests } from '../admin/staff-requests.js';
import type { AuthUser } from '../auth/tokens.js';
import type { ApiModule } from '../module.js';
import { paymentInstructions, usesPayPal } from '../payments/service.js';
import { addProof, checkProofLimits, findProof } from './proofs.js';
import { countOwnByStatus, findRequest, listOwnRequests, listOwnTransactions, requestExtras } from './repo.js';
import { historyToJson, transferRequestToJson } from './serialize.js';
import { changeStatus } from './status-service.js';

const ListQuerySchema = CursorQuerySchema.extend({
  open: z.enum(['true', 'false'], { error: 'validation.checkInput' }).optional(),
});
const IdParams = z.object({ id: z.string() });
const ProofParams = z.object({ id: z.string(), proofId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Proofs of payment by what the bytes are, never by the name or the declared type. */
const PROOF_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'application/pdf']);

const signedIn = async (request: FastifyRequest) => { requireUser(request); };

const routes: ApiModule = async (app, { ctx }) => {
  /** The request if the caller owns it (or is staff, when allowed); "not found" for anyone else. */
  async function visibleRequest(user: AuthUser, id: string, staffToo: boolean) {
    const row = await findRequest(ctx.db, id);
    if (!row || (row.profile_id !== user.profile_id && !(staffToo && isStaff(user.role)))) throw notFound();
    return row;
  }

  app.get('/transactions', { preValidation: signedIn, schema: { querystring: ListQuerySchema } }, async (request) => {
    const user = requireUser(request);
    const { open, ...query } = request.query;
    return listOwnTransactions(ctx.db, user.profile_id, { ...query, open: open === 'true' });
  });

  app.get('/transactions/summary', async (request) => {
    const user = requireUser(request);
    const counts = await countOwnByStatus(ctx.db, user.profile_id);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return { data: { total, pending: counts.pending ?? 0, processing: counts.processing ?? 0, completed: counts.completed ?? 0, rejected: counts.rejected ?? 0, cancelled: counts.cancelled ?? 0 } };
  });

  // Staff get the back office's list with its own filters; a sender gets their own requests.
  app.get('/transfer-requests', { preValidation: signedIn, schema: { querystring: z.record(z.string(), z.string()) } }, async (request) => {
    const user = requireUser(request);
    if (isStaff(user.role)) return listStaffRequests(ctx, request.query);
    const parsed = ListQuerySchema.safeParse(request.query);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'errors.badInput');
    const { open, ...query } = parsed.data;
    const { rows, next_cursor } = await listOwnRequests(ctx.db, user.profile_id, { ...query, open: open === 'true' });
    return { data: rows.map((r) => transferRequestToJson(r.row)), next_cursor };
  });

  app.get('/transfer-requests/:id', { schema: { params: IdParams } }, async (request) => {
    const user = requireUser(request);
    const row = await visibleRequest(user, request.params.id, true);
    const extras = await requestExtras(ctx.db, row.id);
    return {
      data: {
        ...transferRequestToJson(row),
        history: extras.history.map(historyToJson),
        has_proof: extras.proofs.length > 0,
        proofs: extras.proofs,
        transaction_id: extras.transaction_id,
        payment_instructions: paymentInstructions(ctx, row.source_provider),
        /** D7: paid through PayPal's checkout rather than by hand. */
        paypal_checkout: usesPayPal(ctx, row),
      },
    };
  });

  app.post('/transfer-requests/:id/cancel', { schema: { params: IdParams } }, async (request) => {
    const user = requireUser(request);
    await visibleRequest(user, request.params.id, false);
    const row = await changeStatus(ctx, { requestId: request.params.id, to: 'cancelled', actor: user, as: 'owner' });
    return { data: transferRequestToJson(row) };
  });

  app.post('/transfer-requests/:id/proof', { schema: { params: IdParams } }, async (request, reply) => {
    const user = requireUser(request);
    const row = await visibleRequest(user, request.params.id, false);
    if (isFinalStatus(row.status)) throw new HttpError(409, 'transfer.proofClosed');
    await checkProofLimits(ctx.db, row.id, user.profile_id);
    const file = await request.file().catch(() => undefined);
    if (!file) throw badRequest('transfer.proofMissing');
    const data = await file.toBuffer();
    const type = await fileTypeFromBuffer(data);
    if (!type || !PROOF_TYPES.has(type.mime)) throw badRequest('transfer.proofType');
    const proof = await addProof(ctx.db, {
      transferRequestId: row.id, profileId: user.profile_id, mimeType: type.mime, data,
      filename: (file.filename || 'proof').replace(/[\r\n"\\/]/g, '_').slice(-120),
      sha256: createHash('sha256').update(data).digest('hex'),
    });
    return reply.status(201).send({ data: proof });
  });

  /** A proof's bytes, served as a download-safe inline file. */
  async function sendProof(reply: FastifyReply, proof: Awaited<ReturnType<typeof findProof>>) {
    if (!proof) throw notFound();
    return reply
      .header('Content-Type', proof.mime_type)
      .header('Content-Disposition', `inline; filename="${proof.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(proof.filename)}`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store')
      .send(proof.data);
  }

  app.get('/transfer-requests/:id/proof', { schema: { params: IdParams } }, async (request, reply) => {
    const row = await visibleRequest(requireUser(request), request.params.id, true);
    return sendProof(reply, await findProof(ctx.db, row.id));
  });

  app.get('/transfer-requests/:id/proofs/:proofId', { schema: { params: ProofParams } }, async (request, reply) => {
    const row = await visibleRequest(requireUser(request), request.params.id, true);
    return sendProof(reply, UUID.test(request.params.proofId) ? await findProof(ctx.db, row.id, request.params.proofId) : null);
  });
};
export default routes;
