import { CollectionAttemptStaffResponseSchema, CollectionRefundSchema } from '@core/api/collections.js';
import { IdParamsSchema } from '@core/api/common.js';
import {
  AskSenderResponseSchema, EmptyBodySchema, NameHoldListSchema, NameHoldResponseSchema, PayAgainSchema, PayAnywaySchema, PayoutExceptionListSchema, RecipientCorrectionResponseSchema,
} from '@core/api/payout-exceptions.js';
import { PayoutAttemptResponseSchema } from '@core/api/rails.js';
import { BankAccountCorrectionSchema, RecipientCorrectionSchema } from '@core/schemas.js';
import { replies } from '@server/lib/contract.js';
import { actorOf, requireUser } from '@server/lib/guards.js';
import type { ApiModule } from '../module.js';
import { askCollectionAgain, collectionExceptions, recordCollectionRefund } from './collection-exceptions.js';
import { askAgain, payoutExceptions, resolveFailure } from './exceptions.js';
import { askSender, confirmPayAnyway, correctHeldRecipient, correctionAsked, holdsOf, payAnyway } from './name-holds.js';
import { askSenderAfterReturn, confirmPayAgain, correctReturnedAccount, payAgain } from './pay-again.js';

// Payouts that need a person (docs/rules/payout-rails.md#needs-attention): staff's list and
// decisions, and the sender's corrected recipient when staff asked for it.

const routes: ApiModule = async (app, { ctx }) => {
  app.get('/payout-exceptions', {
    config: { access: 'staff' },
    schema: {
      summary: 'Payouts and collections that need a person: name checks to decide, attempts still unknown past PAYOUT_UNKNOWN_AFTER, failed attempts nobody acted on, money received twice (staff)',
      response: replies({ 200: PayoutExceptionListSchema }),
    },
  }, async () => {
    const [payouts, collections] = await Promise.all([payoutExceptions(ctx), collectionExceptions(ctx)]);
    return { data: [...payouts, ...collections].sort((a, b) => a.since.localeCompare(b.since)) };
  });

  app.post('/collection-attempts/:id/enquire', {
    config: { access: 'staff' },
    schema: {
      summary: "Asks the operator now about a sender's collection it has not settled (staff)",
      params: IdParamsSchema, body: EmptyBodySchema, response: replies({ 200: CollectionAttemptStaffResponseSchema }, ['own_transfer', 'collection_not_open']),
    },
  }, async (request) => ({ data: await askCollectionAgain(ctx, actorOf(request), request.params.id) }));

  app.post('/collection-attempts/:id/refund', {
    config: { access: 'staff' },
    schema: {
      summary: 'Records the refund, made by hand, of money a collection received twice for one transfer (staff, audited)',
      params: IdParamsSchema, body: CollectionRefundSchema,
      response: replies({ 200: CollectionAttemptStaffResponseSchema }, ['own_transfer', 'collection_not_twice', 'collection_refunded']),
    },
  }, async (request) => ({ data: await recordCollectionRefund(ctx, actorOf(request), request.params.id, request.body.reference) }));

  app.get('/transfer-requests/:id/payouts/name-holds', {
    config: { access: 'staff' },
    schema: { summary: "The name checks that stopped a transfer's payout, newest first, with staff's decisions (staff)", params: IdParamsSchema, response: replies({ 200: NameHoldListSchema }) },
  }, async (request) => ({ data: await holdsOf(ctx, request.params.id) }));

  const decided = ['name_hold_decided', 'own_transfer', 'transfer_closed'] as const;
  app.post('/payout-name-holds/:id/pay-anyway', {
    config: { access: 'staff' },
    schema: {
      summary: 'Pays a transfer whose name check stopped it, with a reason; at or above the approval threshold, a proposal a second staff member confirms (staff, audited)',
      params: IdParamsSchema, body: PayAnywaySchema, response: replies({ 200: NameHoldResponseSchema }, [...decided, 'name_hold_proposed']),
    },
  }, async (request) => ({ data: await payAnyway(ctx, actorOf(request), request.params.id, request.body.reason) }));

  app.post('/payout-name-holds/:id/pay-anyway/confirm', {
    config: { access: 'staff' },
    schema: {
      summary: "Confirms another staff member's proposal to pay anyway; the payout starts (staff, audited)",
      params: IdParamsSchema, body: EmptyBodySchema, response: replies({ 200: NameHoldResponseSchema }, [...decided, 'name_hold_not_proposed', 'name_hold_same_staff']),
    },
  }, async (request) => ({ data: await confirmPayAnyway(ctx, actorOf(request), request.params.id) }));

  app.post('/payout-name-holds/:id/ask-sender', {
    config: { access: 'staff' },
    schema: {
      summary: "Asks the sender to correct the recipient's name or number, by e-mail and on the transfer's page (staff, audited)",
      params: IdParamsSchema, body: EmptyBodySchema, response: replies({ 200: NameHoldResponseSchema }, [...decided]),
    },
  }, async (request) => ({ data: await askSender(ctx, actorOf(request), request.params.id) }));

  const failure = ['own_transfer', 'payout_attempt_open', 'payout_not_failed', 'transfer_closed'] as const;
  app.post('/transfer-requests/:id/payouts/retry', {
    config: { access: 'staff' },
    schema: {
      summary: 'After a confirmed failure, a new attempt through the rail (staff, audited)',
      params: IdParamsSchema, body: EmptyBodySchema, response: replies({ 200: PayoutAttemptResponseSchema }, failure),
    },
  }, async (request) => ({ data: await resolveFailure(ctx, actorOf(request), request.params.id, 'retried') }));

  app.post('/transfer-requests/:id/payouts/by-hand', {
    config: { access: 'staff' },
    schema: {
      summary: 'After a confirmed failure, leaves the payout to staff, recorded by hand (staff, audited)',
      params: IdParamsSchema, body: EmptyBodySchema, response: replies({ 200: PayoutAttemptResponseSchema }, failure),
    },
  }, async (request) => ({ data: await resolveFailure(ctx, actorOf(request), request.params.id, 'by_hand') }));

  const reversed = ['own_transfer', 'payout_attempt_open', 'payout_not_reversed', 'transfer_closed', 'bank_account_returned'] as const;
  app.post('/transfer-requests/:id/payouts/pay-again', {
    config: { access: 'staff' },
    schema: {
      summary: 'Pays again a payout the operator or the bank sent back, through the rail or by hand, with a reason; at or above the approval threshold, a proposal a second staff member confirms (staff, audited)',
      params: IdParamsSchema, body: PayAgainSchema, response: replies({ 200: PayoutAttemptResponseSchema }, [...reversed, 'payout_repay_proposed']),
    },
  }, async (request) => ({ data: await payAgain(ctx, actorOf(request), request.params.id, request.body.how, request.body.reason) }));

  app.post('/transfer-requests/:id/payouts/pay-again/confirm', {
    config: { access: 'staff' },
    schema: {
      summary: "Confirms another staff member's proposal to pay again a payout sent back (staff, audited)",
      params: IdParamsSchema, body: EmptyBodySchema,
      response: replies({ 200: PayoutAttemptResponseSchema }, [...reversed, 'payout_repay_not_proposed', 'payout_repay_same_staff']),
    },
  }, async (request) => ({ data: await confirmPayAgain(ctx, actorOf(request), request.params.id) }));

  app.post('/transfer-requests/:id/payouts/ask-sender', {
    config: { access: 'staff' },
    schema: {
      summary: "Asks the sender to correct the recipient's name or number of a mobile payout sent back, before it is paid again (staff, audited)",
      params: IdParamsSchema, body: EmptyBodySchema,
      response: replies({ 200: AskSenderResponseSchema }, [...reversed, 'name_hold_decided', 'payout_correction_unavailable']),
    },
  }, async (request) => ({ data: await askSenderAfterReturn(ctx, actorOf(request), request.params.id) }));

  app.put('/transfer-requests/:id/recipient-account', {
    config: { access: 'user' },
    schema: {
      summary: "Corrects the account holder and IBAN of the caller's transfer whose bank payout was sent back, when staff asked",
      params: IdParamsSchema, body: BankAccountCorrectionSchema, response: replies({ 200: RecipientCorrectionResponseSchema }, ['correction_not_asked']),
    },
  }, async (request) => {
    await correctReturnedAccount(ctx, actorOf(request), request.params.id, request.body);
    return { data: await correctionAsked(ctx, requireUser(request).profile_id, request.params.id) };
  });

  app.post('/transfer-requests/:id/payouts/enquire', {
    config: { access: 'staff' },
    schema: {
      summary: 'Asks the operator now about an attempt it has not settled (staff)',
      params: IdParamsSchema, body: EmptyBodySchema, response: replies({ 200: PayoutAttemptResponseSchema }, ['own_transfer', 'payout_not_open']),
    },
  }, async (request) => ({ data: await askAgain(ctx, actorOf(request), request.params.id) }));

  app.get('/transfer-requests/:id/recipient-correction', {
    config: { access: 'user' },
    schema: { summary: "What staff asked the caller to correct of their transfer's recipient, or null", params: IdParamsSchema, response: replies({ 200: RecipientCorrectionResponseSchema }) },
  }, async (request) => ({ data: await correctionAsked(ctx, requireUser(request).profile_id, request.params.id) }));

  app.put('/transfer-requests/:id/recipient', {
    config: { access: 'user' },
    schema: {
      summary: "Corrects the recipient's name and number of the caller's transfer when staff asked; the name check runs again",
      params: IdParamsSchema, body: RecipientCorrectionSchema, response: replies({ 200: RecipientCorrectionResponseSchema }, ['correction_not_asked', 'recipient_phone_operator']),
    },
  }, async (request) => {
    await correctHeldRecipient(ctx, actorOf(request), request.params.id, request.body);
    return { data: await correctionAsked(ctx, requireUser(request).profile_id, request.params.id) };
  });
};
export default routes;
