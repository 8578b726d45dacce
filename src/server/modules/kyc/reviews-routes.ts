import { IdParamsSchema } from '@core/api/common.js';
import {
  KycOpenReviewResponseSchema, KycReviewDecisionSchema, KycReviewDetailResponseSchema, KycReviewListSchema, KycReviewQuerySchema, KycReviewSubmitSchema,
} from '@core/api/kyc-reviews.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { AppContext } from '@server/context.js';
import type { ApiModule } from '../module.js';
import { decideReview, reviewDetail, reviewQueue, submitReview } from './reviews.js';

// Reviews of a sender's documents (docs/rules/know-your-sender.md#reviews): the sender submits;
// staff (with their second factor, as every staff route: lib/access.ts) read the queue and decide.

type App = Parameters<ApiModule>[0];

export async function reviewRoutes(api: App, ctx: AppContext): Promise<void> {
  api.post('/kyc/reviews', {
    config: { access: 'user' },
    schema: {
      summary: 'Asks staff to review the sender\'s uploaded documents for level 2 or 3 (one open review at a time)',
      body: KycReviewSubmitSchema, response: replies({ 201: KycOpenReviewResponseSchema }, ['kyc_review_documents_missing', 'kyc_review_level_held', 'kyc_review_open', 'not_found']),
    },
  }, async (request, reply) => reply.status(201).send({ data: await submitReview(ctx, requireUser(request).profile_id, request.body.level) }));

  api.get('/kyc/reviews', {
    config: { access: 'staff' },
    schema: {
      summary: 'Identity reviews of one status, open ones oldest first with the time waiting (staff)',
      querystring: KycReviewQuerySchema, response: replies({ 200: KycReviewListSchema }, ['not_found']),
    },
  }, async (request) => ({ data: await reviewQueue(ctx, request.query.status) }));

  api.get('/kyc/reviews/:id', {
    config: { access: 'staff' },
    schema: {
      summary: 'An identity review: the sender\'s profile to compare, its documents (metadata, link, MRZ when read) (staff)',
      params: IdParamsSchema, response: replies({ 200: KycReviewDetailResponseSchema }),
    },
  }, async (request) => ({ data: await reviewDetail(ctx, request.params.id) }));

  api.post('/kyc/reviews/:id/decision', {
    config: { access: 'staff' },
    schema: {
      summary: 'Decides an open identity review: approve (sets the level), reject (the reason) or request_more (what is needed and which documents to send again, the others kept); e-mailed to the sender, audited (staff)',
      params: IdParamsSchema, body: KycReviewDecisionSchema, response: replies({ 200: KycReviewDetailResponseSchema }, ['kyc_review_decided', 'kyc_review_level_over', 'kyc_review_note_required', 'kyc_review_resend_required', 'own_case']),
    },
  }, async (request) => ({ data: await decideReview(ctx, actorOf(request), request.params.id, request.body) }));
}
