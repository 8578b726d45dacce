import { generateKeyPairSync, randomBytes, randomUUID, sign, verify } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { Failure } from '../paypal-server.js';

// PayPal Payouts on the loopback PayPal peer (paypal-server.ts), as PayPal's reference describes
// it: POST /v1/payments/payouts makes a batch once per sender_batch_id (a reused id is refused with
// a link to the first batch), GET /v1/payments/payouts/{payout_batch_id} and
// GET /v1/payments/payouts-item/{payout_item_id} read it; the test moves an item's status as PayPal
// would (claimed, returned after 30 days, reversed) and sends PAYMENT.PAYOUTS-ITEM.* webhooks,
// signed as PayPal signs them (SHA256withRSA over "transmission id|time|webhook id|CRC32 of the
// body's bytes"), which POST /v1/notifications/verify-webhook-signature checks as PayPal does:
// against the CRC32 of its webhook_event's text exactly as the call sent it (the webhook's bytes
// re-encoded, even into the same JSON, are not what was signed), answering verification_status
// SUCCESS or FAILURE; it can be down (503) or hold a call on its way, and logs each call it got.

/** The payout item statuses PayPal reports. */
export type ItemStatus = 'SUCCESS' | 'PENDING' | 'UNCLAIMED' | 'RETURNED' | 'ONHOLD' | 'BLOCKED' | 'REFUNDED' | 'REVERSED' | 'FAILED' | 'DENIED';

export interface PayoutBatch {
  id: string;
  senderBatchId: string;
  item: { id: string; senderItemId: string; receiver: string; amount: { value: string; currency: string }; note: string; status: ItemStatus; transactionId: string | null };
}

type Send = (status: number, body: unknown) => void;
/** How PayPal's verify-webhook-signature fails a call: down (503), or held on its way until released. */
type VerifyFault = { kind: 'down' } | { kind: 'held'; released: Promise<'down' | undefined> };

export class PayPalPayoutsPeer {
  readonly batches = new Map<string, PayoutBatch>();
  /** How many batches PayPal made for each sender_batch_id (never more than one). */
  readonly made = new Map<string, number>();
  /** The status a new item to this e-mail gets; SUCCESS otherwise (an e-mail with no PayPal account: UNCLAIMED). */
  private statusFor = new Map<string, ItemStatus>();
  /**
   * How PayPal answers a reused sender_batch_id: the link to the first batch in its details, as the
   * sandbox answers; or, as older answers did, "Duplicate batch request" with no link.
   */
  duplicateAnswer: 'link' | 'no_link' = 'link';

  /** The id of the webhook the app registered with PayPal (the app's PAYPAL_WEBHOOK_ID). */
  readonly webhookId = '8PT597110X687430LKGECATA';
  /** PayPal's signing key; its certificate would be at the cert URL each webhook names. */
  private readonly keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

  constructor(private readonly base: () => string) {}

  /** New items to `email` get `status`. */
  receiverStatus(email: string, status: ItemStatus): void {
    this.statusFor.set(email.toLowerCase(), status);
  }

  bySenderBatchId(senderBatchId: string): PayoutBatch | undefined {
    return [...this.batches.values()].find((b) => b.senderBatchId === senderBatchId);
  }

  /** PayPal moves the item (the recipient claimed it, 30 days passed, a reversal). */
  setItemStatus(senderBatchId: string, status: ItemStatus): PayoutBatch {
    const batch = this.bySenderBatchId(senderBatchId)!;
    batch.item.status = status;
    if (status === 'SUCCESS') batch.item.transactionId ??= randomBytes(8).toString('hex').toUpperCase();
    return batch;
  }

  /** PayPal's webhook event about an item, e.g. PAYMENT.PAYOUTS-ITEM.SUCCEEDED, its members in PayPal's order. */
  webhook(eventType: string, batch: Pick<PayoutBatch, 'id' | 'item'>): Record<string, unknown> {
    return {
      id: `WH-${randomBytes(6).toString('hex').toUpperCase()}`, event_version: '1.0', create_time: new Date().toISOString(),
      resource_type: 'payouts_item', event_type: eventType, summary: `A payout item is now ${batch.item.status}`,
      resource: this.itemJson(batch),
    };
  }

  /**
   * The webhook as PayPal delivers it: its body's text (the event as JSON), the event, and the
   * transmission headers signing that text for `webhookId`.
   */
  signedWebhook(eventType: string, batch: Pick<PayoutBatch, 'id' | 'item'>, webhookId = this.webhookId): { text: string; event: Record<string, unknown>; headers: Record<string, string> } {
    const event = this.webhook(eventType, batch);
    const text = JSON.stringify(event);
    return { text, event, headers: this.sign(text, webhookId) };
  }

  /**
   * The transmission headers PayPal sends a webhook's body with: its signature over that very
   * text, for `webhookId` (ours unless told: another account's webhook id makes a signature we do
   * not verify).
   */
  sign(text: string, webhookId = this.webhookId): Record<string, string> {
    const id = randomUUID();
    const time = new Date().toISOString();
    const signature = sign('sha256', Buffer.from(this.signedText(id, time, webhookId, text)), this.keys.privateKey).toString('base64');
    return {
      'paypal-auth-algo': 'SHA256withRSA', 'paypal-cert-url': `${this.base()}/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77`,
      'paypal-transmission-id': id, 'paypal-transmission-sig': signature, 'paypal-transmission-time': time,
    };
  }

  private signedText(transmissionId: string, time: string, webhookId: string, eventText: string): string {
    return `${transmissionId}|${time}|${webhookId}|${crc32(eventText)}`;
  }

  /**
   * Each verify-webhook-signature call in the order it arrived, with the transmission it asked
   * about and the HTTP status answered (null while it is held, unanswered).
   */
  readonly verifyCalls: { transmissionId: string; status: number | null }[] = [];
  private verifyFaults: VerifyFault[] = [];

  /** The next `times` verify-webhook-signature calls answer 503 with no verdict (PayPal down). */
  failVerifyNext(times = 1): void {
    this.verifyFaults.push(...Array.from({ length: times }, () => ({ kind: 'down' as const })));
  }

  /** The next verify-webhook-signature call is held on its way until `release`, then answered (503 when `down`). */
  holdVerifyNext(): (answer?: 'down') => void {
    let release!: (answer?: 'down') => void;
    this.verifyFaults.push({ kind: 'held', released: new Promise((resolve) => { release = resolve; }) });
    return release;
  }

  /** POST /v1/notifications/verify-webhook-signature: PayPal's answer for a webhook and the webhook id it was sent to. */
  private verifyWebhook(raw: string, send: Send): void {
    const body = JSON.parse(raw) as Record<string, unknown>;
    const call = { transmissionId: String(body.transmission_id ?? ''), status: null as number | null };
    this.verifyCalls.push(call);
    const answer: Send = (status, json) => { call.status = status; send(status, json); };
    const fault = this.verifyFaults.shift();
    if (fault?.kind === 'held') {
      void fault.released.then((then) => (then === 'down' ? answer(503, { name: 'SERVICE_UNAVAILABLE' }) : this.verdict(raw, body, answer)));
      return;
    }
    if (fault?.kind === 'down') return answer(503, { name: 'SERVICE_UNAVAILABLE' });
    return this.verdict(raw, body, answer);
  }

  private verdict(raw: string, body: Record<string, unknown>, send: Send): void {
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'] as const;
    const missing = fields.filter((f) => typeof body[f] !== 'string' || body[f] === '');
    if (missing.length > 0 || typeof body.webhook_event !== 'object' || body.webhook_event === null) {
      return send(400, { name: 'VALIDATION_ERROR', message: 'Invalid request - see details', details: [...missing, ...(body.webhook_event ? [] : ['webhook_event'])].map((field) => ({ field, issue: 'MISSING_REQUIRED_PARAMETER' })) });
    }
    // The CRC32 of the event's text as the call carried it, not of the JSON it parses to.
    const text = this.signedText(body.transmission_id as string, body.transmission_time as string, body.webhook_id as string, memberText(raw, 'webhook_event')!);
    let ok = false;
    try {
      ok = body.auth_algo === 'SHA256withRSA' && verify('sha256', Buffer.from(text), this.keys.publicKey, Buffer.from(body.transmission_sig as string, 'base64'));
    } catch { /* an unreadable signature is no signature */ }
    return send(200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
  }

  handle(method: string, path: string, raw: string, failure: Failure | undefined, send: Send): void {
    if (method === 'POST' && path === '/v1/notifications/verify-webhook-signature') return this.verifyWebhook(raw, send);
    if (method === 'POST' && path === '/v1/payments/payouts') return this.create(raw, failure, send);
    const batch = /^\/v1\/payments\/payouts\/([^/]+)$/.exec(path);
    if (method === 'GET' && batch) {
      const found = this.batches.get(batch[1]!);
      return found ? send(200, this.batchJson(found)) : send(404, { name: 'INVALID_RESOURCE_ID', message: 'The requested resource ID was not found' });
    }
    const item = /^\/v1\/payments\/payouts-item\/([^/]+)$/.exec(path);
    if (method === 'GET' && item) {
      const found = [...this.batches.values()].find((b) => b.item.id === item[1]);
      return found ? send(200, this.itemJson(found)) : send(404, { name: 'INVALID_RESOURCE_ID' });
    }
    return send(404, { name: 'NOT_FOUND' });
  }

  private create(raw: string, failure: Failure | undefined, send: Send): void {
    if (failure?.kind === 'down') return send(503, { name: 'SERVICE_UNAVAILABLE' });
    if (failure?.kind === 'refused') return send(422, { name: 'UNPROCESSABLE_ENTITY', message: failure.description, details: [{ issue: failure.issue }] });
    const body = JSON.parse(raw) as {
      sender_batch_header?: { sender_batch_id?: string };
      items?: { receiver?: string; sender_item_id?: string; note?: string; amount?: { value?: string; currency?: string } }[];
    };
    const senderBatchId = body.sender_batch_header?.sender_batch_id;
    const item = body.items?.[0];
    if (!senderBatchId || body.items?.length !== 1 || !item?.receiver || !/^\d+\.\d{2}$/.test(item.amount?.value ?? '') || !['USD', 'EUR'].includes(item.amount?.currency ?? '')) {
      return send(400, { name: 'VALIDATION_ERROR', message: 'Invalid request', details: [{ issue: 'INVALID_PARAMETER' }] });
    }
    const first = this.bySenderBatchId(senderBatchId);
    if (first) {
      return send(400, this.duplicateAnswer === 'link' ? {
        name: 'USER_BUSINESS_ERROR', message: 'User business error.',
        details: [{
          field: 'SENDER_BATCH_ID', location: 'body', issue: 'Batch with given sender_batch_id already exists',
          link: [{ href: `${this.base()}/v1/payments/payouts/${first.id}`, rel: 'self', method: 'GET', encType: 'application/json' }],
        }],
        links: [],
      } : { name: 'USER_BUSINESS_ERROR', message: 'User business error.', details: [{ field: 'SENDER_BATCH_ID', issue: 'Duplicate batch request' }] });
    }
    const status = this.statusFor.get(item.receiver.toLowerCase()) ?? 'SUCCESS';
    const batch: PayoutBatch = {
      id: randomBytes(7).toString('hex').toUpperCase(), senderBatchId,
      item: {
        id: randomBytes(7).toString('hex').toUpperCase(), senderItemId: item.sender_item_id ?? '', receiver: item.receiver,
        amount: { value: item.amount!.value!, currency: item.amount!.currency! }, note: item.note ?? '', status,
        transactionId: status === 'SUCCESS' ? randomBytes(8).toString('hex').toUpperCase() : null,
      },
    };
    this.batches.set(batch.id, batch);
    this.made.set(senderBatchId, (this.made.get(senderBatchId) ?? 0) + 1);
    // PayPal answers the creation with the batch PENDING and no items yet.
    const answer = { batch_header: { payout_batch_id: batch.id, batch_status: 'PENDING', sender_batch_header: { sender_batch_id: senderBatchId } } };
    return send(failure?.kind === 'lost' ? 500 : 201, failure?.kind === 'lost' ? { name: 'INTERNAL_SERVER_ERROR' } : answer);
  }

  private itemJson(b: Pick<PayoutBatch, 'id' | 'item'>) {
    return {
      payout_item_id: b.item.id, payout_batch_id: b.id, transaction_status: b.item.status,
      ...(b.item.transactionId ? { transaction_id: b.item.transactionId } : {}),
      ...(['FAILED', 'DENIED', 'BLOCKED'].includes(b.item.status) ? { errors: { name: b.item.status === 'BLOCKED' ? 'RECEIVER_ACCOUNT_LOCKED' : 'RECEIVER_UNREGISTERED' } } : {}),
      payout_item: { recipient_type: 'EMAIL', receiver: b.item.receiver, sender_item_id: b.item.senderItemId, note: b.item.note, amount: b.item.amount },
    };
  }

  private batchJson(b: PayoutBatch) {
    const done = !['PENDING', 'ONHOLD'].includes(b.item.status);
    return {
      batch_header: { payout_batch_id: b.id, batch_status: done ? 'SUCCESS' : 'PROCESSING', sender_batch_header: { sender_batch_id: b.senderBatchId }, amount: b.item.amount },
      items: [this.itemJson(b)],
    };
  }
}

/**
 * The exact text of a member's value in a JSON object's text, as it was written (undefined when the
 * object has no such member). `json` is known to be a JSON object.
 */
function memberText(json: string, name: string): string | undefined {
  for (let at = json.indexOf('{') + 1; at > 0 && at < json.length;) {
    const keyStart = json.indexOf('"', at);
    if (keyStart < 0) return undefined;
    const keyEnd = stringEnd(json, keyStart);
    const valueStart = json.indexOf(':', keyEnd) + 1;
    const valueEnd = memberEnd(json, valueStart);
    if (JSON.parse(json.slice(keyStart, keyEnd)) === name) return json.slice(valueStart, valueEnd).trim();
    at = valueEnd + 1;
  }
  return undefined;
}

/** Where the JSON string opening at `start` ends (just past its closing quote). */
function stringEnd(json: string, start: number): number {
  let at = start + 1;
  while (json[at] !== '"') at += json[at] === '\\' ? 2 : 1;
  return at + 1;
}

/** Where the member value starting at `start` ends: the comma or brace after it, outside any string or nesting. */
function memberEnd(json: string, start: number): number {
  let depth = 0;
  for (let at = start; at < json.length; at++) {
    const c = json[at];
    if (c === '"') at = stringEnd(json, at) - 1;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && depth-- === 0) return at;
    else if (c === ',' && depth === 0) return at;
  }
  return json.length;
}
