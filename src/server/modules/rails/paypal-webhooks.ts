import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '@core/errors.js';
import type { AppContext } from '@server/context.js';
import { payoutAttempts, railCallbacks } from '@server/db/schema.js';
import { enqueueOnce } from '../jobs/service.js';
import { paypalPayouts, WebhookHeadersSchema } from './paypal-payouts.js';
import { enquireSoon } from './payouts.js';

// PayPal's payout webhooks (docs/rules/payout-rails.md#paypal-payouts): stored and answered at
// once; whether PayPal sent one is asked afterwards by a durable job, so PayPal slow or down never
// holds the request open (PayPal retries a webhook that times out), and only a webhook PayPal
// vouched for brings its payout's enquiry forward. PayPal signs the very bytes it sent (their CRC32
// is part of what it signs): the body is kept as that text, verified as it is and never re-encoded,
// which could reorder its keys or rewrite its escapes and numbers.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/** A webhook body past this is refused unread: PayPal's payout item events are a few kilobytes. */
export const PAYPAL_WEBHOOK_MAX_BYTES = 64 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The webhook route's body parser: PayPal's bytes as the text they are; bytes that are not UTF-8
 * are refused rather than read with replacement characters PayPal never signed.
 */
export function paypalWebhookText(_request: unknown, bytes: Buffer, done: (error: Error | null, text?: string) => void): void {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return done(new AppError('bad_request'));
  }
  done(null, text);
}

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
 * stored unverified (false); without PAYPAL_WEBHOOK_ID none is checked (null). A body that is not
 * a JSON object, or that jsonb cannot hold, is refused (bad_request) and nothing is stored.
 */
export async function receivePaypalWebhook(ctx: Ctx, text: string, headers: Record<string, string | string[] | undefined>): Promise<void> {
  const body = jsonObject(text);
  if (!body) throw new AppError('bad_request');
  const event = ItemEventSchema.safeParse(body).data;
  const signed = WebhookHeadersSchema.safeParse(headers).data;
  const checkable = paypalPayouts(ctx.config) !== null && !!ctx.config.PAYPAL_WEBHOOK_ID;
  const reference = event?.resource.payout_item.sender_item_id ?? null;
  const toVerify = checkable && !!signed && !!event;
  const { rows } = await ctx.db.execute<{ callback_id: string; attempt_id: string | null }>(sql`with stored as (
      insert into ${railCallbacks} (operator, reference, signature_ok, body)
      values ('paypal', ${reference}, ${checkable && !signed ? false : null}, ${text}::jsonb) returning id)
    select stored.id as callback_id,
      (select id from ${payoutAttempts} where ${toVerify}::boolean and reference = ${reference ?? ''}) as attempt_id
    from stored`).catch((error: unknown) => { throw dataException(error) ? new AppError('bad_request') : error; });
  const { callback_id: callbackId, attempt_id: attemptId } = rows[0]!;
  if (!toVerify || !attemptId) return;
  const job: z.infer<typeof VerifyJobSchema> = { callback_id: callbackId, attempt_id: attemptId, event: text, headers: signed! };
  await enqueueOnce(ctx.db, 'paypal_webhook_verify', job, VERIFY_JOB_ATTEMPTS, `paypal-webhook:${event!.id}`);
}

/** The JSON object the text reads as; null when it is not JSON, or JSON but not an object. */
function jsonObject(text: string): object | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Postgres refusing the text as jsonb (a \u0000 or a lone surrogate in a string, a number past
 * numeric's range): a data exception, class 22, possibly wrapped by the driver's caller.
 */
function dataException(error: unknown): boolean {
  const codeOf = (e: unknown) => String((e as { code?: unknown } | null)?.code ?? '');
  return [error, (error as { cause?: unknown } | null)?.cause].some((e) => codeOf(e).startsWith('22'));
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
  const verified = await client.verifyWebhook(ctx.config.PAYPAL_WEBHOOK_ID, headers, event);
  if (verified === null) {
    if (job.attempts < job.max_attempts) throw new Error('PayPal gave no verdict on the webhook signature');
    return;
  }
  await ctx.db.execute(sql`update ${railCallbacks} c set signature_ok = ${verified} from ${railCallbacks} v
    where v.id = ${callbackId} and (c.id = v.id
      or ${verified}::boolean and c.operator = 'paypal' and c.reference = v.reference and c.signature_ok is null and c.body = v.body)`);
  if (verified) await enquireSoon(ctx.db, attemptId);
}
