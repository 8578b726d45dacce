import { randomBytes } from 'node:crypto';
import type { Failure } from '../paypal-server.js';

// PayPal Payouts on the loopback PayPal peer (paypal-server.ts), as PayPal's reference describes
// it: POST /v1/payments/payouts makes a batch once per sender_batch_id (a reused id is refused with
// a link to the first batch), GET /v1/payments/payouts/{payout_batch_id} and
// GET /v1/payments/payouts-item/{payout_item_id} read it; the test moves an item's status as PayPal
// would (claimed, returned after 30 days, reversed) and sends PAYMENT.PAYOUTS-ITEM.* webhooks.

/** The payout item statuses PayPal reports. */
export type ItemStatus = 'SUCCESS' | 'PENDING' | 'UNCLAIMED' | 'RETURNED' | 'ONHOLD' | 'BLOCKED' | 'REFUNDED' | 'REVERSED' | 'FAILED' | 'DENIED';

export interface PayoutBatch {
  id: string;
  senderBatchId: string;
  item: { id: string; senderItemId: string; receiver: string; amount: { value: string; currency: string }; note: string; status: ItemStatus; transactionId: string | null };
}

type Send = (status: number, body: unknown) => void;

export class PayPalPayoutsPeer {
  readonly batches = new Map<string, PayoutBatch>();
  /** How many batches PayPal made for each sender_batch_id (never more than one). */
  readonly made = new Map<string, number>();
  /** The status a new item to this e-mail gets; SUCCESS otherwise (an e-mail with no PayPal account: UNCLAIMED). */
  private statusFor = new Map<string, ItemStatus>();

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

  /** PayPal's webhook body for an item's event, e.g. PAYMENT.PAYOUTS-ITEM.SUCCEEDED. */
  webhook(eventType: string, batch: Pick<PayoutBatch, 'id' | 'item'>): unknown {
    return {
      id: `WH-${randomBytes(6).toString('hex').toUpperCase()}`, event_type: eventType, resource_type: 'payouts_item',
      resource: this.itemJson(batch),
    };
  }

  handle(method: string, path: string, raw: string, failure: Failure | undefined, send: Send): void {
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
      return send(400, {
        name: 'USER_BUSINESS_ERROR', message: 'User business error.',
        details: [{ field: 'SENDER_BATCH_ID', issue: `Batch with given sender_batch_id already exists` }],
        links: [{ href: `${this.base()}/v1/payments/payouts/${first.id}`, rel: 'self', method: 'GET' }],
      });
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
