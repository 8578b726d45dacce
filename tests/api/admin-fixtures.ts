// Back-office test data: transfers inserted straight into the tables, as initiation would leave them.
import { randomBytes } from 'node:crypto';
import { directionById, type DirectionId } from '@core/channels.js';
import { computeQuote } from '@core/fees.js';
import { parseAmount, toDecimal } from '@core/money.js';
import { transactions, transferRequests } from '@server/db/schema.js';
import { listTiers } from '@server/modules/fees/repo.js';
import { loadRates } from '@server/modules/rates/repo.js';
import type { TestApp } from '../support/test-app.js';

export interface TransferOverrides {
  direction?: DirectionId;
  amount?: string;
  status?: 'pending' | 'processing' | 'completed' | 'rejected' | 'cancelled';
  recipient?: Record<string, string>;
  created_at?: Date;
  reference?: string;
  provider_txn_id?: string;
  /** The payment recorded as received (the total), as staff or a PayPal capture leave it. */
  paid?: boolean;
  /** The payout recorded as sent (needs `paid`). */
  paidOut?: boolean;
}

/** A transfer request and its transaction, priced with the tiers and rates stored right now. */
export async function createTransfer(t: TestApp, profileId: string, o: TransferOverrides = {}) {
  const db = t.database.db;
  const direction = o.direction ?? 'USD_XAF';
  const dir = directionById(direction)!;
  const amount = parseAmount(o.amount ?? '100', dir.from)!;
  const quote = computeQuote({ direction, amount, tiers: await listTiers(db, direction), rates: await loadRates(db) });
  const destination = o.recipient ?? { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' };
  const at = o.created_at ?? new Date();
  const [request] = await db.insert(transferRequests).values({
    reference: o.reference ?? `TR-${randomBytes(4).toString('hex').toUpperCase()}`,
    profile_id: profileId, direction, source_provider: dir.source, destination_provider: dir.destination,
    source_details: {}, destination_details: destination,
    amount: toDecimal(quote.amount, dir.from), currency: dir.from, fee: toDecimal(quote.fee, dir.from),
    total: toDecimal(quote.total, dir.from), rate: quote.rate, payout_amount: toDecimal(quote.payout, dir.to),
    payout_currency: dir.to, fee_tier_id: quote.tier?.id ?? null, status: o.status ?? 'pending',
    provider_txn_id: o.provider_txn_id ?? null, created_at: at, updated_at: at,
    ...(o.paid ? { payment_status: 'received' as const, payment_amount: toDecimal(quote.total, dir.from), payment_reference: 'STATEMENT-1', payment_recorded_at: at } : {}),
    ...(o.paidOut ? { payout_status: 'sent' as const, payout_reference: 'PAYOUT-1', payout_sent_at: at } : {}),
  }).returning();
  await db.insert(transactions).values({
    transfer_request_id: request!.id, profile_id: profileId, direction, amount: request!.amount, currency: dir.from,
    status: request!.status, destination_details: destination, created_at: at, updated_at: at,
  });
  return request!;
}
