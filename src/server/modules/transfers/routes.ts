import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { StaffFilterSchema, StaffListQuerySchema } from '@core/api/admin.js';
import { IdParamsSchema } from '@core/api/common.js';
import {
  CloseOutInputSchema, CloseOutResponseSchema, ProofResponseSchema, TransactionPageSchema, TransferDetailAnswerSchema, TransferRequestListSchema,
  StaffRequestResponseSchema, TransferRefundResponseSchema, TransferRequestResponseSchema, TransferSummaryResponseSchema,
  MessageInputSchema, NoteInputSchema, SenderMessageResponseSchema, StaffNoteResponseSchema,
} from '@core/api/transfers.js';
import { TrackingLinkResponseSchema } from '@core/api/tracking.js';
import { InitiatedResponseSchema } from '@core/api/payments.js';
import { awaitsPayment } from '@core/money-states.js';
import { MAX_PROOF_BYTES } from '@core/proof.js';
import {
  CursorQuerySchema, PaymentInitiateSchema, PaymentRecordSchema, PayoutRecordSchema, RefundRecordSchema, StatusUpdateSchema,
} from '@core/schemas.js';
import { isStaff } from '@core/status.js';
import { forRequest } from '@server/context.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import { AppError } from '@core/errors.js';
import { parseOr400 } from '@server/lib/zod-refusal.js';
import { readFilePart, requireBoundary, uploadFailure } from '@server/lib/uploads.js';
import type { ApiModule } from '../module.js';
import { approveTransfer } from './approve-transfer.js';
import { confirmCloseOut, proposeCloseOut } from './close-out.js';
import { cancelOwn, changeStatusAsStaff } from './change-status.js';
import { exportStream } from './export-transfers.js';
import { initiateTransfer } from './initiate-transfer.js';
import { listStaffRequests } from './list-staff-transfers.js';
import { addProof, checkProofUpload, proofFile } from './payment-proofs.js';
import { refundTransfer } from './refund-transfer.js';
import type { ProofRow } from './repo.js';
import { postNote } from './post-note.js';
import { recordPayment } from './record-payment.js';
import { recordPayout } from './record-payout.js';
import { replyToThread } from './reply-to-thread.js';
import { renewTracking, revokeTracking } from './tracking-link.js';
import {
  listOwnRequests, listOwnTransactions, ownSummary, paymentInstructions, transferDetail,
  transferRequestToJson, usesPayPal,
} from './service.js';

const OwnListQuerySchema = CursorQuerySchema.extend({
  open: z.enum(['true', 'false'], { error: 'validation.checkInput' }).optional(),
});
/**
 * GET /api/transfer-requests takes a sender's query or the back office's, by the caller's role:
 * the parameters are listed here for the document, and each role's schema checks them.
 */
const text = (description: string) => z.string().optional().describe(description);
const RequestListParamsSchema = z.object({
  cursor: text('The next_cursor of the previous page'),
  limit: text('Rows per page, 1 to 100 (20 when absent)'),
  status: text('One status'),
  q: text('Search: id, reference, provider reference or amount; staff also by sender and recipient'),
  open: text('Sender: "true" lists only pending and processing requests'),
  payment: text('Staff: one payment state (awaiting, authorized, received, voided, refund_due, refunded)'),
  payout: text('Staff: one payout state (not_sent, sent)'),
  direction: text('Staff: one corridor'),
  from: text('Staff: first UTC day, YYYY-MM-DD'),
  to: text('Staff: last UTC day, YYYY-MM-DD'),
  sort: text('Staff: newest (default) or oldest first'),
  needs_approval: text('Staff: "true" lists only open transfers waiting for a second staff member\'s approval'),
  action_needed: text('Staff: "true" lists only transfers waiting for their sender to answer'),
  late: text('Staff: "true" lists only open transfers past their corridor\'s expected delivery'),
  held: text('Staff: "true" lists only open transfers a compliance hold keeps from moving'),
});
const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().trim().min(1).max(200, { error: 'transfer.idempotencyKeyTooLong' }).optional() });
const ProofParamsSchema = IdParamsSchema.extend({ proofId: z.uuid() });
const PROOF_BYTES = z.any().describe('The proof as uploaded: PNG, JPEG, WebP or PDF bytes');

/** A proof's bytes, served as a download-safe inline file. */
function sendProof(reply: FastifyReply, proof: ProofRow) {
  return reply
    .header('Content-Type', proof.mime_type)
    .header('Content-Disposition', `inline; filename="${proof.filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(proof.filename)}`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cache-Control', 'private, no-store')
    .send(proof.data);
}

const routes: ApiModule = async (app, { ctx }) => {
  app.post('/payments/initiate', {
    // Signed out, the sender is told to sign in before any field is looked at.
    config: { access: 'user', signInCode: 'sign_in_required' },
    schema: { summary: 'Starts a transfer at the quoted price and says where to pay it; a repeated Idempotency-Key answers the first transfer again', body: PaymentInitiateSchema, headers: IdempotencyHeaders, response: replies({ 201: InitiatedResponseSchema }, ['amount_above_max', 'amount_below_min', 'amount_invalid', 'idempotency_mismatch', 'kyc_required', 'limit_exceeded', 'pair_unsupported', 'paypal_unavailable', 'quote_expired', 'quote_mismatch', 'quote_not_found', 'quote_used', 'rate_stale', 'recipient_phone_operator', 'unauthenticated']) },
  }, async (request, reply) => {
    const result = await initiateTransfer(forRequest(ctx, request), requireUser(request), request.body, request.headers['idempotency-key']);
    return reply.status(201).send(result);
  });

  app.get('/transactions', {
    config: { access: 'user' },
    schema: { summary: 'The caller\'s own transfers as history, newest first, a page at a time', querystring: OwnListQuerySchema, response: replies({ 200: TransactionPageSchema }, ['cursor_invalid']) },
  }, async (request) => listOwnTransactions(ctx, requireUser(request), { ...request.query, open: request.query.open === 'true' }));

  app.get('/transactions/summary', {
    config: { access: 'user' },
    schema: { summary: 'The caller\'s own transfers counted by status', response: replies({ 200: TransferSummaryResponseSchema }) },
  }, async (request) => ({ data: await ownSummary(ctx.db, requireUser(request)) }));

  // Staff get the back office's list with its own filters; a sender gets their own requests.
  app.get('/transfer-requests', {
    config: { access: 'user' },
    schema: { summary: 'A sender\'s own transfer requests, or the staff queue', querystring: RequestListParamsSchema, response: replies({ 200: TransferRequestListSchema }, ['cursor_invalid']) },
  }, async (request) => {
    const user = requireUser(request);
    if (isStaff(user.role)) return listStaffRequests(ctx, parseOr400(StaffListQuerySchema, request.query));
    const query = parseOr400(OwnListQuerySchema, request.query);
    return listOwnRequests(ctx, user, { ...query, open: query.open === 'true' });
  });

  app.get('/transfer-requests/:id', {
    config: { access: 'user' },
    schema: { summary: 'One transfer: the sender\'s own, or any for staff with its internal notes', params: IdParamsSchema, response: replies({ 200: TransferDetailAnswerSchema }) },
  }, async (request) => {
    const { row, detail } = await transferDetail(ctx, requireUser(request), request.params.id);
    // How to pay only while something is to be paid: never for a closed transfer.
    const instructions = awaitsPayment(row) ? paymentInstructions(ctx, row.source_provider) : null;
    return { data: { ...detail, payment_instructions: instructions, paypal_checkout: usesPayPal(ctx, row) } };
  });

  app.post('/transfer-requests/:id/cancel', {
    config: { access: 'user' },
    schema: { summary: 'Cancels the caller\'s own pending transfer while nothing was paid out', params: IdParamsSchema, response: replies({ 200: TransferRequestResponseSchema }, ['payout_attempt_open', 'status_update_failed']) },
  }, async (request) => ({ data: await cancelOwn(ctx, requireUser(request), request.params.id) }));

  // The transfer's thread (docs/rules/back-office.md#notes-and-action-needed): staff notes, and the sender's answers.
  app.post('/transfer-requests/:id/notes', {
    config: { access: 'staff' },
    schema: { summary: 'Adds a staff note to a transfer: internal, or to the sender, who may be asked to act (staff)', params: IdParamsSchema, body: NoteInputSchema, response: replies({ 201: StaffNoteResponseSchema }, ['action_on_closed']) },
  }, async (request, reply) => {
    const user = requireUser(request);
    return reply.status(201).send({ data: await postNote(ctx, { ...actorOf(request), full_name: user.full_name }, request.params.id, request.body) });
  });

  app.post('/transfer-requests/:id/messages', {
    config: { access: 'user' },
    schema: { summary: 'The sender answers on their transfer\'s thread', params: IdParamsSchema, body: MessageInputSchema, response: replies({ 201: SenderMessageResponseSchema }, ['message_limit']) },
  }, async (request, reply) => reply.status(201).send({ data: await replyToThread(ctx, requireUser(request), request.params.id, request.body) }));

  app.post('/transfer-requests/:id/proof', {
    config: { access: 'user' },
    schema: {
      summary: 'Uploads a proof of payment (PNG, JPEG, WebP or PDF) for the caller\'s open transfer',
      params: IdParamsSchema,
      consumes: ['multipart/form-data'],
      response: replies({ 201: ProofResponseSchema }, ['file_too_large', 'proof_closed', 'proof_limit_daily', 'proof_limit_transfer', 'proof_missing', 'proof_type', 'upload_incomplete']),
    },
  }, async (request, reply) => {
    const user = requireUser(request);
    // Refused before the upload is read when the request is closed or a limit is reached.
    const transfer = await checkProofUpload(ctx.db, user, request.params.id);
    if (!request.isMultipart()) throw new AppError('proof_missing');
    requireBoundary(request);
    const tooLarge = () => new AppError('file_too_large');
    const file = await request.file({ limits: { fileSize: MAX_PROOF_BYTES } }).catch((error: unknown) => { throw uploadFailure(error, tooLarge); });
    if (!file) throw new AppError('proof_missing');
    // Read to its end before its size is judged: a file cut at the limit is refused, never kept cut.
    const data = await readFilePart(file, tooLarge);
    const proof = await addProof(ctx.db, user, transfer, { filename: file.filename, data });
    return reply.status(201).send({ data: proof });
  });

  app.get('/transfer-requests/:id/proof', {
    config: { access: 'user' },
    schema: { summary: 'The transfer\'s newest proof of payment, for its sender or staff', params: IdParamsSchema, response: replies({ 200: PROOF_BYTES }) },
  }, async (request, reply) => sendProof(reply, await proofFile(ctx.db, actorOf(request), request.params.id)));

  app.get('/transfer-requests/:id/proofs/:proofId', {
    config: { access: 'user' },
    schema: { summary: 'One of the transfer\'s proofs of payment, for its sender or staff', params: ProofParamsSchema, response: replies({ 200: PROOF_BYTES }) },
  }, async (request, reply) => sendProof(reply, await proofFile(ctx.db, actorOf(request), request.params.id, request.params.proofId)));

  // Staff move a transfer and record its money.
  app.patch('/transfer-requests/:id', {
    config: { access: 'staff' },
    schema: { summary: 'Moves a transfer to another status, with an optional note to the sender (staff)', params: IdParamsSchema, body: StatusUpdateSchema, response: replies({ 200: TransferRequestResponseSchema }, ['approval_same_staff', 'capture_needs_approval', 'complete_needs_approval', 'complete_needs_both', 'complete_needs_payment', 'complete_needs_payout', 'compliance_hold', 'own_transfer', 'paypal_capture_refused', 'paypal_capture_unavailable', 'payout_attempt_open', 'processing_needs_approval', 'reject_after_payout', 'status_update_failed']) },
  }, async (request) => ({ data: await changeStatusAsStaff(forRequest(ctx, request), actorOf(request), request.params.id, request.body) }));

  // The money of a transfer (docs/rules/money-states.md): each answers 409 with the reason when its state refuses it.
  app.post('/transfer-requests/:id/payment', {
    config: { access: 'staff' },
    schema: { summary: 'Records the money received for a transfer (staff)', params: IdParamsSchema, body: PaymentRecordSchema, response: replies({ 200: TransferRequestResponseSchema }, ['own_transfer', 'payment_already_recorded', 'payment_through_pay_pal', 'transfer_closed']) },
  }, async (request) => ({ data: transferRequestToJson(await recordPayment(ctx, actorOf(request), request.params.id, request.body), ctx.config.publicUrl) }));

  app.post('/transfer-requests/:id/payout', {
    config: { access: 'staff' },
    schema: { summary: 'Records the payout made to the recipient (staff)', params: IdParamsSchema, body: PayoutRecordSchema, response: replies({ 200: TransferRequestResponseSchema }, ['approval_same_staff', 'compliance_hold', 'own_transfer', 'payout_already_sent', 'payout_attempt_failed', 'payout_attempt_open', 'payout_name_held', 'payout_needs_approval', 'payout_reversed', 'payout_needs_payment', 'transfer_closed']) },
  }, async (request) => ({ data: transferRequestToJson(await recordPayout(ctx, actorOf(request), request.params.id, request.body), ctx.config.publicUrl) }));

  app.post('/transfer-requests/:id/refund', {
    config: { access: 'staff' },
    schema: { summary: 'Records the refund owed to the sender, or asks PayPal to make it (staff)', params: IdParamsSchema, body: RefundRecordSchema, response: replies({ 200: TransferRefundResponseSchema }, ['compliance_hold', 'own_transfer', 'refund_already_made', 'refund_already_requested', 'refund_not_due']) },
  }, async (request) => ({ data: await refundTransfer(ctx, actorOf(request), request.params.id, request.body) }));

  app.get('/transfer-requests/export.csv', {
    config: { access: 'staff' },
    schema: { summary: 'The staff queue as CSV, with the list\'s filters (staff)', querystring: StaffFilterSchema, response: replies({ 200: z.any().describe('CSV (RFC 4180), one line per transfer request') }) },
  }, async (request, reply) => {
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="transfer-requests-${day}.csv"`)
      .send(await exportStream(ctx, actorOf(request), request.query));
  });

  // Four-eyes: a second staff member's approval.
  app.post('/transfer-requests/:id/approve', {
    config: { access: 'staff' },
    schema: {
      summary: 'Approves a transfer at or above its currency\'s threshold, by a second staff member (staff)',
      params: IdParamsSchema,
      body: z.object({}).optional().describe('Nothing: the approval is the caller\'s'),
      response: replies({ 200: StaffRequestResponseSchema }, ['already_approved', 'approval_not_needed', 'approval_same_staff', 'compliance_hold', 'own_transfer', 'status_final']),
    },
  }, async (request) => ({ data: await approveTransfer(ctx, actorOf(request), request.params.id) }));

  // A confirmed sanctions match closed out (docs/rules/screening.md#closing-out-a-confirmed-match): proposed, then confirmed by another.
  app.post('/transfer-requests/:id/close-out', {
    config: { access: 'staff' },
    schema: {
      summary: 'Proposes to close out a transfer held by a confirmed sanctions match, with a reason kept internal (staff, audited)',
      params: IdParamsSchema, body: CloseOutInputSchema, response: replies({ 200: CloseOutResponseSchema }, ['close_out_not_allowed', 'close_out_proposed', 'own_case', 'payout_attempt_open']),
    },
  }, async (request) => ({ data: await proposeCloseOut(forRequest(ctx, request), actorOf(request), request.params.id, request.body.reason) }));

  app.post('/transfer-requests/:id/close-out/confirm', {
    config: { access: 'staff' },
    schema: {
      summary: 'Confirms a proposed close-out, by a second staff member: the transfer is rejected, its money frozen, its sender told only that it cannot go ahead (staff, audited)',
      params: IdParamsSchema,
      body: z.object({}).optional().describe('Nothing: the confirmation is the caller\'s'),
      response: replies({ 200: CloseOutResponseSchema }, ['close_out_not_allowed', 'close_out_not_proposed', 'close_out_same_staff', 'own_case', 'payout_attempt_open']),
    },
  }, async (request) => ({ data: await confirmCloseOut(forRequest(ctx, request), actorOf(request), request.params.id) }));

  // The recipient's tracking link: the sender's own transfer only; anyone else's is "not found".
  app.delete('/transfer-requests/:id/tracking', {
    config: { access: 'user' },
    schema: { summary: 'Turns the transfer\'s tracking link off', params: IdParamsSchema, response: replies({ 204: z.null().describe('The link is off') }) },
  }, async (request, reply) => {
    await revokeTracking(ctx, requireUser(request), request.params.id);
    return reply.status(204).send(null);
  });

  app.post('/transfer-requests/:id/tracking', {
    config: { access: 'user' },
    schema: { summary: 'Makes a tracking link for the transfer, for the sender to share', params: IdParamsSchema, response: replies({ 201: TrackingLinkResponseSchema }) },
  }, async (request, reply) => reply.status(201).send({ data: await renewTracking(ctx, requireUser(request), request.params.id) }));
};
export default routes;
