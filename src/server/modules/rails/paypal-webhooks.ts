import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '@server/context.js';
import { payoutAttempts, railCallbacks } from '@server/db/schema.js';
import { enqueueOnce } from '../jobs/service.js';
import { paypalPayouts, WebhookHeadersSchema } from './paypal-payouts.js';
import { enquireSoon } from './payouts.js';

// PayPal's payout webhooks (docs/rules/payout-rails.md#paypal-payouts): stored and answered at
// once; whether PayPal sent one is asked afterwards by a durable job, so PayPal slow or down never
// holds the request open (PayPal retries a webhook that times out), and only a webhook PayPal
// vouched for brings its payout's enquiry forward.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/** A webhook body past this is refused unread: PayPal's payout item events are a few kilobytes. */
export const PAYPAL_WEBHOOK_MAX_BYTES = 64 * 1024;

/**
 * PayPal not answering the verification is asked again with the queue's backoff (e^n seconds
 * after the nth try): 10 tries span about three and a half hours.
 */
const VERIFY_JOB_ATTEMPTS = 10;

/** A payout item event (PAYMENT.PAYOUTS-ITEM.*): its id, and our reference as the item's sender_item_id. */
const ItemEventSchema = z.object({
  id: z.string().min(1).max(100),
  event_type: z.string().startsWith('PAYMENT.PAYOUTS-ITEM.').max(100),
  resource: z.object({ payout_item: z.object({ sender_item_id: z.string().min(1).max(100) }) }),
});

const VerifyJobSchema = z.object({
  callback_id: z.uuid(),
  attempt_id: z.uuid(),
  /** The event as it arrived, as text: its signature covers those very bytes, which jsonb would reorder. */
  event: z.string(),
  headers: WebhookHeadersSchema,
});

/**
 * POST /api/rails/paypal/webhook: the webhook stored as it arrived, in one statement that also
 * finds the payout its item names. Only a webhook that names one of our payouts and carries
 * PayPal's transmission headers is queued for PayPal to verify (signature_ok null until then),
 * once per PayPal event id while that verification is pending; one without those headers is
 * stored unverified (false); without PAYPAL_WEBHOOK_ID none is checked (null).
 */
export async function receivePaypalWebhook(ctx: Ctx, body: unknown, headers: Record<string, string | string[] | undefined>): Promise<void> {
  const event = ItemEventSchema.safeParse(body).data;
  const signed = WebhookHeadersSchema.safeParse(headers).data;
  const checkable = paypalPayouts(ctx.config) !== null && !!ctx.config.PAYPAL_WEBHOOK_ID;
  const reference = event?.resource.payout_item.sender_item_id ?? null;
  const toVerify = checkable && !!signed && !!event;
  const { rows } = await ctx.db.execute<{ callback_id: string; attempt_id: string | null }>(sql`with stored as (
      insert into ${railCallbacks} (operator, reference, signature_ok, body)
      values ('paypal', ${reference}, ${checkable && !signed ? false : null}, ${JSON.stringify(body ?? {})}::jsonb) returning id)
    select stored.id as callback_id,
      (select id from ${payoutAttempts} where ${toVerify}::boolean and reference = ${reference ?? ''}) as attempt_id
    from stored`);
  const { callback_id: callbackId, attempt_id: attemptId } = rows[0]!;
  if (!toVerify || !attemptId) return;
  const job: z.infer<typeof VerifyJobSchema> = { callback_id: callbackId, attempt_id: attemptId, event: JSON.stringify(body), headers: signed! };
  await enqueueOnce(ctx.db, 'paypal_webhook_verify', job, VERIFY_JOB_ATTEMPTS, `paypal-webhook:${event!.id}`);
}

/**
 * The paypal_webhook_verify job: PayPal's verify-webhook-signature asked about one stored
 * webhook. SUCCESS marks it verified (with the copies of the same event still unchecked) and
 * brings its payout's enquiry forward; FAILURE marks it unverified and moves nothing. No verdict
 * is asked again later; after the last try the webhook stays unchecked and the payout follows its
 * scheduled enquiries.
 */
export async function runPaypalWebhookVerifyJob(ctx: Ctx, payload: unknown, job: { attempts: number; max_attempts: number }): Promise<void> {
  const { callback_id: callbackId, attempt_id: attemptId, event, headers } = VerifyJobSchema.parse(payload);
  const client = paypalPayouts(ctx.config);
  if (!client || !ctx.config.PAYPAL_WEBHOOK_ID) return;
  const verified = await client.verifyWebhook(ctx.config.PAYPAL_WEBHOOK_ID, headers, JSON.parse(event));
  if (verified === null) {
    if (job.attempts < job.max_attempts) throw new Error('PayPal gave no verdict on the webhook signature');
    return;
  }
  await ctx.db.execute(sql`update ${railCallbacks} c set signature_ok = ${verified} from ${railCallbacks} v
    where v.id = ${callbackId} and (c.id = v.id
      or ${verified}::boolean and c.operator = 'paypal' and c.reference = v.reference and c.signature_ok is null and c.body = v.body)`);
  if (verified) await enquireSoon(ctx.db, attemptId);
}
