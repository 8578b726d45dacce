import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CHANNELS, type ChannelId } from '@core/channels.js';
import type { Config } from '@server/config.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { payoutAttempts, payoutRails } from '@server/db/schema.js';
import { tellSenderUnclaimed } from '../transfers/service.js';
import type { AttemptRow } from './attempts.js';
import type { MoneyOutcome, OperatorStep } from './operator.js';
import { railConfigured } from './registry.js';

// PayPal Payouts as a payout rail (docs/rules/payout-rails.md#paypal-payouts): one batch of one
// item per attempt, to the recipient's PayPal e-mail. The batch's sender_batch_id is the attempt's
// reference, written before the call: PayPal completes a payout only once per sender_batch_id, and
// answers a reused one with a link to the first batch. The item's status is the truth.

/** The longest wait on PayPal's answer: past it the payout's outcome is unknown and asked about. */
const PAYPAL_TIMEOUT_MS = 15_000;

/** The item statuses that leave the money on its way (UNCLAIMED: the recipient has 30 days to claim it). */
const PENDING_ITEM = new Set(['PENDING', 'NEW', 'ONHOLD', 'UNCLAIMED']);
/**
 * The item statuses that say no money reached the recipient: refused (FAILED, DENIED, BLOCKED) or
 * sent back (RETURNED after 30 days unclaimed, REFUNDED, REVERSED). Asked about a paid attempt,
 * the latter is a reversal (attempts.ts nextState).
 */
const FAILED_ITEM = new Set(['FAILED', 'DENIED', 'BLOCKED', 'RETURNED', 'REFUNDED', 'REVERSED']);

/** What one payout pays: the attempt's reference, the recipient's PayPal e-mail, the exact amount. */
export interface PayPalPayoutOrder {
  reference: string;
  email: string;
  /** Exact decimal with two places ("52.75"). */
  amount: string;
  currency: 'USD' | 'EUR';
  /** Shown to the recipient in PayPal's e-mail. */
  note: string;
  /** When the attempt was written: its sender_batch_id was first sent then. */
  writtenAt: Date;
}

/**
 * PayPal refuses a reused sender_batch_id for 30 days: past that (a day to spare), the batch is
 * not asked for again under it, which could make a second payout.
 */
const SENDER_BATCH_ID_KEPT_MS = 29 * 24 * 3600_000;

const ItemSchema = z.object({
  payout_item_id: z.string().optional(),
  transaction_id: z.string().optional(),
  transaction_status: z.string().optional(),
  errors: z.object({ name: z.string().optional(), message: z.string().optional() }).optional(),
});
const BatchSchema = z.object({
  batch_header: z.object({ payout_batch_id: z.string(), batch_status: z.string() }),
  items: z.array(ItemSchema).optional(),
});
const LinksSchema = z.array(z.object({ href: z.string(), rel: z.string().optional() }));
const ErrorSchema = z.object({
  name: z.string().optional(),
  message: z.string().optional(),
  details: z.array(z.object({ issue: z.string().optional(), field: z.string().optional(), link: LinksSchema.optional() })).optional(),
  links: LinksSchema.optional(),
});

export interface PayPalPayoutsOptions { baseUrl: string; clientId: string; clientSecret: string; timeoutMs: number }

/** PayPal Payouts over `fetch`: each answer reduced to the outcome the attempt model decides on. */
export class PayPalPayouts {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(private readonly options: PayPalPayoutsOptions) {}

  /** Sends the batch of one item. A 5xx or no answer is unknown: asked about, never sent under a new id. */
  async send(order: PayPalPayoutOrder): Promise<MoneyOutcome> {
    const body = {
      sender_batch_header: { sender_batch_id: order.reference, recipient_type: 'EMAIL', email_subject: 'You have a payment' },
      items: [{
        recipient_type: 'EMAIL', receiver: order.email, sender_item_id: order.reference, note: order.note,
        amount: { value: order.amount, currency: order.currency },
      }],
    };
    const answer = await this.call('POST', '/v1/payments/payouts', JSON.stringify(body));
    if (answer.kind === 'none') return unknown(step('disburse', null, null, answer.message), answer.message);
    const { status, json } = answer;
    if (status === 201 || status === 200) return batchOutcome(json, step('disburse', status, null, null));
    const error = ErrorSchema.safeParse(json).data;
    const code = error?.details?.[0]?.issue ?? error?.name ?? null;
    const duplicate = firstBatchId(error);
    // The sender_batch_id was used before: that first batch is the payout, asked about by its id.
    if (duplicate) return this.batch(duplicate);
    const said = step('disburse', status, code, error?.message ?? null);
    // Used before, with no link to the batch: PayPal holds a payout under it, its state unknown.
    if (error?.details?.some((d) => d.field?.toUpperCase() === 'SENDER_BATCH_ID')) return { state: 'unknown', reason: 'sender_batch_id_used', step: said, held: true };
    // Refused before any batch was made (bad e-mail, currency, funds): nothing moved.
    if (status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429) return { state: 'failed', reason: code ?? `HTTP ${status}`, step: said };
    return unknown(said, code ?? `HTTP ${status}`);
  }

  /**
   * The status enquiry. With the batch's id, PayPal's batch (its one item) is read. Without it
   * (the send's answer was lost), the same batch is asked for again under the same
   * sender_batch_id: PayPal answers with the first batch (or makes it, if the first never
   * arrived), never a second payout.
   */
  async status(order: PayPalPayoutOrder, batchId: string | null): Promise<MoneyOutcome> {
    if (batchId) return this.batch(batchId);
    if (Date.now() - order.writtenAt.getTime() >= SENDER_BATCH_ID_KEPT_MS) {
      return unknown(step('disbursement', null, null, 'not asked again: PayPal keeps a sender_batch_id 30 days'), 'sender_batch_id_expired');
    }
    return asEnquiry(await this.send(order));
  }

  /**
   * PayPal's own check of a webhook's signature (POST /v1/notifications/verify-webhook-signature),
   * with the transmission headers it came with and our webhook's id: true when PayPal answers
   * SUCCESS, false on FAILURE, null when PayPal gave no readable answer. `eventText` is the webhook's
   * body exactly as PayPal sent it (a JSON object): it goes into the call as it is, since PayPal
   * checks its signature against those bytes, not against a re-encoding of them.
   */
  async verifyWebhook(webhookId: string, headers: WebhookHeaders, eventText: string): Promise<boolean | null> {
    const fields = JSON.stringify({
      auth_algo: headers['paypal-auth-algo'], cert_url: headers['paypal-cert-url'], transmission_id: headers['paypal-transmission-id'],
      transmission_sig: headers['paypal-transmission-sig'], transmission_time: headers['paypal-transmission-time'],
      webhook_id: webhookId,
    });
    const answer = await this.call('POST', '/v1/notifications/verify-webhook-signature', `${fields.slice(0, -1)},"webhook_event":${eventText}}`);
    if (answer.kind === 'none' || answer.status !== 200) return null;
    const verdict = z.object({ verification_status: z.enum(['SUCCESS', 'FAILURE']) }).safeParse(answer.json);
    return verdict.success ? verdict.data.verification_status === 'SUCCESS' : null;
  }

  private async batch(batchId: string): Promise<MoneyOutcome> {
    const answer = await this.call('GET', `/v1/payments/payouts/${encodeURIComponent(batchId)}`);
    if (answer.kind === 'none') return unknown(step('disbursement', null, null, answer.message), answer.message);
    if (answer.status !== 200) return unknown(step('disbursement', answer.status, ErrorSchema.safeParse(answer.json).data?.name ?? null, null), `HTTP ${answer.status}`);
    return batchOutcome(answer.json, step('disbursement', 200, null, null));
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    const res = await fetch(new URL('/v1/oauth2/token', this.options.baseUrl), {
      method: 'POST', headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials', signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    const body = z.object({ access_token: z.string(), expires_in: z.number() }).parse(await res.json());
    this.token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in - 60) * 1000 };
    return body.access_token;
  }

  /**
   * One call to PayPal; `json` is the request body, already encoded. A token PayPal no longer takes
   * (401: revoked, or PayPal restarted) is dropped and the call made once more with a new one:
   * kept, it would fail every call until its own expiry, hours later.
   */
  private async call(method: 'GET' | 'POST', path: string, json?: string, renewed = false): Promise<{ kind: 'answer'; status: number; json: unknown } | { kind: 'none'; message: string }> {
    try {
      const res = await fetch(new URL(path, this.options.baseUrl), {
        method,
        headers: { Authorization: `Bearer ${await this.accessToken()}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: json,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (res.status === 401 && !renewed) {
        this.token = null;
        return await this.call(method, path, json, true);
      }
      return { kind: 'answer', status: res.status, json: await res.json().catch(() => ({})) };
    } catch (error) {
      return { kind: 'none', message: error instanceof Error ? error.message : 'no answer' };
    }
  }
}

function step(call: OperatorStep['call'], status: number | null, code: string | null, message: string | null): OperatorStep {
  return { at: new Date().toISOString(), call, http_status: status, operator_code: code, message };
}

function unknown(s: OperatorStep, reason: string): MoneyOutcome {
  return { state: 'unknown', reason, step: s };
}

/** The first batch's id from PayPal's answer to a reused sender_batch_id (its link to that batch, in the answer's details or beside them). */
function firstBatchId(error: z.infer<typeof ErrorSchema> | undefined): string | null {
  const links = [...(error?.details ?? []).flatMap((d) => d.link ?? []), ...(error?.links ?? [])];
  const href = links.find((l) => /\/v1\/payments\/payouts\/[^/]+$/.test(l.href))?.href;
  return href ? decodeURIComponent(href.split('/').at(-1)!) : null;
}

/** A batch's one item as an outcome: its status is the truth; the batch's own only while the item has none. */
function batchOutcome(json: unknown, said: OperatorStep): MoneyOutcome {
  const parsed = BatchSchema.safeParse(json);
  if (!parsed.success) return unknown({ ...said, message: 'unreadable answer' }, 'unreadable answer');
  const { payout_batch_id: batchId, batch_status: batchStatus } = parsed.data.batch_header;
  const item = parsed.data.items?.[0];
  const status = item?.transaction_status ?? (batchStatus === 'DENIED' ? 'DENIED' : 'PENDING');
  const s = { ...said, operator_code: status, message: item?.errors?.name ?? item?.errors?.message ?? null };
  if (status === 'SUCCESS') return { state: 'succeeded', operator_id: batchId, step: s };
  if (FAILED_ITEM.has(status)) return { state: 'failed', reason: status, step: s };
  if (PENDING_ITEM.has(status)) return { state: 'pending', operator_id: batchId, step: s };
  return unknown(s, status);
}

/** An answer to the send asked again is an enquiry's answer (it may turn a paid payout into a reversal). */
function asEnquiry(outcome: MoneyOutcome): MoneyOutcome {
  return { ...outcome, step: { ...outcome.step, call: 'disbursement' } } as MoneyOutcome;
}

/** Transfers to a PayPal channel are this rail's. */
export function paysByPaypal(destination: string): boolean {
  return CHANNELS[destination as ChannelId]?.kind === 'paypal';
}

const clients = new WeakMap<Config, PayPalPayouts | null>();

/** The Payouts client, or null when PayPal's credentials are not set. */
export function paypalPayouts(config: Config): PayPalPayouts | null {
  if (!clients.has(config)) {
    clients.set(config, railConfigured(config, 'paypal_payouts') ? new PayPalPayouts({
      baseUrl: config.PAYPAL_API_BASE, clientId: config.PAYPAL_CLIENT_ID!, clientSecret: config.PAYPAL_CLIENT_SECRET!, timeoutMs: PAYPAL_TIMEOUT_MS,
    }) : null);
  }
  return clients.get(config)!;
}

/** The rail is switched on by an admin and PayPal's credentials are set. */
export async function paypalOn(db: Db | Tx, config: Config): Promise<PayPalPayouts | null> {
  const client = paypalPayouts(config);
  if (!client) return null;
  const [row] = await db.select({ enabled: payoutRails.enabled }).from(payoutRails).where(eq(payoutRails.id, 'paypal_payouts'));
  return row?.enabled ? client : null;
}

/** What a transfer's PayPal payout pays: its amount in the payout currency, to the recipient's PayPal e-mail. */
export interface PaypalTransfer {
  id: string;
  payout_amount: string;
  payout_currency: string;
  destination_details: unknown;
}

/**
 * Writes a new PayPal attempt in `submitting`; its reference (a UUID) is the batch's
 * sender_batch_id. Refused (null) when the transfer already has an attempt open or succeeded.
 */
export async function openPaypalAttempt(tx: Tx, row: PaypalTransfer): Promise<AttemptRow | null> {
  const email = (row.destination_details as { recipient_email?: string }).recipient_email ?? '';
  const [opened] = await tx.insert(payoutAttempts).values({
    transfer_id: row.id,
    seq: sql`(select coalesce(max(seq), 0) + 1 from payout_attempts where transfer_id = ${row.id})`,
    rail: 'paypal_payouts',
    reference: crypto.randomUUID(),
    email,
    amount: row.payout_amount,
    currency: row.payout_currency as 'USD' | 'EUR',
  }).onConflictDoNothing().returning();
  return opened ?? null;
}

/** The order an attempt pays, sent once and asked about again under the same reference. */
export function paypalOrder(attempt: AttemptRow, transferReference: string): PayPalPayoutOrder {
  return {
    // The amount column keeps two decimals, as PayPal takes USD and EUR.
    reference: attempt.reference, email: attempt.email!, amount: attempt.amount, currency: attempt.currency as 'USD' | 'EUR',
    note: `Transfer ${transferReference}`, writtenAt: attempt.created_at,
  };
}

/** The transmission headers PayPal sends each webhook with, which its signature covers. */
export const WebhookHeadersSchema = z.object({
  'paypal-auth-algo': z.string().regex(/^[a-zA-Z0-9]+$/).max(50),
  'paypal-cert-url': z.url().max(500),
  'paypal-transmission-id': z.string().min(1).max(200),
  'paypal-transmission-sig': z.string().min(1).max(4000),
  'paypal-transmission-time': z.string().min(1).max(100),
});
export type WebhookHeaders = z.infer<typeof WebhookHeadersSchema>;

/**
 * Written in the transaction that wrote PayPal's answer: the sender is told when PayPal first says
 * the item is UNCLAIMED (the recipient must claim it), and when it comes back RETURNED.
 */
export async function tellSenderOfItem(ctx: Pick<AppContext, 'config'>, tx: Tx, attempt: AttemptRow): Promise<void> {
  const earlier = attempt.steps.slice(0, -1);
  const last = attempt.steps.at(-1);
  if (last?.operator_code === 'UNCLAIMED' && !earlier.some((s) => s.operator_code === 'UNCLAIMED')) {
    await tellSenderUnclaimed(ctx, tx, attempt.transfer_id, 'unclaimed');
  } else if (last?.operator_code === 'RETURNED' && last.state === 'failed' && earlier.at(-1)?.state !== 'failed') {
    await tellSenderUnclaimed(ctx, tx, attempt.transfer_id, 'unclaimed_returned');
  }
}
